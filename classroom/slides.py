"""Slide metadata for every chapter, so each can be presented with jupyterlab-rise.

    python classroom/slides.py            # set the metadata of every chapter
    python classroom/slides.py notebooks/04_perplexity.ipynb notebooks/zh/04_perplexity.ipynb  # of these
    python classroom/slides.py --check    # exit 1, naming the chapters whose metadata drifted

The slides follow from the chapter itself, so a new or changed chapter needs no change here:

- the title cell and every ``##`` section of the core path open a new slide (left/right keys);
- within a section, a new sub-slide (down key, or space) starts where a new idea starts (prose
  after code), where a figure or an explorer appears (each gets a sub-slide of its own, with its
  short caption if one leads into it), at each exercise, and wherever the slide would overflow;
- "Going further" sections in a row form one column of sub-slides: the right key passes them
  all, the down key goes into them; "Check yourself" and "What to remember" keep slides of
  their own wherever they stand;
- the link onwards that closes a chapter ("**Next:**") is a slide of its own, after Going further.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
SLIDE, SUBSLIDE, CONTINUE = "slide", "subslide", "-"
LINES_PER_SLIDE = 22  # what fits on a 1280 x 720 slide at RISE's default scale
CHARACTERS_PER_LINE = 110
FIGURE_LINES = 16
CAPTION_LINES = 4  # prose this short leading into a figure or explorer is its caption
SECTION = re.compile(r"^##\s")
GOING_FURTHER = re.compile(r"^\s{0,3}#{1,6}\s.*(going further|深入一步)", re.IGNORECASE)  # both editions' heading
EXERCISE = re.compile(r"^\*\*Exercise\b")
NEXT = re.compile(r"^\*\*(?:Next|下一章)[:：]?\*\*")  # the chapter's last cell, in either edition
VISUAL_OUTPUTS = ("image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json")


def chapters(root: Path = ROOT) -> list[Path]:
    """Every chapter notebook, in every edition (``notebooks/NN_*.ipynb`` and below)."""
    return sorted((root / "notebooks").rglob("[0-9][0-9]_*.ipynb"))


def is_visual(cell) -> bool:
    """A code cell that shows a figure or an explorer."""
    return cell.cell_type == "code" and any(
        kind in output.get("data", {}) for output in cell.get("outputs", []) for kind in VISUAL_OUTPUTS)


def text_lines(text: str) -> int:
    return sum(max(1, math.ceil(len(line) / CHARACTERS_PER_LINE)) for line in text.splitlines())


def height(cell) -> int:
    """About how many lines of a slide ``cell`` fills, its outputs included."""
    if cell.cell_type != "code":
        return text_lines(cell.source)
    lines = text_lines(cell.source)
    for output in cell.get("outputs", []):
        if any(kind in output.get("data", {}) for kind in VISUAL_OUTPUTS):
            lines += FIGURE_LINES
        elif output.get("output_type") == "stream":
            lines += text_lines(output.get("text", ""))
        else:
            lines += text_lines(output.get("data", {}).get("text/plain", ""))
    return lines


def slide_types(cells) -> list[str]:
    """The RISE slide type of each cell (see the module's docstring for the rules)."""
    types: list[str] = []
    going_further = False
    filled = 0
    for index, cell in enumerate(cells):
        first_line = cell.source.lstrip().split("\n", 1)[0] if cell.cell_type == "markdown" else ""
        previous = cells[index - 1] if index else None
        following = cells[index + 1] if index + 1 < len(cells) else None
        is_caption = following is not None and is_caption_of(cell, following)
        if GOING_FURTHER.match(first_line):
            kind = SUBSLIDE if going_further else SLIDE
            going_further = True
        elif index == 0 or SECTION.match(first_line) or NEXT.match(first_line):
            kind, going_further = SLIDE, False
        elif is_caption:
            kind = SUBSLIDE
        elif is_visual(cell):
            kind = CONTINUE if is_caption_of(previous, cell) else SUBSLIDE
        elif previous is not None and is_visual(previous):
            kind = SUBSLIDE
        elif EXERCISE.match(first_line):
            kind = SUBSLIDE
        elif cell.cell_type == "markdown" and previous.cell_type == "code":
            kind = SUBSLIDE
        elif filled + height(cell) > LINES_PER_SLIDE:
            kind = SUBSLIDE
        else:
            kind = CONTINUE
        filled = height(cell) if kind != CONTINUE else filled + height(cell)
        types.append(kind)
    return types


def is_caption_of(previous, cell) -> bool:
    return (previous is not None and previous.cell_type == "markdown" and is_visual(cell)
            and height(previous) <= CAPTION_LINES)


# A slide taller than the screen scrolls instead of being cut ("scroll"), and slides start at the
# top ("center": False): reveal.js centres a slide once, when it is shown, so a centred slide whose
# cell is run during the class (its explorer appears) grows past the bottom of the screen.
RISE_SETTINGS = {"scroll": True, "center": False}


def stored_types(notebook) -> list[str | None]:
    return [cell.metadata.get("slideshow", {}).get("slide_type") for cell in notebook.cells]


def split_at_sections(notebook) -> bool:
    """Split every markdown cell at a ``##`` heading inside it, so that each section can open a
    slide; True if a cell was split. The text is unchanged, only shared among more cells."""
    cells, split = [], False
    for cell in notebook.cells:
        lines = cell.source.split("\n")
        starts = [i for i, line in enumerate(lines) if i > 0 and SECTION.match(line)] if cell.cell_type == "markdown" else []
        if not starts:
            cells.append(cell)
            continue
        split = True
        for begin, end in zip([0, *starts], [*starts, len(lines)]):
            part = "\n".join(lines[begin:end]).strip("\n")
            if begin == 0:
                cell.source = part
                cells.append(cell)
            else:
                cells.append(nbformat.v4.new_markdown_cell(part))
    notebook.cells = cells
    return split


def apply(notebook) -> bool:
    """Give each section its own cell and write the slide types into ``notebook``'s cells;
    True if anything changed."""
    split = split_at_sections(notebook)
    wanted = slide_types(notebook.cells)
    if not split and stored_types(notebook) == wanted and notebook.metadata.get("rise") == RISE_SETTINGS:
        return False
    notebook.metadata["rise"] = dict(RISE_SETTINGS)
    for cell, kind in zip(notebook.cells, wanted):
        cell.metadata["slideshow"] = {"slide_type": kind}
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", type=Path, help="the chapters to set (every chapter if none)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a chapter drifted")
    args = parser.parse_args(argv)
    drifted = []
    for path in [path.resolve() for path in args.chapters] or chapters():
        notebook = nbformat.read(path, as_version=4)
        if apply(notebook):
            drifted.append(path.relative_to(ROOT))
            if not args.check:
                nbformat.write(notebook, path)
    verb = "drifted (run python classroom/slides.py)" if args.check else "updated"
    for path in drifted:
        print(f"{path}: slide metadata {verb}")
    return 1 if args.check and drifted else 0


if __name__ == "__main__":
    sys.exit(main())
