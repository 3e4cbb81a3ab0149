"""Mutation score of one lmcore module against its own tests and doctests (a script, not a test).

    pip install mutmut==2.5.1          # once, in any environment (a separate one is fine: MUTMUT=path)
    python benchmarks/mutation.py lmcore/info/measures.py tests/unit/test_info.py
    python benchmarks/mutation.py lmcore/bleu/score.py tests/unit/test_bleu.py tests/parity/test_bleu_parity.py \
        --sample 150
    python benchmarks/mutation.py lmcore/coding/coder.py tests/unit/test_coding.py --working-tree

mutmut edits the module in place, so the run happens in a fresh clone of this repository's
committed HEAD in a temporary folder; ``--working-tree`` copies the working tree's
``lmcore/`` and ``tests/`` (only those) over the clone's, so uncommitted code and tests are
measured. mutmut only lists the mutants (``mutmut run`` with a runner that always passes)
and applies them (``mutmut apply``); the script runs the given tests plus the module's
doctests with this Python on each mutant (all of them, or a seeded ``--sample`` of them,
which is what makes sampling save time), one at a time. A mutant is killed when the tests
fail (any non-zero exit, an import error included) or take over ten times as long as on
the unmutated module. The script prints the number of mutants, killed and surviving, the
score, and the score leaving out mutants that only change the text of an error or warning
message (a string inside a ``raise`` or ``warn`` call), then lists the survivors that count.
``--only NAME,...`` keeps the mutants inside the named top-level functions, classes and
assignments (an explorer's pure compute and render functions, say, without its wiring);
``--sample`` then draws from those.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def message_lines(source: str) -> set[int]:
    """Line numbers inside a ``raise`` statement or a ``warn(...)`` call."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        is_warning = isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "warn"
        if isinstance(node, ast.Raise) or is_warning:
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def strip_strings(line: str) -> str:
    return re.sub(r"""(?:[rbfu]{0,2})("([^"\\]|\\.)*"|'([^'\\]|\\.)*')""", '""', line)


def changes(diff: str) -> tuple[list[str], list[str], list[int]]:
    """The removed lines, the added lines and the line numbers (in the module) of the removed ones."""
    removed, added, changed, line_number = [], [], [], None
    for line in diff.splitlines():
        if line.startswith("@@"):
            line_number = int(re.match(r"@@ -(\d+)", line).group(1))
        elif line_number is None or line.startswith(("---", "+++")):
            continue
        elif line.startswith("-"):
            removed.append(line[1:])
            changed.append(line_number)
            line_number += 1
        elif line.startswith("+"):
            added.append(line[1:])
        else:
            line_number += 1
    return removed, added, changed


def is_message_only(diff: str, messages: set[int]) -> bool:
    """A mutant whose changed lines differ only inside string literals, all in a message."""
    removed, added, changed = changes(diff)
    if not removed or len(removed) != len(added):
        return False
    same_code = all(strip_strings(a) == strip_strings(b) for a, b in zip(removed, added))
    return same_code and all(n in messages for n in changed)


def lines_of(source: str, names: list[str]) -> set[int]:
    """Line numbers of the module's top-level functions, classes and assignments called one of ``names``."""
    lines, found = set(), set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            node_names = {node.name}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            node_names = {t.id for t in targets if isinstance(t, ast.Name)}
        else:
            continue
        if node_names & set(names):
            found |= node_names & set(names)
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            lines.update(range(first, node.end_lineno + 1))
    if set(names) - found:
        sys.exit(f"--only: no top-level {', '.join(sorted(set(names) - found))} in the module")
    return lines


