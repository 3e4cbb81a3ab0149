"""The classroom kit: slide metadata in step with every chapter, and a student edition without answers.

``classroom/slides.py`` derives each chapter's slides from the chapter itself, and this test
fails when a chapter changed without its slides (run ``python classroom/slides.py``).
``classroom/student_edition.py`` writes every chapter without its folded answers; the test
writes it, checks that no answer survived and nothing else changed, and runs one chapter's
setup and self-check cells in a fresh kernel: the checks still run and say what they said.
"""

from __future__ import annotations

import re
from copy import deepcopy
from pathlib import Path

import nbformat
import pytest

from classroom import execute, slides, student_edition

ROOT = Path(__file__).resolve().parents[2]


CHAPTERS = slides.chapters()


def test_every_chapter_has_its_slides(capsys):
    assert slides.main(["--check"]) == 0, capsys.readouterr().out


def figure_cell(source="plt.show()"):
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.v4.new_output("display_data", {"image/png": "iVBOR", "text/plain": "<Figure>"})]
    return cell


def test_slide_rules():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md("# Chapter 9: Title\n\nhook"), code("import numpy"), md("## 1. Idea\n\nwords"), code("x = 1"),
             md("Next idea."), md("A caption."), figure_cell(), code("print(x)"), md("**Exercise 1.** Compute."),
             code("check(None)"), md("## What to remember"), md("## Check yourself"), md("## Going further: more"),
             code("y = 2"), md("## Going further: even more"), md("**Next:** [chapter 10](10_more.ipynb)")]
    assert slides.slide_types(cells) == [
        "slide", "-", "slide", "-",
        "subslide",             # prose after code: a new idea
        "subslide", "-",        # a short caption and its figure share a slide of their own ...
        "subslide",             # ... and what follows the figure starts another
        "subslide", "-",        # each exercise with its check
        "slide", "slide",
        "slide", "-", "subslide",  # "Going further" sections in a row: one column of sub-slides
        "slide"]                # the link onwards


def test_the_chinese_going_further_heading_is_going_further_too():
    md = nbformat.v4.new_markdown_cell
    cells = [md("# 标题"), md("## 深入一步（Going further）：更多"), md("## 深入一步：再多一些")]
    assert slides.slide_types(cells) == ["slide", "slide", "subslide"]


def test_a_tall_slide_is_split():
    cells = [nbformat.v4.new_markdown_cell("# Title"),
             *[nbformat.v4.new_code_cell("\n".join(["x = 1"] * 8)) for _ in range(4)]]
    assert slides.slide_types(cells) == ["slide", "-", "-", "subslide", "-"]  # 1 + 8 + 8 lines fit, 25 do not


def test_a_section_heading_inside_a_cell_opens_its_own_cell():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("The end of 1.\n\n## 2. Next\n\nText.")])
    assert slides.apply(notebook)
    assert [cell.source for cell in notebook.cells] == ["The end of 1.", "## 2. Next\n\nText."]
    assert slides.stored_types(notebook) == ["slide", "slide"]
    assert not slides.apply(notebook)  # applying twice changes nothing


@pytest.fixture(scope="module")
def student_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    return out, student_edition.write_edition(out)


@pytest.fixture(scope="module")
def edition(student_folder):
    out, written = student_folder
    return {path.relative_to(out).as_posix(): nbformat.read(path, as_version=4) for path in written}


def test_the_student_edition_shows_its_binder_badges_offline(student_folder):
    _, written = student_folder
    for path in written:
        badges = re.findall(r"\[!\[Binder\]\(([^)\s]+)\)\]", path.read_text(encoding="utf-8"))
        assert badges and all((path.parent / badge).is_file() for badge in badges), path


def plain(answer: str) -> str:
    """An answer's text without its <details>/<summary> tags."""
    return re.sub(r"</?(details|summary)>|Reference answer|Answer|参考答案|答案", "", answer).strip()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.relative_to(ROOT / "notebooks").as_posix())
def test_the_student_edition_has_no_answers_and_nothing_else_changed(edition, path):
    original = nbformat.read(path, as_version=4)
    copy = edition[path.relative_to(ROOT / "notebooks").as_posix()]
    removed = student_edition.answers(original)
    if any(re.search(r"^#{1,6} .*(Check yourself|自我检测)", cell.source, re.MULTILINE) for cell in original.cells):
        assert removed, f"{path.name} has exercises but no folded answer was found"
    assert student_edition.answers(copy) == []
    text = "\n".join(cell.source for cell in copy.cells)
    assert "<details" not in text
    for answer in removed:
        assert plain(answer) not in text
    language = student_edition.language_of(path)
    lines = [student_edition.withheld(language, where) for where in student_edition.THE_CHECK[language]]
    assert sum(text.count(line) for line in lines) == len(removed)
    assert [(cell.cell_type, cell.get("outputs")) for cell in copy.cells] == \
           [(cell.cell_type, cell.get("outputs")) for cell in original.cells]
    assert [cell.source for cell in copy.cells if cell.cell_type == "code"] == \
           [cell.source for cell in original.cells if cell.cell_type == "code"]


