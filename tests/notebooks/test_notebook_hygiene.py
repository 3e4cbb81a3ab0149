"""Every chapter is stored the way nbval and students need it.

nbval re-executes the notebooks and compares outputs; this file checks what nbval
does not: that the stored outputs come from one clean top-to-bottom run, that no
widget state or error is saved, that each chapter opens with its title and Binder
badge, that it follows the chapter anatomy (the class, "What to remember", "Check yourself",
"Going further", "Next"), that the class fits one lesson, and that every figure has alt text.
The Chinese edition (notebooks/zh/) is held to the same rules.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from classroom.slides import GOING_FURTHER  # the heading of an optional section, in either edition

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
BINDER_URL = re.compile(r"https://mybinder\.org/v2/gh/[^/\s]+/[^/\s]+/HEAD\?urlpath=lab/tree/notebooks/(\S+?\.ipynb)")


def test_there_are_chapters():
    assert NOTEBOOKS, "no notebooks under notebooks/"
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", nb.name) for nb in NOTEBOOKS + ZH_NOTEBOOKS)


def in_notebooks(path: Path) -> str:
    """``path`` from notebooks/: 04_perplexity.ipynb, zh/04_perplexity.ipynb."""
    return path.relative_to(ROOT / "notebooks").as_posix()


@pytest.fixture(params=NOTEBOOKS + ZH_NOTEBOOKS, ids=in_notebooks)
def notebook(request):
    path = request.param
    return path, json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_stored_executed_once_top_to_bottom(notebook):
    path, nb = notebook
    counts = [c["execution_count"] for c in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: re-run it top to bottom in a fresh kernel"


def test_each_printout_is_one_block(notebook):
    """A cell's printout is stored in one piece (the README's command joins what the kernel split)."""
    path, nb = notebook
    split = [index for index, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             for first, second in zip(cell["outputs"], cell["outputs"][1:])
             if first["output_type"] == second["output_type"] == "stream" and first["name"] == second["name"]]
    assert not split, f"{path.name}: cells {split} store a printout in pieces; re-run the README's command"


def test_no_error_outputs(notebook):
    path, nb = notebook
    errors = [o for c in code_cells(nb) for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"{path.name} has a stored error: {errors[0].get('ename')}"


def test_no_warning_or_other_stderr_is_stored(notebook):
    """A chapter prints the same on every machine: nothing from the environment (a missing font,
    a deprecation, a kernel's notice) in its stored outputs, which strict nbval compares."""
    path, nb = notebook
    noisy = [index for index, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             for output in cell["outputs"] if output.get("name") == "stderr"]
    assert not noisy, f"{path.name}: cells {noisy} store stderr output"


def test_no_saved_widget_state_and_python3_kernel(notebook):
    """The kernelspec is ipykernel's own, display name included: any other and JupyterLab rewrites it on
    opening, so the chapter opens marked modified and a slideshow's save leaves a diff."""
    path, nb = notebook
    assert "widgets" not in nb["metadata"], f"{path.name}: clear the saved widget state"
    assert nb["metadata"]["kernelspec"] == {"display_name": "Python 3 (ipykernel)", "language": "python",
                                            "name": "python3"}, f"{path.name}: {nb['metadata']['kernelspec']}"


def test_title_and_own_binder_badge_in_first_cell(notebook):
    path, nb = notebook
    first = nb["cells"][0]
    text = "".join(first["source"])
    assert first["cell_type"] == "markdown" and text.startswith("# "), f"{path.name}: first cell needs a title"
    badge = BINDER_URL.search(text)
    assert badge and badge.group(1) == in_notebooks(path), f"{path.name}: first cell needs a Binder badge to itself"


def test_small_enough(notebook):
    path, _ = notebook
    assert path.stat().st_size < 2_000_000, f"{path.name} is {path.stat().st_size / 1e6:.1f} MB"


def test_readme_links_every_chapter():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f"notebooks/{path.name}" in readme, f"README's chapter map misses {path.name}"
    readme_zh = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    for path in ZH_NOTEBOOKS:
        assert f"notebooks/zh/{path.name}" in readme_zh, f"README.zh-CN.md's chapter map misses {path.name}"


BADGE_IMAGE = re.compile(r"\[!\[Binder\]\(([^)\s]+)\)\]")


def test_every_binder_badge_is_the_local_image_and_shows_offline():
    """The badge is notebooks/images/binder-badge.svg, linked relative to each document, so a
    classroom without internet (and RISE's title slide) shows it; never mybinder.org's image."""
    badge = ROOT / "notebooks" / "images" / "binder-badge.svg"
    assert badge.read_text(encoding="utf-8").lstrip().startswith("<svg")
    for path in [ROOT / "README.md", ROOT / "README.zh-CN.md", *NOTEBOOKS, *ZH_NOTEBOOKS]:
        text = path.read_text(encoding="utf-8")
        assert "mybinder.org/badge" not in text, f"{path.name} loads the badge from the internet"
        images = BADGE_IMAGE.findall(text)
        assert images, f"{path.name} has no Binder badge"
        for image in images:
            assert (path.parent / image).resolve() == badge, f"{path.name}: {image} is not the local badge"


def test_every_binder_badge_points_at_the_configured_repository():
    slug = (ROOT / "binder" / "repo.txt").read_text(encoding="utf-8").strip()
    for path in [ROOT / "README.md", ROOT / "README.zh-CN.md", *NOTEBOOKS, *ZH_NOTEBOOKS]:
        for found in re.findall(r"mybinder\.org/v2/gh/([^/\s]+/[^/\s]+)/HEAD", path.read_text(encoding="utf-8")):
            assert found == slug, f"{path.name} links {found}; run python binder/set_repo.py {slug}"


# --- the class: one lesson of at most 55 minutes (DESIGN.md, "A chapter notebook") ---------------

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_'’-]*")
MATH = re.compile(r"\$[^$]*\$")
EXPLORER_OUTPUT = "application/vnd.jupyter.widget-view+json"
INTRO = re.compile(r"\*\*(?:In this (?:chapter|notebook) you will|在(?:本章中|这个笔记本里)，你将)\*\*(.*)")
# Before each explorer, a question to predict; right after it (past the cell that prints fixed
# settings), the answer with the number that shows it. The markers, in either edition:
PREDICT = re.compile(r"\*\*(?:Predict first\.|先预测。)\*\*")
ANSWER = re.compile(r"\*\*(?:The answer\.|答案揭晓。)\*\*")
# The headings of a chapter's anatomy, in either edition.
REMEMBER = re.compile(r"^##\s+(?:What to remember|要点回顾)\s*$")
CHECK_YOURSELF = re.compile(r"^##\s+(?:Check yourself|自我检测)\s*$")
CORE_SECTION = re.compile(r"^##\s+(\d+)\.\s+(.+?)\s*$")
NEXT = re.compile(r"^\*\*(?:Next|下一章)[:：]?\*\*")


@dataclass(frozen=True)
class CorePath:
    """What a class reads: the chapter from its title to the end of "What to remember"."""

    words: float       # prose: whitespace-separated pieces, a Chinese character counting half a word
    code_lines: int    # non-blank, non-comment lines of code
    cells: int
    explorers: int     # cells whose output is a live explorer
    exercises: int     # self-check cells
    ideas: int         # items of "In this chapter you will", separated by semicolons
    minutes: float     # DESIGN.md's rule, at its slow end: 100 words a minute, 2 a code cell, 6 an explorer


BUDGET = CorePath(words=1_800, code_lines=120, cells=36, explorers=2, exercises=0, ideas=5, minutes=55)
WORDS_PER_MINUTE, MINUTES_PER_CODE_CELL, MINUTES_PER_EXPLORER = 100, 2, 6
# One idea per cell: a core-path cell this long holds two (DESIGN.md: never join cells to meet the budget).
MAX_CELL_WORDS, MAX_CELL_CODE_LINES = 250, 20


def prose_words(markdown: str) -> float:
    """Words of markdown prose, as the before-stop hook counts them: a word starts with a Latin
    letter or digit, an inline formula ($...$) is one word, punctuation is none, and a Chinese
    character counts as half a word. A display formula ($$...$$) counts its pieces, as the hook
    does: a lecturer takes longer over it than over a word.

    >>> prose_words("The bits, $-log_2 p(x)$, add up."), prose_words("困惑度 is 2^H"), prose_words("即 $2^H$。")
    (5.0, 4.5, 1.5)
    >>> prose_words("$$p_1 + p_2 = 1$$")
    3.0
    """
    words = len(WORD.findall(MATH.sub("x", markdown)))
    return words + len(CJK.findall(markdown)) / 2


def code_lines(source: str) -> int:
    """Lines of code a student reads: not blank, not a comment.

    >>> code_lines("# set up\\nx = 1\\n\\ny = x  # why\\n")
    2
    """
    return sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#"))


def headings(cell) -> list[str]:
    """The markdown headings a cell holds, in order."""
    if cell["cell_type"] != "markdown":
        return []
    return [line.strip() for line in "".join(cell["source"]).splitlines() if re.match(r"#{1,6}\s", line)]


def core_cells(nb) -> tuple[list[tuple[dict, str]], bool]:
    """The class's cells with their text, and whether a "Check yourself" or "Going further"
    heading ends it.

    The cells before the first such heading (an introduction such as chapter 0's ends at its first
    "Going further"); the section headings' own cells count (classroom/slides.py gives each
    section a cell), and so does the part of the heading's cell above the heading.
    """
    cells = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            lines = source.splitlines()
            at = next((i for i, line in enumerate(lines)
                       if GOING_FURTHER.match(line) or CHECK_YOURSELF.match(line)), None)
            if at is not None:
                if at:
                    cells.append((cell, "\n".join(lines[:at])))
                return cells, True
        cells.append((cell, source))
    return cells, False


def is_explorer(cell) -> bool:
    return any(EXPLORER_OUTPUT in output.get("data", {}) for output in cell.get("outputs", []))


def core_path(nb) -> tuple[CorePath, bool]:
    """The class's measure against :data:`BUDGET`, and whether a heading ends it (:func:`core_cells`)."""
    cells, found = core_cells(nb)
    markdown = [text for cell, text in cells if cell["cell_type"] == "markdown"]
    code = [(cell, text) for cell, text in cells if cell["cell_type"] == "code"]
    intro = next((m.group(1) for text in markdown for m in [INTRO.search(text)] if m), "")
    words = sum(map(prose_words, markdown))
    explorers = sum(is_explorer(cell) for cell, _ in code)
    minutes = (words / WORDS_PER_MINUTE + MINUTES_PER_CODE_CELL * (len(code) - explorers)
               + MINUTES_PER_EXPLORER * explorers)
    measure = CorePath(words=words, code_lines=sum(code_lines(text) for _, text in code),
                       cells=len(cells), explorers=explorers,
                       exercises=sum("exercises.check_" in text for _, text in code),
                       ideas=len([item for item in re.split(r"[;；]", intro) if item.strip()]),
                       minutes=round(minutes, 1))
    return measure, found


def test_core_path_measure():
    cell = lambda kind, text, **extra: {"cell_type": kind, "source": [text], **extra}  # noqa: E731
    explorer = {"outputs": [{"output_type": "display_data", "data": {EXPLORER_OUTPUT: {}}}]}
    nb = {"cells": [cell("markdown", "# Title\nfour words here 中文\n\n**In this chapter you will** a; b; and c."),
                    cell("code", "# a comment\nx = 1 + 2 + 3\n\n", outputs=[]),
                    cell("code", "widgets.Explorer()", **explorer),
                    cell("code", "exercises.check_it(answer)", outputs=[]),
                    cell("markdown", "two words"), cell("markdown", "Last words.\n## Check yourself"),
                    cell("markdown", "not counted"), cell("code", "not = counted", **explorer)]}
    measure, found = core_path(nb)
    assert found and measure == CorePath(words=18.0, code_lines=3, cells=6, explorers=1, exercises=1, ideas=3,
                                         minutes=round(0.18 + 2 * 2 + 6, 1))
    assert core_path({"cells": [cell("markdown", "## 3. going further, in lower case")]}) == (
        CorePath(0.0, 0, 0, 0, 0, 0, 0.0), True)
    assert core_path({"cells": [cell("markdown", "Going further without a heading")]})[1] is False


def test_core_path_fits_one_class(notebook):
    path, nb = notebook
    measure, found = core_path(nb)
    assert found, f'{path.name} has no "Check yourself" or "Going further" heading: the class must end somewhere'
    over = {name: (value, getattr(BUDGET, name)) for name, value in vars(measure).items()
            if value > getattr(BUDGET, name)}
    assert not over, f"{path.name}: core path over its budget (measured, budget): {over}"


def test_each_core_cell_holds_one_idea(notebook):
    path, nb = notebook
    cells, _ = core_cells(nb)
    long = [(i, round(prose_words(text))) for i, (cell, text) in enumerate(cells)
            if cell["cell_type"] == "markdown"
            and prose_words("\n".join(line for line in text.splitlines() if not line.startswith("|"))) > MAX_CELL_WORDS]
    long += [(i, code_lines(text)) for i, (cell, text) in enumerate(cells)
             if cell["cell_type"] == "code" and code_lines(text) > MAX_CELL_CODE_LINES]
    assert not long, (f"{path.name}: core-path cells (index, words or code lines) longer than one idea "
                      f"({MAX_CELL_WORDS} words, {MAX_CELL_CODE_LINES} lines of code): {long}")


# --- the anatomy: class, "What to remember", "Check yourself", "Going further", "Next" --------------

CHAPTERS = [path for path in NOTEBOOKS + ZH_NOTEBOOKS if not path.name.startswith("00_")]


def parts(nb) -> list[tuple[str, int]]:
    """The chapter's parts in order, each with the index of the cell that opens it: "title",
    "section" (a numbered core section), "remember", "check", "further" and "next" (the last
    cell, a link onwards)."""
    found = []
    for index, cell in enumerate(nb["cells"]):
        for heading in headings(cell):
            if heading.startswith("# "):
                found.append(("title", index))
            elif CORE_SECTION.match(heading):
                found.append(("section", index))
            elif REMEMBER.match(heading):
                found.append(("remember", index))
            elif CHECK_YOURSELF.match(heading):
                found.append(("check", index))
            elif GOING_FURTHER.match(heading) and heading.startswith("## "):
                found.append(("further", index))
            elif heading.startswith("## "):
                found.append(("other", index))
    last = nb["cells"][-1]
    if last["cell_type"] == "markdown" and NEXT.match("".join(last["source"])):
        found.append(("next", len(nb["cells"]) - 1))
    return found


def test_parts_of_a_chapter():
    cell = lambda text: {"cell_type": "markdown", "source": [text]}  # noqa: E731
    nb = {"cells": [cell("# Title"), cell("## 1. One"), cell("text\n## 2. Two"), cell("## What to remember"),
                    cell("## Check yourself"), cell("## Going further: more\n### a part"), cell("**Next:** on")]}
    assert [kind for kind, _ in parts(nb)] == ["title", "section", "section", "remember", "check", "further", "next"]


@pytest.fixture(params=CHAPTERS, ids=in_notebooks)
def chapter(request):
    path = request.param
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_the_chapter_follows_the_anatomy(chapter):
    """Title -> numbered core sections -> "What to remember" -> "Check yourself" -> "Going
    further" sections -> "Next" (DESIGN.md, "A chapter notebook"): a class that stops at the end
    of its core reads its summary, and its homework is next to it."""
    path, nb = chapter
    kinds = [kind for kind, _ in parts(nb)]
    order = ["title", "section", "remember", "check", "further", "next"]
    collapsed = [kind for i, kind in enumerate(kinds) if not i or kinds[i - 1] != kind]
    assert collapsed == order, f"{path.name}: the parts come as {collapsed}; the anatomy is {order}"
    numbers = [int(CORE_SECTION.match(h).group(1)) for cell in nb["cells"] for h in headings(cell)
               if CORE_SECTION.match(h)]
    assert numbers == list(range(1, len(numbers) + 1)), f"{path.name}: core sections numbered {numbers}"


def sections(nb) -> list[tuple[str, list[dict]]]:
    """The chapter cut at its ``##`` headings: (heading, cells), the heading's cell first."""
    found: list[tuple[str, list[dict]]] = [("", [])]
    for cell in nb["cells"]:
        second = [h for h in headings(cell) if h.startswith("## ")]
        if second:
            found.append((second[-1], []))
        found[-1][1].append(cell)
    return found


def exercise_checks(cells) -> list[str]:
    """The self-checks the cells call, in order: ``exercises.check_...``."""
    return [name for cell in cells if cell["cell_type"] == "code"
            for name in re.findall(r"exercises\.(check_\w+)\(", "".join(cell["source"]))]


def test_exercises_are_homework_or_close_their_own_optional_section(chapter):
    """3-6 exercises in "Check yourself"; none in the class; a Going-further section's exercise
    comes after everything that section teaches (only its answer follows)."""
    path, nb = chapter
    for heading, cells in sections(nb):
        checks = exercise_checks(cells)
        if CHECK_YOURSELF.match(heading):
            assert 3 <= len(checks) <= 6, f"{path.name}: {len(checks)} exercises in Check yourself"
        elif GOING_FURTHER.match(heading):
            code = [cell for cell in cells if cell["cell_type"] == "code"]
            first = next((i for i, cell in enumerate(code) if exercise_checks([cell])), len(code))
            later = [i for i, cell in enumerate(code[first:], first) if not exercise_checks([cell])]
            assert not later, f"{path.name}, {heading}: code after its exercise; the exercise closes the section"
        else:
            assert not checks, f"{path.name}, {heading or 'the opening'}: exercises {checks} belong in Check yourself"


def class_cells(nb) -> list[dict]:
    """The cells of the class: from the title to the end of "What to remember"."""
    return [cell for cell, _ in core_cells(nb)[0]]


def anchor(heading: str) -> str:
    """The link target JupyterLab gives a heading: "## 3. Linear interpolation" -> "3-linear-interpolation".

    >>> anchor("## 3. Linear interpolation"), anchor("### EM, step by step"), anchor("## 深入一步：一条长样本")
    ('3-linear-interpolation', 'em-step-by-step', '深入一步一条长样本')
    """
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


CHAPTER_ANCHOR_LINK = re.compile(r"\]\((\d\d_[a-z_]+\.ipynb)#([^)]+)\)")


def test_the_class_and_its_homework_link_only_to_classes(chapter):
    """A class assumes only earlier classes: its links into a chapter (this one or another) land
    in that chapter's class, not in a Going-further section; so do the homework's."""
    path, nb = chapter
    homework = next(cells for heading, cells in sections(nb) if CHECK_YOURSELF.match(heading))
    for cell in class_cells(nb) + homework:
        for target, target_anchor in CHAPTER_ANCHOR_LINK.findall("".join(cell["source"])):
            target_nb = json.loads((path.parent / target).read_text(encoding="utf-8"))
            in_class = {anchor(h) for c in class_cells(target_nb) for h in headings(c)}
            assert target_anchor in in_class, (
                f"{path.name} links {target}#{target_anchor}, which is not in that chapter's class")


DRAWS_ON = re.compile(r'(?:chapter (\d+), )?section (\d+), "([^"]+)"')


def test_each_homework_exercise_names_the_class_sections_it_draws_on(chapter):
    """Every "Check yourself" checker says, in its docstring, which core sections it draws on
    ("Draws on section 2, "From probability to perplexity"" or "Draws on chapter 2, section 1,
    ..."), and each is a numbered section of the class of this chapter or an earlier one."""
    from lmcore import exercises

    path, nb = chapter
    number = int(path.name[:2])
    homework = next(cells for heading, cells in sections(nb) if CHECK_YOURSELF.match(heading))
    for name in exercise_checks(homework):
        doc = getattr(exercises, name).__doc__ or ""
        said = doc[doc.find("Draws on"):] if "Draws on" in doc else ""
        references = DRAWS_ON.findall(" ".join(said.split("\n\n")[0].split()))  # one paragraph, unwrapped
        assert references, f'{name}: its docstring says no "Draws on section N, "title""'
        for chapter_number, section, title in references:
            source = int(chapter_number or number)
            assert source <= number, f"{name} draws on chapter {source}, after chapter {number}"
            english = next((ROOT / "notebooks").glob(f"{source:02d}_*.ipynb"))
            core = {(int(m.group(1)), m.group(2)) for c in class_cells(json.loads(english.read_text(encoding="utf-8")))
                    for h in headings(c) for m in [CORE_SECTION.match(h)] if m}
            assert (int(section), title) in core, (
                f'{name} draws on chapter {source}, section {section}, "{title}", which is not a section of its class')


TEACHING_ROW = re.compile(r"^\| (\d) [^|]+\| ([\d,]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", re.MULTILINE)
TEACHING_HEADING = re.compile(r"^### (\d) .*\((\d+) minutes\)$", re.MULTILINE)


def test_the_teaching_notes_give_each_class_its_measure():
    """docs/teaching.md's table and its chapter headings give each English class's words, code lines,
    cells, explorers and minutes as this file measures them, so the plan a lecturer reads is true."""
    text = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = {int(number): tuple(int(value.replace(",", "")) for value in values)
            for number, *values in TEACHING_ROW.findall(text)}
    minutes = {int(number): int(value) for number, value in TEACHING_HEADING.findall(text)}
    for path in NOTEBOOKS:
        measure, _ = core_path(json.loads(path.read_text(encoding="utf-8")))
        number = int(path.name[:2])
        expected = (round(measure.words), measure.code_lines, measure.cells, measure.explorers,
                    round(measure.minutes))
        assert rows.get(number) == expected, f"docs/teaching.md, chapter {number}: {rows.get(number)} != {expected}"
        assert minutes.get(number) == round(measure.minutes), f"docs/teaching.md: chapter {number}'s heading"


def test_every_explorer_asks_a_question_first_and_answers_it(notebook):
    path, nb = notebook
    cells = nb["cells"]
    for at, cell in enumerate(cells):
        if cell["cell_type"] != "code" or not is_explorer(cell):
            continue
        before = next(("".join(c["source"]) for c in reversed(cells[:at]) if c["cell_type"] == "markdown"), "")
        after = next(("".join(c["source"]) for c in cells[at + 1:] if c["cell_type"] == "markdown"), "")
        question = PREDICT.search(before)
        assert question and "?" in before[question.end():].replace("？", "?"), (
            f"{path.name} cell {at}: the explorer needs a question to predict before it ({PREDICT.pattern})")
        answer = ANSWER.search(after)
        assert answer and re.search(r"\d", after[answer.end():]), (
            f"{path.name} cell {at}: the explorer needs its answer, with a number, right after it ({ANSWER.pattern})")


def test_every_figure_has_alt_text(notebook):
    """A figure a cell draws carries alt text for screen readers and the website (explorers carry their own)."""
    path, nb = notebook
    missing = []
    for index, cell in enumerate(nb["cells"]):
        shown = [o.get("data", {}) for o in cell.get("outputs", []) if o["output_type"] in ("display_data",
                                                                                             "execute_result")]
        if any("image/png" in data and "application/vnd.jupyter.widget-view+json" not in data for data in shown):
            if not cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "").strip():
                missing.append(index)
    assert not missing, f'{path.name}: cells {missing} draw a figure without {{"mystnb": {{"image": {{"alt": ...}}}}}}'


