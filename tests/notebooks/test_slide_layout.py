"""The slides' layout without a browser: how tall classroom/slide_layout.py says a cell is, which
cells classroom/slides.py shows smaller, and the stylesheets it writes beside the chapters.
(tests/browser/test_browser_slides.py measures the real slides.)"""

from __future__ import annotations

import math
import re

import nbformat
import pytest

from classroom import slide_layout as layout
from classroom import slides

md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
LINE = layout.PROSE_PX * layout.PROSE_LINE


def stream(text: str):
    return nbformat.v4.new_output("stream", name="stdout", text=text)


def test_rise_css_sets_the_sizes_the_layout_assumes():
    css = slides.STYLE.read_text(encoding="utf-8")

    def rule(selector: str) -> str:
        return re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css).group(1)

    prose = rule(".rise-enabled .reveal .jp-MarkdownCell .jp-RenderedHTMLCommon")
    assert f"calc({layout.PROSE_PX} * var(--slide-px))" in prose and f"line-height: {layout.PROSE_LINE}" in prose
    editor = rule(".rise-enabled .reveal .jp-CodeCell .jp-InputArea")
    assert f"--jp-code-font-size: calc({layout.CODE_PX} * var(--slide-px))" in editor
    assert f"--jp-code-line-height: {layout.CODE_LINE}" in editor
    output = rule(".rise-enabled .reveal .jp-OutputArea .jp-RenderedText pre")
    assert f"calc({layout.OUTPUT_PX} * var(--slide-px))" in output and f"line-height: {layout.OUTPUT_LINE}" in output
    assert "--slide-px: min(100vw / 1280, 100vh / 720)" in css and "fonts.googleapis" not in css.split("*/", 1)[1]


def test_prose_wraps_word_by_word_and_chinese_by_character():
    assert layout.markdown_height("Short.") == pytest.approx(layout.CELL_PADDING + LINE)
    two = layout.markdown_height("Short.\n\nAnother.")
    assert two == pytest.approx(layout.CELL_PADDING + 2 * LINE + layout.BLOCK_GAP)
    word, space = (layout.PROSE_PX * sum(map(layout.advance, text)) for text in ("information", " "))
    per_line = math.floor((layout.PROSE_WIDTH + space) / (word + space))  # DejaVu Sans: 8 words to a line
    assert layout.prose_lines(" ".join(["information"] * 60), layout.PROSE_PX, layout.PROSE_WIDTH) == \
        math.ceil(60 / per_line) == 8
    chinese = "信" * 100  # one em each: 49 to a line
    assert layout.prose_lines(chinese, layout.PROSE_PX, layout.PROSE_WIDTH) == math.ceil(100 / 49)
    assert layout.prose_lines("x" * 200, 10, 100) == math.ceil(200 * 10 * layout.advance("x") / 100)  # breaks anywhere
    assert layout.markdown_height("## A heading") == pytest.approx(layout.CELL_PADDING + 36 * layout.HEADING_LINE)
    folded = "Question?\n\n<details><summary>Answer</summary>\n\nMany\n\nlines\n\nhidden\n\n</details>"
    assert layout.markdown_height(folded) == pytest.approx(layout.CELL_PADDING + 2 * LINE + layout.BLOCK_GAP)


def test_code_and_its_printout():
    cell = code("x = 1\nprint(x)\nprint(x)")
    cell.outputs = [stream("1\n1\n")]
    expected = (layout.CELL_PADDING + layout.EDITOR_PADDING + 3 * layout.CODE_PX * layout.CODE_LINE
                + layout.OUTPUT_PADDING + 2 * layout.OUTPUT_PX * layout.OUTPUT_LINE)
    assert layout.height(cell) == pytest.approx(expected)
    long_line = code("y = " + "1 + " * 100 + "1")  # 405 characters: 5 lines of 93 at 20 px
    assert layout.height(long_line) == pytest.approx(layout.CELL_PADDING + layout.EDITOR_PADDING + 5 * 28)
    explorer = code("widgets.ProbabilityExplorer()")
    explorer.outputs = [nbformat.v4.new_output("execute_result", {"application/vnd.jupyter.widget-view+json": {},
                                                                   "text/plain": "ProbabilityExplorer"})]
    assert layout.height(explorer) is None and slides.height(explorer) == slides.ROOM


def test_a_cell_no_slide_holds_is_shown_smaller_and_its_caption_keeps_its_size():
    tall = code("\n".join(f"plt.plot({i})" for i in range(10)))
    figure = nbformat.v4.new_output("display_data", {"image/png": "iVBOR", "text/plain": "<Figure>"})  # 640 x 480
    tall.outputs = [figure, stream("".join(f"{i}\n" for i in range(10)))]  # 280 + 480 + 216 px and more
    cells = [md("# Title"), md("A short caption."), tall, md("After it.")]
    types = slides.slide_types(cells)
    assert types == ["slide", "subslide", "-", "subslide"]
    zoomed = slides.zooms(cells, types)
    assert set(zoomed) == {2} and slides.SMALLEST_ZOOM <= zoomed[2] < 1  # the caption keeps its size
    assert slides.height(cells[1]) + layout.height(tall, zoomed[2]) <= slides.ROOM
    assert layout.height(tall, zoomed[2] + 0.05) + slides.height(cells[1]) > slides.ROOM  # the largest zoom that fits
    style = slides.chapter_style("09_demo.ipynb", zoomed)
    assert f'.jp-Cell[data-windowed-list-index="2"] {{ zoom: {zoomed[2]:g}; }}' in style and "1 cell here" in style


def test_the_stylesheets_rise_asks_for_are_written_beside_the_chapter(tmp_path):
    chapter = tmp_path / "notebooks" / "09_demo.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[md("# Chapter 9: Demo"), code("x = 1")])
    slides.apply(notebook)
    assert notebook.metadata["rise"]["theme"] == "white"  # a theme without web fonts
    sheets = slides.stylesheets(chapter, notebook)
    assert sheets[chapter.with_name("rise.css")] == slides.STYLE.read_text(encoding="utf-8")
    own = sheets[chapter.with_suffix(".css")]
    assert "no cells here" in own and "{ zoom" not in own
