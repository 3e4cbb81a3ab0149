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

import base64
import html
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets
from IPython.display import Javascript
from traitlets import Unicode

from lmcore.i18n import localised, tr, translatable

__all__ = ["INFINITY", "STATIC_NOTE", "FIGURE_ALT", "SLIDER_TRACK_PX", "Explorer", "ExplorerFigure", "static_html",
           "format_number", "span", "scroll_box", "fit_to_column", "table_html", "notes_html", "readable", "help_box",
           "picture_layout", "slider_layout", "on_enter", "name_sliders"]

INFINITY = "∞"

# Every table cell alike: left-aligned, a little room between columns (``table_html(padding=...)``
# narrows it for a table of many columns).
_CELL_PADDING = "1px 10px"


class Explorer:
    """Base of the explorers: a cell ending with an explorer displays its ``widget``.

    A subclass builds its controls and sets ``self.widget`` (the whole layout) in
    ``__init__``. Beside the live widget, the display data carries two static views
    of the explorer as it is when displayed: ``text/html``, a picture of it
    (:func:`static_html`: its numbers, figures and control settings), which static
    viewers (GitHub, nbconvert HTML, the course website) show where they cannot run
    it, and ``text/plain``, one line that is the same on every run. Front ends that run
    widgets (JupyterLab, VS Code, Colab) show the live widget instead.
    """

    widget: widgets.Widget
    #: A screen reader's name for a slider, by the slider's CSS class, where its description is too
    #: short to say what it moves (the λ explorer's "λ1, unigram weight"); the others are named by
    #: their description (:func:`name_sliders`).
    slider_names: Mapping[str, str] = {}

    def _repr_mimebundle_(self, **kwargs):
        name_sliders(self.widget, self.slider_names)
        fit_to_column(self.widget)
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = tr("{name}: an interactive widget (run this cell in Jupyter to use it)",
                                  name=type(self).__name__)
        bundle["text/html"] = static_html(self.widget)
        return bundle


STATIC_NOTE = translatable("A picture of the explorer as it starts: run this cell in Jupyter (from the website: "
                           "open the notebook on Binder) to move its controls.")

#: What a figure shows when an explorer gives none (an ``Image``'s ``tooltip`` is its description).
FIGURE_ALT = translatable("the explorer's figure as it starts")

# A box that scrolls inside the column where its content is wider (or taller) than it. The cue: a
# shadow on each side where more content is hidden, which goes when that side is reached
# (backgrounds that scroll with the content cover the shadows at the ends). Colours follow
# JupyterLab's theme and the website's, white elsewhere.
_PAGE = "var(--jp-layout-color0, var(--pst-color-background, #fff))"
_SHADE = "rgba(0, 0, 0, 0.28)"


def _scroll_cues(sides: Sequence[tuple[str, str, str, str]]) -> str:
    """The background of a scrolling box: for each ``(side, direction, shadow origin, size)`` a cover
    that moves with the content and a shadow that stays at the box's edge."""
    covers = [f"linear-gradient(to {direction}, {_PAGE} 30%, transparent) {side} / {size.format(40)} no-repeat local"
              for side, direction, _, size in sides]
    shadows = [f"radial-gradient(farthest-side at {origin}, {_SHADE}, transparent) {side} / {size.format(14)} "
               "no-repeat scroll" for side, _, origin, size in sides]
    return "background: " + ", ".join(covers + shadows)


_SIDEWAYS = (("left", "right", "0 50%", "{}px 100%"), ("right", "left", "100% 50%", "{}px 100%"))
_DOWNWARDS = (("top", "bottom", "50% 0", "100% {}px"), ("bottom", "top", "50% 100%", "100% {}px"))
SCROLL_STYLE = "max-width: 100%; overflow-x: auto; " + _scroll_cues(_SIDEWAYS)


def scroll_box(inner: str, label: str, max_height: str | None = None) -> str:
    """``inner`` (HTML) in a box that scrolls sideways, with a shadow as the cue, where it is wider than
    the column, and down too (with a shadow at the bottom and top) where it is taller than
    ``max_height`` (a CSS length); the box can take the keyboard's focus (arrow keys scroll it) and is
    named ``label``.

    >>> scroll_box("<table></table>", "n-grams")[:60]
    '<div class="lmcore-scroll" role="region" tabindex="0" aria-l'
    >>> taller = scroll_box("<p>tokens</p>", "tokens", max_height="100px")
    >>> "max-height: 100px; overflow-y: auto" in taller, taller.count("radial-gradient")
    (True, 4)
    """
    name = html.escape(label, quote=True)
    style = SCROLL_STYLE
    if max_height:
        style = (f"max-height: {max_height}; overflow-y: auto; max-width: 100%; overflow-x: auto; "
                 + _scroll_cues(_SIDEWAYS + _DOWNWARDS))
    return f'<div class="lmcore-scroll" role="region" tabindex="0" aria-label="{name}" style="{style}">{inner}</div>'