def clone(folder: Path, working_tree: bool) -> Path:
    """A fresh clone of HEAD; with ``working_tree``, the working tree's lmcore/ and tests/ copied over it."""
    repo = folder / "repo"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
    if working_tree:
        for name in ("lmcore", "tests"):
            shutil.rmtree(repo / name)
            shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="e.g. lmcore/info/measures.py")
    parser.add_argument("tests", nargs="+", help="the module's own test files")
    parser.add_argument("--sample", type=int, help="score a seeded sample of this many mutants")
    parser.add_argument("--working-tree", action="store_true",
                        help="measure the working tree's lmcore/ and tests/ rather than committed HEAD")
    parser.add_argument("--only", metavar="NAME,...",
                        help="only mutants inside these top-level functions, classes or assignments")
    args = parser.parse_args()
    mutmut = os.environ.get("MUTMUT", shutil.which("mutmut") or "mutmut")

    with tempfile.TemporaryDirectory() as folder:
        repo = clone(Path(folder), args.working_tree)
        # the clone's lmcore, not the installed one; no stale bytecode of a previous mutant; no plugins
        # (nbval, xdist: loading them is two thirds of a short run), so pyproject's options go too
        env = {**os.environ, "PYTHONPATH": str(repo), "PYTHONDONTWRITEBYTECODE": "1",
               "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        runner = [sys.executable, "-m", "pytest", "-o", "addopts=", "--doctest-modules", "-x", "-q",
                  "-p", "no:cacheprovider", *args.tests, args.module]

        def tests_fail(timeout: float | None = None) -> bool:
            try:
                return subprocess.run(runner, cwd=repo, env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, timeout=timeout).returncode != 0
            except subprocess.TimeoutExpired:
                return True  # a mutant that makes the tests hang is caught too

        def mutmut_out(*command: str) -> str:
            return subprocess.run([mutmut, *command], cwd=repo, env=env, capture_output=True, text=True,
                                  check=True).stdout

        start = time.perf_counter()
        if tests_fail():
            sys.exit(f"the tests fail on the unmutated module: {' '.join(runner)}")
        timeout = 10 * (time.perf_counter() - start) + 5
        # list the mutants only: every one "survives" a runner that always passes
        subprocess.run([mutmut, "run", "--paths-to-mutate", args.module, "--runner", f"{sys.executable} -c pass",
                        "--tests-dir", "tests", "--no-progress", "--simple-output"],
                       cwd=repo, env=env, stdout=subprocess.DEVNULL)
        statuses = ("survived", "killed", "timeout", "suspicious", "skipped", "untested")  # a slow `pass` times out
        every = sorted({i for status in statuses for i in mutmut_out("result-ids", status).split()}, key=int)
        source_path = repo / args.module
        source = source_path.read_text(encoding="utf-8")
        diffs = {}
        if args.only:
            parts = lines_of(source, args.only.split(","))
            diffs = {i: mutmut_out("show", i) for i in every}
            every = [i for i in every if set(changes(diffs[i])[2]) <= parts]
        if args.sample and args.sample < len(every):
            every = sorted(random.Random(0).sample(every, args.sample), key=int)
        messages = message_lines(source)
        killed = set()
        for done, i in enumerate(every, 1):
            if i not in diffs:
                diffs[i] = mutmut_out("show", i)
            mutmut_out("apply", i)
            try:
                if tests_fail(timeout):
                    killed.add(i)
            finally:
                source_path.write_text(source, encoding="utf-8")
            if done % 25 == 0 or done == len(every):
                print(f"{done}/{len(every)} mutants run, {len(killed)} killed", file=sys.stderr, flush=True)
    message_only = {i for i in every if is_message_only(diffs[i], messages)}
    n_killed = len(killed)
    counted = [i for i in every if i not in message_only]
    counted_killed = sum(i in killed for i in counted)
    print(f"{args.module}: {len(every)} mutants, {n_killed} killed, score {n_killed / len(every):.0%}; "
          f"leaving out {len(message_only)} message-only mutants: "
          f"{counted_killed}/{len(counted)} = {counted_killed / len(counted):.0%}")
    for i in counted:
        if i not in killed:
            print(f"\nsurvivor {i}:\n{diffs[i]}")


if __name__ == "__main__":
    main()
