"""The student edition: every chapter without its reference answers, everything else kept.

    python classroom/student_edition.py                 # writes student/ (not committed)
    python classroom/student_edition.py --out handout   # or another folder

Each chapter keeps its text, code, stored outputs, explorers and the instant self-checks
(``exercises.check_...(answer)`` still says right or wrong and names the usual mistake);
only the folded answers (``<details><summary>Answer</summary> ... </details>``) go, each
replaced by a line saying the answer is withheld and pointing at the exercise's check: "above"
where the answer opens the cell after the check (chapters 1, 4-7), "below" where it is folded
under the question and the check follows (chapters 2, 3). Chapters are found by name, so a new
chapter (or the Chinese edition in ``notebooks/zh/``) needs no change here.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
ANSWER_LABEL = {"en": "Answer", "zh": "答案"}
"""The one label every folded answer goes under, by edition: ``<details><summary>Answer</summary>``
(tests/notebooks/test_notebook_hygiene.py holds every chapter to it)."""
ANSWER = re.compile(r"<details>\s*<summary>\s*(?:Reference answer|Answer|答案|参考答案)\s*</summary>.*?</details>",
                    re.DOTALL | re.IGNORECASE)
"""A folded answer; older labels too, so that no answer under one reaches the student edition."""
WITHHELD = {
    "en": "*The reference answer is in the instructor's edition; {check} tells you whether you are right.*",
    "zh": "*参考答案在教师版中；{check}会告诉你答对了没有。*",
}
"""What replaces a folded answer, by the edition's language (the Chinese edition is ``notebooks/zh/``)."""
THE_CHECK = {
    "en": {"above": "the check above", "below": "the check below", "nearby": "the exercise's check"},
    "zh": {"above": "上面的检查", "below": "下面的检查", "nearby": "本题的检查"},
}
"""How that line names the exercise's check, by where it is (:func:`where_the_check_is`)."""


def withheld(language: str, where: str) -> str:
    """The line that replaces a folded answer in ``language``, its check being ``where`` ("above", "below", "nearby").

    >>> withheld("en", "above")
    "*The reference answer is in the instructor's edition; the check above tells you whether you are right.*"
    """
    return WITHHELD[language].format(check=THE_CHECK[language][where])


def is_check(cell) -> bool:
    """Whether ``cell`` is an exercise's self-check (``exercises.check_...(answer)``)."""
    return cell.cell_type == "code" and "exercises.check_" in cell.source


def where_the_check_is(cells, index: int, start: int, end: int) -> str:
    """Where the check of the answer at ``cells[index].source[start:end]`` is, seen from that answer.

    "above" when the answer opens its cell and the cell before is a check (question, check, answer);
    "below" when the answer ends its cell and the cell after is a check (question and answer, check);
    "nearby" in any other layout, so that the line never points the wrong way.
    """
    source = cells[index].source
    if not source[:start].strip() and index > 0 and is_check(cells[index - 1]):
        return "above"
    if not source[end:].strip() and index + 1 < len(cells) and is_check(cells[index + 1]):
        return "below"
    return "nearby"


def language_of(path: Path) -> str:
    """The language of the edition ``path`` belongs to: "zh" under ``notebooks/zh/``, else "en"."""
    return "zh" if "zh" in path.parts else "en"


def chapters(root: Path = ROOT) -> list[Path]:
    """Every chapter notebook, in every edition (``notebooks/NN_*.ipynb`` and below)."""
    return sorted((root / "notebooks").rglob("[0-9][0-9]_*.ipynb"))


def answers(notebook) -> list[str]:
    """The folded reference answers in ``notebook``'s markdown cells, in order."""
    return [match.group(0) for cell in notebook.cells if cell.cell_type == "markdown"
            for match in ANSWER.finditer(cell.source)]


def without_answers(notebook, language: str = "en"):
    """``notebook`` with every folded answer replaced by a line, in ``language``, that says it is withheld and
    where the exercise's check is (in place)."""
    cells = notebook.cells
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            source, pieces, done = cell.source, [], 0
            for match in ANSWER.finditer(source):
                where = where_the_check_is(cells, index, match.start(), match.end())
                pieces += [source[done:match.start()], withheld(language, where)]
                done = match.end()
            cell.source = "".join(pieces) + source[done:]
    return notebook


def write_edition(out: Path, root: Path = ROOT) -> list[Path]:
    """Write the student copy of every chapter under ``out`` (same relative paths); return them."""
    written = []
    for image in sorted((root / "notebooks" / "images").glob("*")):  # the Binder badge, shown offline
        target = out / "images" / image.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(image, target)
    for path in chapters(root):
        target = out / path.relative_to(root / "notebooks")
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(without_answers(nbformat.read(path, as_version=4), language_of(path)), target)
        for sheet in (path.with_name("rise.css"), path.with_suffix(".css")):  # the slides' (classroom/slides.py)
            if sheet.is_file():
                shutil.copyfile(sheet, target.with_name(sheet.name))
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "student", help="folder to write (default: student/)")
    args = parser.parse_args(argv)
    written = write_edition(args.out)
    removed = sum(len(answers(nbformat.read(path, as_version=4))) for path in chapters())
    print(f"{len(written)} chapters written to {args.out}, {removed} reference answers withheld")
    return 0


if __name__ == "__main__":
    sys.exit(main())
