"""How tall a chapter's cell is on a 1280 x 720 slide, at the lecture sizes of ``classroom/rise.css``.

``classroom/slides.py`` groups cells into slides by these heights, and shows a cell that no
slide can hold smaller (a CSS ``zoom``). The estimate lays the cell out as the slideshow does:
prose at 24 px in DejaVu Sans (the font Linux browsers use for JupyterLab's text; matplotlib
ships it, and its advance widths are read from that file), wrapped word by word in the width
of a slide, Chinese characters one em each; code at 20 px and printed output at 18 px in a
monospace font, wrapped as CodeMirror and ``pre-wrap`` wrap them; figures at their stored
size; tables, display maths, folded answers and lists as JupyterLab and rise.css set them.
macOS and Windows set the same text in narrower fonts, so a slide that fits here fits there.
The constants are measured in Debian's chromium (tests/browser/test_browser_slides.py checks
the slides that come out of them); the estimate is within about 40 px of a cell's real height.
An explorer's height is known in a browser only: :func:`height` gives ``None`` for it.
"""

from __future__ import annotations

import base64
import functools
import re
import struct
import unicodedata
from pathlib import Path

import matplotlib
from matplotlib import ft2font

# Sizes set by classroom/rise.css (px at a 1280 x 720 screen) ...
PROSE_PX, PROSE_LINE = 24, 1.4
HEADING_EM = {1: 2.0, 2: 1.5, 3: 1.25, 4: 1.1, 5: 1.0, 6: 1.0}
HEADING_LINE = 1.2
HEADING_BOLD = 1.07  # headings are bold: about this much wider
BLOCK_GAP = 16  # below a paragraph, heading, list, table or display formula
TABLE_LINE, TABLE_PADDING = 1.2, (8, 24)  # a table cell's padding: top + bottom, left + right
CODE_PX, CODE_LINE = 20, 1.4
OUTPUT_PX, OUTPUT_LINE = 18, 1.2
# ... and what JupyterLab and reveal.js make of them, measured
PROSE_WIDTH = 1182  # a markdown cell's text, the slide's gutter for reveal's arrows left out
LIST_INDENT = 40
CODE_WIDTH = 1124
OUTPUT_WIDTH = 1098  # printed output
OUTPUT_BOX_WIDTH = 1138  # a figure's room
CELL_PADDING = 10
EDITOR_PADDING = 14
OUTPUT_PADDING = 3.4  # above each output
FIGURE_PADDING = 28.6  # around a figure
HTML_PADDING = 11.6  # around an HTML output (a self-check's verdict)
HTML_EM = 0.9  # its text's size, of OUTPUT_PX
MONO_EM = 0.6021  # DejaVu Sans Mono's advance
CODE_SPAN_EM = 0.62  # an inline code span's, with its padding
MATH_EM = 0.6  # an inline formula's, per character it shows
TALL_INLINE_MATH = 8  # a line with a fraction, root or sum in it is this much taller
DISPLAY_MATH = {"plain": 44, "tall": 72, "braces": 110, "row": 40, "tall row": 64, "rows": 20}
BADGE = 20  # the Binder badge
NAMED = ("log", "ln", "exp", "max", "min")  # maths commands shown as their name

FONTS = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
TALL_MATH = re.compile(r"\\(?:frac|dfrac|tfrac|sum|prod|int|binom|sqrt)")
BRACES = re.compile(r"\\(?:underbrace|overbrace)")
INLINE = re.compile(r"`([^`]+)`|\$([^$]+)\$")  # a code span or an inline formula
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
TAG = re.compile(r"<[^>]+>")
TABLE_RULE = re.compile(r"^\|[\s:|-]+\|?$")
ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*)")
WIDGET = "application/vnd.jupyter.widget-view+json"


def is_wide(char: str) -> bool:
    """A Chinese character (or another full-width one): one em wide in every font."""
    return unicodedata.east_asian_width(char) in "WF"