# --- one label for every folded answer -------------------------------------------------------------

SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.DOTALL)


def test_every_folded_answer_has_the_one_label(notebook):
    """Every ``<summary>`` of a chapter says the edition's one label (classroom/student_edition.py's
    ANSWER_LABEL: "Answer", "答案"), the label the landing pages tell readers to look for."""
    from classroom.student_edition import ANSWER_LABEL, language_of

    path, nb = notebook
    label = ANSWER_LABEL[language_of(path)]
    labels = [found.strip() for cell in nb["cells"] if cell["cell_type"] == "markdown"
              for found in SUMMARY.findall("".join(cell["source"]))]
    if any(re.search(r"^#{1,6} .*(Check yourself|自我检测)", "".join(cell["source"]), re.MULTILINE)
           for cell in nb["cells"] if cell["cell_type"] == "markdown"):
        assert labels, f"{path.name} has exercises but no folded answer"
    other = sorted(set(labels) - {label})
    assert not other, f'{path.name}: folded answers labelled {other}; use "<summary>{label}</summary>"'


def test_the_landing_pages_name_the_folded_answers_label():
    from classroom.student_edition import ANSWER_LABEL

    for page, quoted in [("index.md", f'"{ANSWER_LABEL["en"]}"'), ("index.zh.md", f"“{ANSWER_LABEL['zh']}”")]:
        text = (ROOT / "site" / page).read_text(encoding="utf-8")
        assert quoted in text, f"site/{page} does not name the folded answers' label {quoted}"
        assert "Reference answer" not in text and "“参考答案”" not in text, f"site/{page} names another label"
