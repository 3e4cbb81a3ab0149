"""What every explorer shares: the display hook and a few small HTML and layout helpers.

The explorer modules (:mod:`~lmcore.widgets.probability`, :mod:`~lmcore.widgets.lambdas`,
:mod:`~lmcore.widgets.branching`, :mod:`~lmcore.widgets.fairness`) import these by
their public names; nothing here knows about any one explorer.

>>> span("lmcore-entropy", format_number(2.0))
'<span class="lmcore-entropy">2.0000</span>'
>>> format_number(float("inf"))
'∞'
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence

import ipywidgets as widgets

__all__ = ["INFINITY", "Explorer", "format_number", "span", "table_html", "notes_html", "help_box",
           "picture_layout"]

INFINITY = "∞"

# Every table cell alike: left-aligned, a little room between columns.
_CELL = ' style="padding: 1px 10px; text-align: left"'


class Explorer:
    """Base of the explorers: a cell ending with an explorer displays its ``widget``.

    A subclass builds its controls and sets ``self.widget`` (the whole layout) in
    ``__init__``. Static viewers (GitHub, nbviewer) and strict nbval see the same
    plain-text line on every run instead of the widget.
    """

    widget: widgets.Widget

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"{type(self).__name__}: an interactive widget (run the notebook in Jupyter to use it)"
        return bundle


def format_number(value: float, digits: int = 4) -> str:
    """``value`` with ``digits`` decimals, or ``∞`` (:data:`INFINITY`) for an infinite one.

    >>> format_number(3.14159, 2), format_number(math.inf)
    ('3.14', '∞')
    """
    return INFINITY if math.isinf(value) else f"{value:.{digits}f}"


def span(css_class: str, text: str) -> str:
    """``text`` (already HTML) in a ``<span>`` whose CSS class tests and the browser test look for."""
    return f'<span class="{css_class}">{text}</span>'


def table_html(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """An HTML table (class ``lmcore-table``) with header ``columns``; cells are HTML, not escaped here.

    >>> table_html(["x"], [["1"]]).count("<td")
    1
    """
    header = "".join(f"<th{_CELL}>{name}</th>" for name in columns)
    body = "".join("<tr>" + "".join(f"<td{_CELL}>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="lmcore-table" style="border-collapse: collapse"><tr>{header}</tr>{body}</table>'


def notes_html(notes: Iterable[str]) -> str:
    """Plain-text notes as escaped ``<p class="lmcore-message">`` paragraphs.

    >>> notes_html(["p < q"])
    '<p class="lmcore-message">p &lt; q</p>'
    """
    return "".join(f'<p class="lmcore-message">{html.escape(note)}</p>' for note in notes)


def help_box(text: str, max_width: str = "50em") -> widgets.HTML:
    """An explorer's explanation above its controls (``text`` is HTML), in a readable column."""
    return widgets.HTML(f'<div style="max-width: {max_width}; line-height: 1.4">{text}</div>')


def picture_layout() -> widgets.Layout:
    """Layout for an explorer's ``Image``: its natural size, top-aligned."""
    # In an HBox, flex would otherwise stretch a picture to its neighbour's height.
    return widgets.Layout(width="460px", height="auto", align_self="flex-start", flex="0 0 auto")