@functools.lru_cache(maxsize=2)
def _font(bold: bool) -> ft2font.FT2Font:
    font = ft2font.FT2Font(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")))
    font.set_size(100, 72)  # 100 px
    return font


@functools.lru_cache(maxsize=4096)
def advance(char: str, bold: bool = False) -> float:
    """The width of ``char`` in DejaVu Sans, in em."""
    if is_wide(char):
        return 1.0
    font = _font(bold)
    if not font.get_char_index(ord(char)):
        return 0.6
    return font.load_char(ord(char)).linearHoriAdvance / 65536 / 100


def _shown_maths(tex: str) -> str:
    """About as many characters as the formula ``tex`` shows."""
    tex = re.sub(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: max(m.group(1), m.group(2), key=len), tex)
    tex = re.sub(r"\\(?:text|mathrm|mathbf|mathit|operatorname)\{([^{}]*)\}", r"\1", tex)
    tex = re.sub(r"\\([a-zA-Z]+)", lambda m: m.group(1) if m.group(1) in NAMED else "x", tex)  # \lambda: one
    return re.sub(r"[{}_^]|\\[,;! ]", "", tex)


def _plain(text: str) -> list[tuple[str, bool, float]]:
    out = []
    for i, part in enumerate(re.split(r"\*\*|__", TAG.sub("", LINK.sub(r"\1", text)))):
        part = part.replace("*", "").replace("\\", "")
        if part:
            out.append((part, i % 2 == 1, 0.0))
    return out


def runs(text: str) -> list[tuple[str, bool, float]]:
    """Inline markdown ``text`` as (characters, bold, em) with its markup gone: ``em`` is a
    fixed advance (code spans, formulas), or 0 for the font's own."""
    out, position = [], 0
    for match in INLINE.finditer(text):
        out += _plain(text[position:match.start()])
        code, maths = match.groups()
        out.append((code, False, CODE_SPAN_EM) if code is not None else (_shown_maths(maths), False, MATH_EM))
        position = match.end()
    return out + _plain(text[position:])


@functools.lru_cache(maxsize=65536)
def _word_em(word: str, bold: bool) -> float:
    """The width of ``word`` (no space in it) in DejaVu Sans, in em."""
    return sum(advance(char, bold) for char in word)


def pieces(text: str, size: float) -> list[tuple[float, bool]]:
    """What a line may not break inside, each with its width at ``size`` px and whether a space follows."""
    out: list[tuple[float, bool]] = []
    word = 0.0
    for characters, bold, em in runs(text):
        for token in re.split(r"(\s+)", characters):
            if not token:
                continue
            if token.isspace():
                out.append((word, True))
                word = 0.0
            elif token.isascii():
                word += size * (em * len(token) if em else _word_em(token, bold))
            else:
                for char in token:
                    if is_wide(char):  # a line may break before and after each
                        if word:
                            out.append((word, False))
                        out.append((size, False))
                        word = 0.0
                    else:
                        word += size * (em or advance(char, bold))
    return out + [(word, False)] if word else out


def lines_of(parts: list[tuple[float, bool]], width: float, space: float) -> int:
    """Lines that ``parts`` (see :func:`pieces`) fill when wrapped word by word in ``width`` px."""
    lines, x = 1, 0.0
    for part, then_space in parts:
        if x and x + part > width:  # not on this line: on the next
            lines, x = lines + 1, 0.0
        while part > width:  # longer than a line (a URL, a long code line): it breaks anywhere
            lines, part = lines + 1, part - width
        x += part + (space if then_space else 0.0)
    return lines


def prose_lines(text: str, size: float, width: float) -> int:
    return lines_of(pieces(text, size), width, size * advance(" "))


def mono_lines(text: str, size: float, width: float) -> int:
    """Lines of monospace ``text`` wrapped in ``width`` px (code by CodeMirror, output by ``pre-wrap``)."""
    total, advance_px = 0, size * MONO_EM
    for line in text.split("\n"):
        if line.isascii() and len(line) * advance_px <= width:  # most lines: one line, nothing to wrap
            total += 1
            continue
        parts = [((len(word) if word.isascii() else sum(1.0 / MONO_EM if is_wide(c) else 1.0 for c in word))
                  * advance_px, True) for word in line.split(" ")]
        total += lines_of(parts, width, advance_px)
    return total


def paragraph_height(text: str, width: float) -> float:
    lines = prose_lines(text, PROSE_PX, width)
    tall = sum(1 for _, maths in INLINE.findall(text) if maths and TALL_MATH.search(maths))
    return lines * PROSE_PX * PROSE_LINE + min(tall, lines) * TALL_INLINE_MATH


def display_maths_height(tex: str) -> float:
    rows = tex.count("\\\\") + 1
    if rows > 1:
        return rows * DISPLAY_MATH["tall row" if TALL_MATH.search(tex) else "row"] + DISPLAY_MATH["rows"]
    if BRACES.search(tex):
        return DISPLAY_MATH["braces"]
    return DISPLAY_MATH["tall" if TALL_MATH.search(tex) else "plain"]


def table_height(rows: list[list[str]], width: float) -> float:
    """A markdown table in ``width`` px. Browsers give each column at least its longest word and
    share the rest in proportion to what its longest cell needs on one line; this does about the same."""
    n = max(len(row) for row in rows)
    rows = [row + [""] * (n - len(row)) for row in rows]
    pad_y, pad_x = TABLE_PADDING
    space = PROSE_PX * advance(" ")
    widest = [max(sum(w + (space if then else 0.0) for w, then in pieces(row[c], PROSE_PX)) for row in rows) + pad_x
              for c in range(n)]
    narrowest = [max((w for row in rows for w, _ in pieces(row[c], PROSE_PX)), default=0) + pad_x for c in range(n)]
    if sum(widest) <= width:
        widths = widest
    else:
        spare = max(0.0, width - sum(narrowest))
        widths = [m + w * spare / sum(widest) for w, m in zip(widest, narrowest)]
    return sum(max(prose_lines(cell, PROSE_PX, max(1.0, w - pad_x)) for cell, w in zip(row, widths))
               * PROSE_PX * TABLE_LINE + pad_y for row in rows)


def png_size(data: str) -> tuple[int, int]:
    """(width, height) of a base64 PNG, from its header (a matplotlib figure's default size if it has none)."""
    try:
        header = base64.b64decode(data[:32])
    except ValueError:
        header = b""
    return struct.unpack(">II", header[16:24]) if len(header) >= 24 and header[12:16] == b"IHDR" else (640, 480)


def markdown_height(source: str, zoom: float = 1.0) -> float:
    """A markdown cell's height in px, shown at ``zoom`` (its text then wraps in 1/zoom the width)."""
    width = PROSE_WIDTH / zoom
    lines = source.split("\n")
    blocks: list[float] = []
    paragraph: list[str] = []
    items: list[tuple[int, str]] = []

    def end_paragraph():
        if paragraph:
            blocks.append(paragraph_height(" ".join(paragraph), width))
            paragraph.clear()

    def end_list():
        if items:
            blocks.append(sum(paragraph_height(text, width - LIST_INDENT * (1 + depth)) for depth, text in items))
            items.clear()

    i = 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip()
        heading, item = HEADING.match(stripped), ITEM.match(lines[i])
        if not stripped:
            end_paragraph()
        elif heading or stripped.startswith(("$$", "|", "<details", "<img", "![")):
            end_paragraph()
            end_list()
            if heading:
                size = PROSE_PX * HEADING_EM[len(heading.group(1))]
                lines_ = lines_of(pieces(heading.group(2), size * HEADING_BOLD), width, size * 0.3)
                blocks.append(lines_ * size * HEADING_LINE)
            elif stripped.startswith("$$"):
                tex = stripped[2:]
                while not tex.rstrip().endswith("$$") and i + 1 < len(lines):
                    i += 1
                    tex += "\n" + lines[i]
                blocks.append(display_maths_height(tex))
            elif stripped.startswith("|"):
                rows = []
                while i < len(lines) and lines[i].strip().startswith("|"):
                    if not TABLE_RULE.match(lines[i].strip()):
                        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", lines[i].strip().strip("|"))])
                    i += 1
                blocks.append(table_height(rows, PROSE_WIDTH))  # zoomed: as it is (how it rewraps is hard to tell)
                continue
            elif stripped.startswith("<details"):  # folded: its summary shows
                while "</details>" not in lines[i] and i + 1 < len(lines):
                    i += 1
                blocks.append(PROSE_PX * PROSE_LINE)
            else:  # a picture: the Binder badge, or a PNG of a stated width
                png, shown = re.search(r"base64,([A-Za-z0-9+/=]+)", stripped), re.search(r"width:\s*(\d+)px", stripped)
                if png:
                    w, h = png_size(png.group(1))
                    blocks.append(h * min(float(shown.group(1)) if shown else w, width) / w)
                else:
                    blocks.append(BADGE)
        elif item:
            end_paragraph()
            items.append((len(item.group(1)) // 2, item.group(2)))
        elif items and line.startswith(" "):
            depth, text = items[-1]
            items[-1] = (depth, f"{text} {stripped}")
        else:
            end_list()
            paragraph.append(stripped.lstrip("> ") if stripped.startswith(">") else stripped)
        i += 1
    end_paragraph()
    end_list()
    return CELL_PADDING + sum(blocks) + BLOCK_GAP * max(0, len(blocks) - 1)


def code_height(cell, zoom: float = 1.0) -> float | None:
    """A code cell's height in px with its stored outputs, shown at ``zoom``; None for an explorer."""
    height = CELL_PADDING + EDITOR_PADDING + mono_lines(cell.source, CODE_PX, CODE_WIDTH / zoom) * CODE_PX * CODE_LINE
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if WIDGET in data:
            return None
        height += OUTPUT_PADDING
        if "image/png" in data:
            w, h = png_size(data["image/png"])
            height += FIGURE_PADDING + h * min(1.0, OUTPUT_BOX_WIDTH / zoom / w)
        elif output.get("output_type") == "stream":
            text = output.get("text", "").rstrip("\n")
            height += mono_lines(text, OUTPUT_PX, OUTPUT_WIDTH / zoom) * OUTPUT_PX * OUTPUT_LINE
        elif "text/html" in data:
            size = OUTPUT_PX * HTML_EM
            height += HTML_PADDING + prose_lines(TAG.sub("", data["text/html"]), size, OUTPUT_WIDTH / zoom) * size * 1.3
        else:
            height += mono_lines(data.get("text/plain", ""), OUTPUT_PX, OUTPUT_WIDTH / zoom) * OUTPUT_PX * OUTPUT_LINE
    return height


def height(cell, zoom: float = 1.0) -> float | None:
    """How many px of a 1280 x 720 slide ``cell`` fills at ``zoom`` (its layout's height times
    ``zoom``); None for an explorer."""
    laid_out = markdown_height(cell.source, zoom) if cell.cell_type == "markdown" else code_height(cell, zoom)
    return None if laid_out is None else laid_out * zoom


def is_explorer(cell) -> bool:
    return cell.cell_type == "code" and any(WIDGET in output.get("data", {}) for output in cell.get("outputs", []))


def fitting_zoom(cells, room: float, smallest: float, step: float = 0.05) -> float | None:
    """The largest zoom, in steps of ``step`` from 1 down to ``smallest``, at which ``cells``
    fill at most ``room`` px; None if none does."""
    zoom = 1.0
    while zoom >= smallest - 1e-9:
        if sum(height(cell, zoom) or 0.0 for cell in cells) <= room:
            return zoom
        zoom = round(zoom - step, 2)
    return None