def fit_to_column(widget: widgets.Widget) -> None:
    """Let ``widget`` and everything in it shrink to the width it is shown in (a notebook's column, a
    slide): no part wider than 100 %, and flex items allowed below their content's width, so that
    tables scroll inside their own box (:func:`scroll_box`) and figures scale."""
    layout = getattr(widget, "layout", None)
    if layout is not None:
        if not layout.max_width:
            layout.max_width = "100%"
        if not layout.min_width and isinstance(widget, (widgets.Box, widgets.HTML)):
            layout.min_width = "0"
    for child in getattr(widget, "children", ()):
        fit_to_column(child)


def static_html(widget: widgets.Widget) -> str:
    """A static HTML picture of ``widget`` as it is now: boxes as rows and columns, ``HTML``
    widgets as their HTML, images inline (base64), sliders and menus as "label: value",
    buttons greyed out; a note above (:data:`STATIC_NOTE`, in the course's language) says how
    to make it live. Nothing in it is wider than the column it is shown in: rows wrap, tables
    scroll in their own box (:func:`scroll_box`), figures scale (alt text: the ``Image``'s ``tooltip``).

    >>> box = widgets.VBox([widgets.FloatSlider(value=0.25, description="λ1"), widgets.HTML("<b>PP</b>")])
    >>> print(static_html(box).replace(STATIC_NOTE, "NOTE"))  # doctest: +NORMALIZE_WHITESPACE
    <div class="lmcore-static" style="border-left: 3px solid #ddd; padding-left: 8px; max-width: 100%; box-sizing:
    border-box; overflow-wrap: break-word"><p style="font-size: 90%; color: #555"><i>NOTE</i></p><div style="display:
    flex; flex-direction: column; gap: 4px; max-width: 100%"><div style="min-width: 0; max-width: 100%"><div>λ1:
    <b>0.25</b></div></div><div style="min-width: 0; max-width: 100%"><b>PP</b></div></div></div>
    """
    return (f'<div class="lmcore-static" style="border-left: 3px solid #ddd; padding-left: 8px; max-width: 100%; '
            f'box-sizing: border-box; overflow-wrap: break-word">'
            f'<p style="font-size: 90%; color: #555"><i>{tr(STATIC_NOTE)}</i></p>'
            f"{_static_part(widget)}</div>")


# Each part of a picture's rows and columns may shrink below its content's width (the content
# then wraps, or scrolls in its own box), never grow past the picture.
_FLEX_ITEM = '<div style="min-width: 0; max-width: 100%">'


def _static_part(widget: widgets.Widget) -> str:
    if isinstance(widget, widgets.Box):
        if widget.layout.display == "none":
            return ""
        direction = "row; flex-wrap: wrap; gap: 12px; align-items: flex-start" \
            if isinstance(widget, widgets.HBox) else "column; gap: 4px"
        parts = [part for part in (_static_part(child) for child in widget.children) if part]
        inner = "".join(f"{_FLEX_ITEM}{part}</div>" for part in parts)
        if not inner:
            return ""
        return f'<div style="display: flex; flex-direction: {direction}; max-width: 100%">{inner}</div>'
    if isinstance(widget, widgets.HTML):
        return widget.value
    if isinstance(widget, widgets.Label):
        return f"<div>{html.escape(widget.value)}</div>"
    if isinstance(widget, widgets.Image):
        if not widget.value:
            return ""
        picture = base64.b64encode(widget.value).decode("ascii")
        width = widget.layout.width or "auto"
        alt = html.escape(widget.tooltip or tr(FIGURE_ALT), quote=True)  # the tooltip is already translated
        return (f'<img src="data:image/{widget.format};base64,{picture}" style="width: {width}; max-width: 100%; '
                f'height: auto" alt="{alt}">')
    # "label: value", with the colon of the course's language (Chinese writes a full-width one, no space)
    label = tr("{label}: ", label=html.escape(widget.description)) if getattr(widget, "description", "") else ""
    if isinstance(widget, (widgets.FloatSlider, widgets.IntSlider)):
        value = format(widget.value, widget.readout_format)
        return f"<div>{label}<b>{html.escape(value)}</b></div>"
    if isinstance(widget, (widgets.Dropdown, widgets.RadioButtons, widgets.ToggleButtons, widgets.SelectionSlider)):
        return f"<div>{label}<b>{html.escape(str(widget.label))}</b></div>"
    if isinstance(widget, widgets.Checkbox):
        return f"<div>{'☑' if widget.value else '☐'} {html.escape(widget.description)}</div>"
    if isinstance(widget, widgets.Button):
        return f"<div><button disabled>{html.escape(widget.description)}</button></div>"
    return ""


