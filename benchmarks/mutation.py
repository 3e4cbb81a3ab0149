"""Mutation score of one lmcore module against its own tests and doctests (a script, not a test).

    pip install mutmut==2.5.1          # once, in any environment (a separate one is fine: MUTMUT=path)
    python benchmarks/mutation.py lmcore/info.py tests/test_info.py
    python benchmarks/mutation.py lmcore/bleu.py tests/test_bleu.py tests/test_bleu_parity.py --sample 150

mutmut edits the module in place, so the run happens in a fresh clone of this repository's
committed HEAD in a temporary folder (uncommitted changes are not measured); there, each
mutant runs the given tests plus the module's doctests with this Python. The script prints
the number of mutants, killed and surviving, the score, and the score leaving out mutants
that only change the text of an error or warning message (a string inside a ``raise`` or
``warn`` call), then lists the survivors that count.
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


def is_message_only(diff: str, messages: set[int]) -> bool:
    """A mutant whose changed lines differ only inside string literals, all in a message."""
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
    if not removed or len(removed) != len(added):
        return False
    same_code = all(strip_strings(a) == strip_strings(b) for a, b in zip(removed, added))
    return same_code and all(n in messages for n in changed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="e.g. lmcore/info.py")
    parser.add_argument("tests", nargs="+", help="the module's own test files")
    parser.add_argument("--sample", type=int, help="score a seeded sample of this many mutants")
    args = parser.parse_args()
    mutmut = os.environ.get("MUTMUT", shutil.which("mutmut") or "mutmut")

    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
        env = {**os.environ, "PYTHONPATH": str(repo)}  # the clone's lmcore, not the installed one
        runner = (f"{sys.executable} -m pytest -x -q -n 0 -p no:randomly -p no:cacheprovider "
                  f"{' '.join(args.tests)} {args.module}")
        subprocess.run([mutmut, "run", "--paths-to-mutate", args.module, "--runner", runner,
                        "--tests-dir", "tests", "--no-progress", "--simple-output"],
                       cwd=repo, env=env, stdout=subprocess.DEVNULL)
        ids = subprocess.run([mutmut, "result-ids", "killed"], cwd=repo, env=env, capture_output=True,
                             text=True).stdout.split()
        survived = subprocess.run([mutmut, "result-ids", "survived"], cwd=repo, env=env, capture_output=True,
                                  text=True).stdout.split()
        timeouts = subprocess.run([mutmut, "result-ids", "timeout"], cwd=repo, env=env, capture_output=True,
                                  text=True).stdout.split()
        killed = set(ids) | set(timeouts)  # a mutant that makes the tests hang is caught too
        every = sorted(killed | set(survived), key=int)
        if args.sample and args.sample < len(every):
            every = sorted(random.Random(0).sample(every, args.sample), key=int)
        messages = message_lines((repo / args.module).read_text(encoding="utf-8"))
        diffs = {i: subprocess.run([mutmut, "show", i], cwd=repo, env=env, capture_output=True,
                                   text=True).stdout for i in every}
    message_only = {i for i in every if is_message_only(diffs[i], messages)}
    n_killed = sum(i in killed for i in every)
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