def withheld_lines(path, copy) -> list[tuple[int, str, str]]:
    """Each line of the student copy ``copy`` of ``path`` that replaces an answer: (cell index, cell text, where)."""
    language = student_edition.language_of(path)
    return [(index, cell.source, where) for index, cell in enumerate(copy.cells) if cell.cell_type == "markdown"
            for where in student_edition.THE_CHECK[language]
            for _ in range(cell.source.count(student_edition.withheld(language, where)))]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.relative_to(ROOT / "notebooks").as_posix())
def test_the_student_editions_withheld_line_points_at_the_exercises_check(edition, path):
    """"The check above" opens the cell right after the check (question, check, answer: chapters 1, 4-7);
    "the check below" ends the cell (the question) right before it (question and answer, check: chapters 2, 3)."""
    copy = edition[path.relative_to(ROOT / "notebooks").as_posix()]
    language = student_edition.language_of(path)
    is_check = [cell.cell_type == "code" and "exercises.check_" in cell.source for cell in copy.cells]
    found = withheld_lines(path, copy)
    assert len(found) == len(student_edition.answers(nbformat.read(path, as_version=4)))
    for index, text, where in found:
        line = student_edition.withheld(language, where)
        assert where in ("above", "below"), f"cell {index}: the line cannot tell where the check is: {text[:80]!r}"
        if where == "above":
            assert is_check[index - 1] and text.startswith(line), f"cell {index}: no check right above the line"
        else:
            assert is_check[index + 1] and text.rstrip().endswith(line), f"cell {index}: no check right below"


def test_the_withheld_line_points_up_down_or_to_the_exercise_in_both_languages():
    markdown, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    answer = "<details><summary>Answer</summary>\n\n42\n\n</details>"
    check = code("answer = None\nexercises.check_it(answer)")
    after_the_check = [markdown("**Exercise 1.** Why?"), check, markdown(answer + "\n\n**Exercise 2.** And?")]
    before_the_check = [markdown("**Exercise 1.** Why?\n\n" + answer), check]
    elsewhere = [markdown("**Exercise 1.** Why?\n\n" + answer + "\n\nMore text."), check]
    for cells, where, at in [(after_the_check, "above", 2), (before_the_check, "below", 0), (elsewhere, "nearby", 0)]:
        for language, says in [("en", {"above": "the check above", "below": "the check below",
                                        "nearby": "the exercise's check"}),
                               ("zh", {"above": "上面的检查", "below": "下面的检查", "nearby": "本题的检查"})]:
            notebook = student_edition.without_answers(nbformat.v4.new_notebook(cells=deepcopy(cells)),
                                                       language)
            text = notebook.cells[at].source
            assert "<details" not in text and "42" not in text
            assert student_edition.withheld(language, where) in text and says[where] in text, (where, language, text)
    assert "above" in student_edition.withheld("en", "above") and "下面" in student_edition.withheld("zh", "below")


def test_the_student_editions_self_checks_still_run(edition):
    """Chapter 2's setup cell and every self-check cell, run in a fresh kernel from the student copy."""
    from nbclient import NotebookClient

    copy = edition["02_entropy.ipynb"]
    code = [cell for cell in copy.cells if cell.cell_type == "code"]
    checks = [cell for cell in code if "exercises.check" in cell.source]
    assert len(checks) >= 5
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code[0].source),
                                               *[nbformat.v4.new_code_cell(cell.source) for cell in checks]],
                                        metadata=copy.metadata)
    NotebookClient(notebook, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    for ran, stored in zip(notebook.cells[1:], checks):
        assert [output.get("data", {}).get("text/html") for output in ran.outputs] == \
               [output.get("data", {}).get("text/html") for output in stored.outputs]
        assert "Not answered yet" in ran.outputs[0]["data"]["text/html"]


def test_execute_runs_a_chapter_in_its_folder_says_where_it_is_and_stores_it_as_the_tests_want(tmp_path):
    import io

    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A chapter"),
        nbformat.v4.new_code_cell("from pathlib import Path\nprint(Path('data.txt').read_text())"),
        nbformat.v4.new_code_cell("import sys\nfor i in range(3):\n    print(i); sys.stdout.flush()"),
    ])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "01_chapter.ipynb"
    nbformat.write(notebook, path)
    (tmp_path / "data.txt").write_text("read from the chapter's folder")
    progress = io.StringIO()
    execute.execute(path, out=progress)
    lines = progress.getvalue().splitlines()
    assert [line.split("  ")[:2] for line in lines] == [["01_chapter.ipynb", "[1/2]"], ["01_chapter.ipynb", "[2/2]"]]
    assert lines[0].endswith("from pathlib import Path")
    stored = nbformat.read(path, as_version=4)
    assert [cell.execution_count for cell in stored.cells if cell.cell_type == "code"] == [1, 2]
    assert stored.cells[1].outputs[0].text == "read from the chapter's folder\n"
    assert [output.text for output in stored.cells[2].outputs] == ["0\n1\n2\n"]  # one block
    assert "widgets" not in stored.metadata