def format_number(value: float, digits: int = 4) -> str:
    """``value`` with ``digits`` decimals, or ``∞`` (:data:`INFINITY`) for an infinite one.

    >>> format_number(3.14159, 2), format_number(math.inf)
    ('3.14', '∞')
    """
    return INFINITY if math.isinf(value) else f"{value:.{digits}f}"


def span(css_class: str, text: str) -> str:
    """``text`` (already HTML) in a ``<span>`` whose CSS class tests and the browser test look for."""
    return f'<span class="{css_class}">{text}</span>'


def table_html(columns: Sequence[str], rows: Iterable[Sequence[str]], label: str | None = None,
               max_height: str | None = None, padding: str = _CELL_PADDING) -> str:
    """An HTML table (class ``lmcore-table``) with header ``columns``; cells are HTML, not escaped here,
    each with ``padding`` (CSS). It scrolls in its own box (:func:`scroll_box`, named ``label``) where
    it is wider than the column or taller than ``max_height``.

    >>> table_html(["x"], [["1"]]).count("<td")
    1
    >>> '<td style="padding: 1px 6px; text-align: left">1</td>' in table_html(["x"], [["1"]], padding="1px 6px")
    True
    """
    cell = f' style="padding: {padding}; text-align: left"'
    header = "".join(f'<th scope="col"{cell}>{name}</th>' for name in columns)
    body = "".join("<tr>" + "".join(f"<td{cell}>{value}</td>" for value in row) + "</tr>" for row in rows)
    table = f'<table class="lmcore-table" style="border-collapse: collapse"><tr>{header}</tr>{body}</table>'
    return scroll_box(table, label or tr("table"), max_height)


def notes_html(notes: Iterable[str]) -> str:
    """Plain-text notes as escaped ``<p class="lmcore-message">`` paragraphs, each in the
    course's language (:func:`localised`).

    >>> notes_html(["p < q"])
    '<p class="lmcore-message">p &lt; q</p>'
    """
    return "".join(f'<p class="lmcore-message">{html.escape(localised(note))}</p>' for note in notes)


def readable(text: str, max_width: str | None = None) -> str:
    """``text`` (HTML) in a block with ordinary line spacing, for an ``HTML`` widget's value.

    JupyterLab gives an ``HTML`` widget's content the line height of a control (28 px), so
    text that wraps would be double-spaced; this block sets it back to 1.4 lines.

    >>> readable("<p>a</p>")
    '<div class="lmcore-text" style="line-height: 1.4"><p>a</p></div>'
    """
    width = f"; max-width: {max_width}" if max_width else ""
    return f'<div class="lmcore-text" style="line-height: 1.4{width}">{text}</div>'


def help_box(text: str, max_width: str | None = "50em") -> widgets.HTML:
    """An explorer's explanation above its controls (``text`` is HTML), in a readable column."""
    return widgets.HTML(readable(text, max_width))


def on_enter(text: widgets.Text, callback: Callable[[], None]) -> None:
    """Call ``callback()`` when the reader presses Enter in the box ``text``, as students expect.

    The front end sends ``{"event": "submit"}`` on Enter; ``Text.on_submit`` is deprecated in
    ipywidgets 8, and its replacement (``continuous_update=False``) also fires when the box loses
    focus, so a click on the button beside it would act twice. This listens to the message itself.
    """
    text.on_msg(lambda widget, content, buffers: callback() if content.get("event") == "submit" else None)


