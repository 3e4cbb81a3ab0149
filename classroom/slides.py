"""Slides for every chapter, so each can be presented with jupyterlab-rise in a lecture hall.

    python classroom/slides.py            # set the slides of every chapter
    python classroom/slides.py notebooks/04_perplexity.ipynb notebooks/zh/04_perplexity.ipynb  # of these
    python classroom/slides.py --check    # exit 1, naming what drifted
    python classroom/slides.py --table    # the English chapters' slide counts, for docs/teaching.md

The slides follow from the chapter itself, so a new or changed chapter needs no change here:

- the title cell and every ``##`` section of the core path open a new slide (left/right keys);
- within a section, a new sub-slide (down key, or space) starts where a new idea starts (prose
  after code), where a figure or an explorer appears (each gets a sub-slide of its own, with its
  short caption if one leads into it), at each exercise, and wherever the slide would overflow;
- "Going further" sections in a row form one column of sub-slides: the right key passes them
  all, the down key goes into them; "Check yourself" and "What to remember" keep slides of
  their own wherever they stand;
- the link onwards that closes a chapter ("**Next:**") is a slide of its own, after Going further.

Slides are laid out for a 1280 x 720 screen (and scale with the screen) at the sizes of
``classroom/rise.css``: prose 24 px, code 20 px, printed output 18 px. A cell's height on a slide
is estimated from its text and stored outputs (``classroom/slide_layout.py``); cells share a slide
while they fit, and a cell no slide can hold is shown smaller, by the largest zoom that fits it.
Besides each chapter's metadata (slide types; RISE's options, with reveal.js's "white" theme,
which needs no web font) this writes the two stylesheets RISE asks for beside a chapter:
``rise.css`` (a copy of ``classroom/rise.css``) and ``<chapter>.css`` (that chapter's zoomed cells).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

try:
    from classroom import slide_layout
except ImportError:  # run as a script: python classroom/slides.py
    import slide_layout

ROOT = Path(__file__).resolve().parents[1]
STYLE = Path(__file__).with_name("rise.css")  # copied beside each edition's chapters as rise.css
SLIDE, SUBSLIDE, CONTINUE = "slide", "subslide", "-"
FITS = 684  # px: RISE scrolls a slide taller than 95 % of the 720 px screen
ROOM = 644  # px a slide's cells may fill by slide_layout's estimate (within about 40 px of the truth)
CAPTION_HEIGHT = 145  # px: prose this short (4 lines) leading into a figure or explorer is its caption
SMALLEST_ZOOM = 0.5
CODE_FIRST = 0.1  # how much smaller code may get for the prose beside it to keep its size
SECTION = re.compile(r"^##\s")
GOING_FURTHER = re.compile(r"^\s{0,3}#{1,6}\s.*(going further|深入一步)", re.IGNORECASE)  # both editions' heading
EXERCISE = re.compile(r"^\*\*Exercise\b")
NEXT = re.compile(r"^\*\*(?:Next|下一章)[:：]?\*\*")  # the chapter's last cell, in either edition
AFTER_CLASS = re.compile(r"^\s{0,3}#{1,6}\s.*(check yourself|自我检测|going further|深入一步)", re.IGNORECASE | re.MULTILINE)
VISUAL_OUTPUTS = ("image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json")

# A slide taller than the screen scrolls instead of being cut ("scroll": the last resort; every
# slide fits), and slides start at the top ("center": False): reveal.js centres a slide once, when
# it is shown, so a centred slide whose cell is run during the class (its explorer appears) grows
# past the bottom of the screen. The theme is one without web fonts (RISE's default, "simple",
# loads two from fonts.googleapis.com).
RISE_SETTINGS = {"scroll": True, "center": False, "theme": "white"}


def chapters(root: Path = ROOT) -> list[Path]:
    """Every chapter notebook, in every edition (``notebooks/NN_*.ipynb`` and below)."""
    return sorted((root / "notebooks").rglob("[0-9][0-9]_*.ipynb"))


def is_visual(cell) -> bool:
    """A code cell that shows a figure or an explorer."""
    return cell.cell_type == "code" and any(
        kind in output.get("data", {}) for output in cell.get("outputs", []) for kind in VISUAL_OUTPUTS)


def height(cell) -> float:
    """About how many px of a slide ``cell`` fills, its outputs included (an explorer: a whole slide)."""
    estimate = slide_layout.height(cell)
    return ROOM if estimate is None else estimate


def slide_types(cells) -> list[str]:
    """The RISE slide type of each cell (see the module's docstring for the rules)."""
    types: list[str] = []
    going_further = False
    filled = 0.0
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
        elif filled + height(cell) > ROOM:
            kind = SUBSLIDE
        else:
            kind = CONTINUE
        filled = height(cell) if kind != CONTINUE else filled + height(cell)
        types.append(kind)
    return types


def is_caption_of(previous, cell) -> bool:
    return (previous is not None and previous.cell_type == "markdown" and is_visual(cell)
            and height(previous) <= CAPTION_HEIGHT)


def zooms(cells, types: list[str] | None = None) -> dict[int, float]:
    """{cell index: zoom} for the cells of each slide too tall for the screen at full size: the
    largest zoom (in steps of 0.05, at least :data:`SMALLEST_ZOOM`) at which the slide fits. Prose
    beside code (a caption, a question) keeps its size where zooming the code alone costs it at
    most :data:`CODE_FIRST` more. A slide with an explorer keeps its size (the explorer's height
    is known in a browser only)."""
    types = slide_types(cells) if types is None else types
    starts = [i for i, kind in enumerate(types) if kind in (SLIDE, SUBSLIDE)] + [len(cells)]
    zoomed: dict[int, float] = {}
    for begin, end in zip(starts, starts[1:]):
        group = range(begin, end)
        if any(slide_layout.is_explorer(cells[i]) for i in group) or sum(height(cells[i]) for i in group) <= ROOM:
            continue
        whole = slide_layout.fitting_zoom([cells[i] for i in group], ROOM, SMALLEST_ZOOM) or SMALLEST_ZOOM
        code = [i for i in group if cells[i].cell_type == "code"]
        prose = sum(height(cells[i]) for i in group if i not in code)
        zoom = slide_layout.fitting_zoom([cells[i] for i in code], ROOM - prose, whole - CODE_FIRST) if code else None
        if zoom is None:
            zoom = whole
        else:
            group = code
        zoomed.update({i: zoom for i in group})
    return zoomed


def chapter_style(name: str, zoomed: dict[int, float]) -> str:
    """The text of ``<chapter>.css``, the stylesheet RISE loads beside the chapter ``name``."""
    lines = [f"/* The slides of {name}, written by classroom/slides.py (RISE loads this file and rise.css",
             "   beside the chapter). Cells too tall for a 1280 x 720 slide at the sizes of rise.css are shown",
             f"   smaller, each by the zoom that fits its slide: {len(zoomed) or 'no'} cell{'s' * (len(zoomed) != 1)}"
             " here. */"]
    lines += [f'.rise-enabled .reveal .jp-Cell[data-windowed-list-index="{index}"] {{ zoom: {zoom:g}; }}'
              for index, zoom in sorted(zoomed.items())]
    return "\n".join(lines) + "\n"


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


def stylesheets(path: Path, notebook) -> dict[Path, str]:
    """The stylesheets RISE asks for beside the chapter at ``path`` (``notebook``, its slides set): their texts."""
    return {path.with_name("rise.css"): STYLE.read_text(encoding="utf-8"),
            path.with_suffix(".css"): chapter_style(path.name, zooms(notebook.cells, stored_types(notebook)))}


def slide_counts(notebook) -> tuple[int, int, int]:
    """The class's slides and sub-slides (its title to "What to remember") and every screen of the
    chapter, as docs/teaching.md's table gives them."""
    types = stored_types(notebook)
    end = next((i for i, cell in enumerate(notebook.cells)
                if cell.cell_type == "markdown" and AFTER_CLASS.search(cell.source)), len(types))
    return types[:end].count(SLIDE), types[:end].count(SUBSLIDE), types.count(SLIDE) + types.count(SUBSLIDE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", type=Path, help="the chapters to set (every chapter if none)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a chapter drifted")
    parser.add_argument("--table", action="store_true", help="print the English chapters' slide counts and stop")
    args = parser.parse_args(argv)
    if args.table:
        print("| chapter | class | all screens |\n|---|---|---|")
        for path in chapters():
            if path.parent == ROOT / "notebooks":
                slides, subslides, screens = slide_counts(nbformat.read(path, as_version=4))
                print(f"| {path.stem} | {slides} + {subslides} | {screens} |")
        return 0
    drifted = []
    for path in [path.resolve() for path in args.chapters] or chapters():
        notebook = nbformat.read(path, as_version=4)
        if apply(notebook):
            drifted.append(path)
            if not args.check:
                nbformat.write(notebook, path)
        for sheet, text in stylesheets(path, notebook).items():
            if not sheet.exists() or sheet.read_text(encoding="utf-8") != text:
                drifted.append(sheet)
                if not args.check:
                    sheet.write_text(text, encoding="utf-8")
    verb = "drifted (run python classroom/slides.py)" if args.check else "updated"
    for path in dict.fromkeys(drifted):
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: slides {verb}")
    return 1 if args.check and drifted else 0


if __name__ == "__main__":
    sys.exit(main())