# ipywidgets 8 gives a slider's handle (noUiSlider's) no name, an aria-valuenow rounded to the step's
# decimals and an aria-valuetext with float noise (jupyter-widgets/ipywidgets#2650): a screen reader
# says "slider 0.1" at 0.12, or "0.25120000000000003". This script, run in the page by a hidden output
# of the explorer (JupyterLab passes it as ``element``), names each handle after its slider (``names``
# by CSS class, else its description) and gives it the value its readout shows, now and after every change.
_NAME_SLIDERS_JS = """(function (element, names) {
  const name = root => {
    for (const slider of root.querySelectorAll('.widget-slider')) {
      const own = Object.keys(names).find(css => slider.classList.contains(css));
      const label = own ? names[own] : (slider.querySelector('.widget-label')?.textContent || '').trim();
      const shown = (slider.querySelector('.widget-readout')?.textContent || '').trim();
      for (const handle of slider.querySelectorAll('.noUi-handle')) {
        const set = (name, value) => handle.getAttribute(name) !== value && handle.setAttribute(name, value);
        if (label) set('aria-label', label);
        if (shown) set('aria-valuetext', shown);
        if (shown && Number.isFinite(Number(shown))) set('aria-valuenow', shown);
      }
    }
  };
  (function start(tries) {  // once the explorer is on the page
    const root = element.closest('.lmcore-explorer');
    if (!root) return tries < 600 && setTimeout(() => start(tries + 1), 50);
    name(root);
    new MutationObserver(() => name(root)).observe(root, {subtree: true, childList: true,
                                                          attributeFilter: ['aria-valuetext']});
  })(0);
})(element, %s);"""
_NAMING_CLASS = "lmcore-slider-names"


def name_sliders(widget: widgets.Widget, names: Mapping[str, str] | None = None) -> None:
    """Give every slider handle in the box ``widget`` a name a screen reader says and the exact value
    (``_NAME_SLIDERS_JS``): ``widget`` gets the class ``lmcore-explorer`` and, once, a hidden output
    that runs the script. A slider is named ``names[css_class]`` where one of its CSS classes is a key,
    else by its description. Nothing is added to a box without sliders.

    >>> box = widgets.VBox([widgets.FloatSlider(description="skew")]); name_sliders(box)
    >>> len(box.children), "lmcore-explorer" in box._dom_classes
    (2, True)
    >>> name_sliders(box); len(box.children)   # once
    2
    """
    if not isinstance(widget, widgets.Box) or not _sliders(widget):
        return
    if "lmcore-explorer" not in widget._dom_classes:
        widget.add_class("lmcore-explorer")
    if any(_NAMING_CLASS in child._dom_classes for child in widget.children if isinstance(child, widgets.Output)):
        return
    script = widgets.Output(layout=widgets.Layout(display="none"))
    script.add_class(_NAMING_CLASS)
    script.append_display_data(Javascript(_NAME_SLIDERS_JS % json.dumps(dict(names or {}), ensure_ascii=False)))
    widget.children = (*widget.children, script)


def _sliders(widget: widgets.Widget) -> list[widgets.Widget]:
    if isinstance(widget, (widgets.FloatSlider, widgets.IntSlider, widgets.SelectionSlider)):
        return [widget]
    return [slider for child in getattr(widget, "children", ()) for slider in _sliders(child)]


#: The track a slider gets from :func:`slider_layout`, in pixels: a step of 1/100 of it is
#: over 4 px, wide enough to be hit with a mouse.
SLIDER_TRACK_PX = 420


def slider_layout(description_px: int = 130) -> tuple[widgets.Layout, dict]:
    """``(layout, style)`` for a slider whose description is ``description_px`` wide and whose
    track is at least :data:`SLIDER_TRACK_PX` (the readout and the margins take up to 100 px more).

    >>> layout, style = slider_layout(100); layout.width, style
    ('620px', {'description_width': '100px'})
    """
    width = description_px + SLIDER_TRACK_PX + 100
    return widgets.Layout(width=f"{width}px"), {"description_width": f"{description_px}px"}


class ExplorerFigure(widgets.Image):
    """An explorer's figure: an ``Image`` whose ``tooltip`` says in words what it shows, the alt text of
    its static picture and the ``title`` a screen reader reads in a live explorer.

    ipywidgets 8.1.2's front end reads an ``Image``'s ``description`` to place the tooltip, and an
    ``Image`` has none: the view would fail to render. This one has an empty one.
    """

    description = Unicode("", help="Unused: lets the front end show the tooltip").tag(sync=True)


def picture_layout() -> widgets.Layout:
    """Layout for an explorer's ``Image``: its natural size, top-aligned, narrower where the column is."""
    # In an HBox, flex would otherwise stretch a picture to its neighbour's height.
    return widgets.Layout(width="460px", max_width="100%", height="auto", align_self="flex-start", flex="0 1 auto")
