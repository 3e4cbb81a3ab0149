"""The compression explorer: arithmetic coding narrows an interval, one symbol at a time.

What it teaches: a message is coded as a number in [0, 1). Each symbol keeps its share of
the current interval (its probability), so after the whole message the interval's width
is the message's probability, and a binary fraction of about −log2 P(message) bits picks
it out: a likely message gets a wide interval and a short code. Type a message of A and
B, set the model's P(A), and watch the intervals and the code.

The pattern, as in every explorer: pure compute (:func:`lmcore.coding.narrow_interval`,
:func:`compression_report`) -> render (:func:`narrowing_figure` for a notebook figure,
:func:`narrowing_svg` for the explorer, which draws it in a millisecond, and
:func:`compression_html`) -> thin wiring (:class:`CompressionExplorer`).

>>> report = compression_report("AAB", 0.8)
>>> f"{report.narrowing.surprisal:.4f} bits, code {report.narrowing.code}"
'2.9658 bits, code 1001'
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Polygon, Rectangle

from lmcore.checks import check_number
from lmcore.coding import Narrowing, narrow_interval
from lmcore.i18n import language, tr, translatable
from lmcore.widgets.base import Explorer, format_number, help_box, readable, slider_layout, span

__all__ = ["MAX_MESSAGE", "CompressionReport", "compression_report", "narrowing_figure", "narrowing_svg",
           "compression_html",
           "CompressionExplorer"]

MAX_MESSAGE = 12  # symbols: one row of the picture each
_COLOURS = {"A": "#4e79a7", "B": "#f28e2b"}


@dataclass(frozen=True)
class CompressionReport:
    """A message of A and B coded with P(A) = ``p_a`` at every step (:func:`narrow_interval`)."""

    message: str
    p_a: float
    narrowing: Narrowing

    @property
    def code_bits(self) -> int:
        """Length of the code word: at most ``ceil(surprisal) + 1``."""
        return len(self.narrowing.code)


def _message_problem(message: str) -> tuple[str, dict] | None:
    """What is wrong with a message (spaces dropped, upper case), as (English text with ``{fields}``,
    fields), or ``None``: the report raises it in English, the explorer shows it translated."""
    if not message:
        return translatable("message is empty: type a few letters A and B"), {}
    odd = sorted(set(message) - {"A", "B"})
    if odd:
        return (translatable("message may hold only the letters A and B, not {letters}"),
                {"letters": ", ".join(map(repr, odd))})
    if len(message) > MAX_MESSAGE:
        return (translatable("message has {n} letters; at most {most} fit the picture"),
                {"n": len(message), "most": MAX_MESSAGE})
    return None


def compression_report(message: str, p_a: float) -> CompressionReport:
    """The intervals and the code of ``message`` (letters A and B) under P(A) = ``p_a``, P(B) = 1 − ``p_a``.

    >>> compression_report("ab", 0.5).narrowing.code      # case is ignored
    '01'
    """
    if not isinstance(message, str):
        raise TypeError(f"message must be a str of A and B, got {type(message).__name__}")
    message = "".join(message.split()).upper()
    problem = _message_problem(message)
    if problem:
        text, fields = problem
        raise ValueError(text.format(**fields))
    p_a = check_number(p_a, "p_a", low=0, high=1, low_open=True, high_open=True)
    return CompressionReport(message, p_a, narrow_interval(message, {"A": p_a, "B": 1 - p_a}))


def narrowing_figure(report: CompressionReport, width: float = 6.4) -> Figure:
    """One row per step: the current interval stretched to full width, split into the shares of A and
    B, the chosen share joined to the next row; the last row marks the code word's interval.
    The caller closes it.
    """
    n = report.narrowing
    steps = len(n.message)
    height = 0.55 * (steps + 1) + 0.9
    fig, ax = plt.subplots(figsize=(width, height))
    fig.subplots_adjust(left=0.1, right=0.99, top=1 - 0.45 / height, bottom=0.05 / height)  # no layout engine: fast
    row_gap, bar = 1.0, 0.45
    for i, symbol in enumerate(n.message):
        y = -i * row_gap
        low, high = n.lows[i], n.highs[i]
        # the row is the interval [low, high) drawn from 0 to 1; A takes the first p_a of it
        for start, width, name in ((0.0, report.p_a, "A"), (report.p_a, 1 - report.p_a, "B")):
            chosen = name == symbol
            ax.add_patch(Rectangle((start, y), width, bar, facecolor=_COLOURS[name],
                                   alpha=0.95 if chosen else 0.25, edgecolor="white"))
            ax.text(start + width / 2, y + bar / 2, name, ha="center", va="center", fontsize="small",
                    color="white" if chosen else "#333")
        ax.text(-0.02, y + bar / 2, f"{low:.6g}", ha="right", va="center", fontsize="x-small")
        ax.text(1.02, y + bar / 2, f"{high:.6g}", ha="left", va="center", fontsize="x-small")
        start, end = (0.0, report.p_a) if symbol == "A" else (report.p_a, 1.0)
        below = y - row_gap + bar
        ax.add_patch(Polygon([(start, y), (end, y), (1.0, below), (0.0, below)], closed=True,
                             facecolor=_COLOURS[symbol], alpha=0.12, edgecolor="none"))
    y = -steps * row_gap
    low, high = n.lows[-1], n.highs[-1]
    ax.add_patch(Rectangle((0, y), 1, bar, facecolor="#bbbbbb", edgecolor="white"))
    ax.text(-0.02, y + bar / 2, f"{low:.6g}", ha="right", va="center", fontsize="x-small")
    ax.text(1.02, y + bar / 2, f"{high:.6g}", ha="left", va="center", fontsize="x-small")
    code_low = int(n.code, 2) / 2 ** len(n.code) if n.code else 0.0
    code_high = code_low + 2.0 ** -len(n.code)
    left, right = ((code_low - low) / (high - low), (code_high - low) / (high - low))
    ax.add_patch(Rectangle((left, y), right - left, bar, facecolor="#59a14f", edgecolor="white"))
    ax.text((left + right) / 2, y + bar / 2, f"0.{n.code}", ha="center", va="center", fontsize="small",
            color="white")
    ax.set_yticks([-i * row_gap + bar / 2 for i in range(steps + 1)],
                  [f"{k}. {s}" for k, s in enumerate(n.message, start=1)] + [tr("code")], fontsize="small")
    ax.set_xlim(-0.18, 1.18)
    ax.set_ylim(y - 0.2, bar + 0.2)
    ax.set_xticks([])
    ax.spines[["top", "right", "bottom", "left"]].set_visible(False)
    # matplotlib draws a title with $maths$ wholly in its maths font, which has no Chinese characters
    power = f"$2^{{-{n.surprisal:.2f}}}$" if language() == "en" else f"2^(−{n.surprisal:.2f})"
    ax.set_title(_title(report, power), fontsize="medium")
    return fig


def _title(report: CompressionReport, power: str, message: str | None = None) -> str:
    """The picture's title, in the course's language: ``power`` is 2^-surprisal as the picture writes it."""
    n = report.narrowing
    return tr("'{message}': final width {width} = {power}, code {bits} bits",
              message=report.message if message is None else message, width=f"{n.highs[-1] - n.lows[-1]:.4g}",
              power=power, bits=len(n.code))


def narrowing_svg(report: CompressionReport, width: int = 560) -> str:
    """The picture of :func:`narrowing_figure` as an inline SVG (class ``lmcore-narrowing``).

    >>> svg = narrowing_svg(compression_report("AB", 0.8))
    >>> svg.startswith('<svg class="lmcore-narrowing"'), svg.count("<rect")
    (True, 6)
    """
    n = report.narrowing
    left, right, top, bar, gap = 104, 64, 34, 22, 46
    span_px = width - left - right
    height = top + gap * len(n.message) + bar + 10

    def x(fraction: float) -> float:
        return left + span_px * fraction

    def label(px: float, py: float, text: str, anchor: str = "middle", size: int = 11, colour: str = "#333") -> str:
        return (f'<text x="{px:.1f}" y="{py:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{colour}" '
                f'dominant-baseline="middle">{html.escape(text)}</text>')

    parts = []
    for i, symbol in enumerate(n.message):
        y = top + gap * i
        for start, share, name in ((0.0, report.p_a, "A"), (report.p_a, 1 - report.p_a, "B")):
            chosen = name == symbol
            parts.append(f'<rect x="{x(start):.1f}" y="{y}" width="{span_px * share:.1f}" height="{bar}" '
                         f'fill="{_COLOURS[name]}" fill-opacity="{0.95 if chosen else 0.25}" stroke="white"/>')
            parts.append(label(x(start + share / 2), y + bar / 2, name, colour="white" if chosen else "#333"))
        parts.append(label(left - 52, y + bar / 2, f"{i + 1}. {symbol}", anchor="end", size=12))
        parts.append(label(left - 4, y + bar / 2, f"{n.lows[i]:.6g}", anchor="end", size=9))
        parts.append(label(x(1) + 4, y + bar / 2, f"{n.highs[i]:.6g}", anchor="start", size=9))
        start, end = (0.0, report.p_a) if symbol == "A" else (report.p_a, 1.0)
        below = y + gap
        parts.append(f'<polygon points="{x(start):.1f},{y + bar} {x(end):.1f},{y + bar} {x(1):.1f},{below} '
                     f'{x(0):.1f},{below}" fill="{_COLOURS[symbol]}" fill-opacity="0.12"/>')
    y = top + gap * len(n.message)
    low, high = n.lows[-1], n.highs[-1]
    code_low = int(n.code, 2) / 2 ** len(n.code) if n.code else 0.0
    code_left = (code_low - low) / (high - low)
    code_width = 2.0 ** -len(n.code) / (high - low)
    parts.append(f'<rect x="{x(0):.1f}" y="{y}" width="{span_px}" height="{bar}" fill="#bbbbbb"/>')
    parts.append(f'<rect x="{x(code_left):.1f}" y="{y}" width="{span_px * code_width:.1f}" height="{bar}" '
                 'fill="#59a14f" stroke="white"/>')
    parts.append(label(x(code_left + code_width / 2), y + bar / 2, f"0.{n.code}", colour="white"))
    parts.append(label(left - 52, y + bar / 2, tr("code"), anchor="end", size=12))
    parts.append(label(left - 4, y + bar / 2, f"{low:.6g}", anchor="end", size=9))
    parts.append(label(x(1) + 4, y + bar / 2, f"{high:.6g}", anchor="start", size=9))
    title = _title(report, f"2^-{n.surprisal:.2f}")
    # The text after the power sits in a tspan that takes the baseline back down (closed after the title).
    power = f'2<tspan dy="-5" font-size="10">−{n.surprisal:.2f}</tspan><tspan dy="5">'
    parts.append(f'<text x="{width / 2:.1f}" y="16" text-anchor="middle" font-size="13" fill="#333">'
                 f"{_title(report, power, html.escape(report.message))}</tspan></text>")
    return (f'<svg class="lmcore-narrowing" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'style="max-width: 100%; height: auto" viewBox="0 0 {width} {height}" font-family="sans-serif" '
            f'role="img" aria-label="{html.escape(title)}">'
            f'{"".join(parts)}</svg>')


def compression_html(report: CompressionReport) -> str:
    """The numbers of a report, each in a ``lmcore-...`` span."""
    n = report.narrowing
    probabilities = " × ".join(f"{p:g}" for p in n.probabilities)
    bound = math.ceil(n.surprisal) + 1
    lines = [
        tr("P(message) = {factors} = {probability}", factors=probabilities,
           probability=span("lmcore-message-probability", f"{2 ** -n.surprisal:.6g}")),
        tr("−log₂ P(message) = {bits} bits", bits=span("lmcore-surprisal", format_number(n.surprisal))),
        tr("code word 0.{code}: {bits} bits (never more than ⌈{surprisal}⌉ + 1 = {bound})",
           code=span("lmcore-code", html.escape(n.code)), bits=span("lmcore-code-bits", str(len(n.code))),
           surprisal=f"{n.surprisal:.4f}", bound=bound),
    ]
    return readable(f"<ul>{''.join(f'<li>{line}</li>' for line in lines)}</ul>")


_HELP = translatable(
    "<b>Arithmetic coding.</b> Type a message of A and B (at most 12 letters) and press <i>code it</i>; "
    "the slider sets the model's P(A). Each row is the interval left after the letters above it, stretched "
    "to the full width: A takes the first P(A) of it, B the rest. The green box is the code word: every "
    "number whose binary digits start with it lies inside the final interval."
)


class CompressionExplorer(Explorer):
    """Type a message of A and B, set P(A), and see the interval narrow and the code word.

    Controls: ``message`` (Text) with ``code`` (Button), ``p_a`` (FloatSlider). ``result`` is the
    last :class:`CompressionReport` (``None`` with ``error`` set while the message is not one).

    Introduced in notebooks/03_cross_entropy.ipynb, section "Going further: inside the coder".

    >>> explorer = CompressionExplorer("AAB", p_a=0.8)
    >>> explorer.message.value = "BBB"; explorer.code.click(); explorer.result.narrowing.code
    '1111111'
    """

    def __init__(self, message: str = "AAB", p_a: float = 0.8):
        start = compression_report(message, p_a)  # checks the arguments
        self.result: CompressionReport | None = None
        self.error: str | None = None
        self.message = widgets.Text(value=start.message, description=tr("message"), continuous_update=False,
                                    layout=widgets.Layout(width="300px"))
        self.message.add_class("lmcore-message-text")
        self.code = widgets.Button(description=tr("code it"))
        self.code.add_class("lmcore-code-button")
        layout, style = slider_layout(80)
        self.p_a = widgets.FloatSlider(value=start.p_a, min=0.05, max=0.95, step=0.01, readout_format=".2f",
                                       description="P(A)", continuous_update=True, style=style, layout=layout)
        self.p_a.add_class("lmcore-p-a")
        self.figure = widgets.HTML()
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([help_box(tr(_HELP)), widgets.HBox([self.message, self.code]), self.p_a,
                                    widgets.HBox([self.figure, self.output])])
        self.widget.add_class("lmcore-compression-explorer")
        self.code.on_click(self._update)
        self.p_a.observe(self._update, names="value")
        self._update()

    def _update(self, change=None) -> None:
        try:
            report = compression_report(self.message.value, self.p_a.value)
        except ValueError as error:
            self.result, self.error = None, str(error)
            problem = _message_problem("".join(self.message.value.split()).upper())
            why = html.escape(tr(problem[0], **problem[1]) if problem else str(error), quote=False)
            self.output.value = f'<p class="lmcore-message">{tr("{why}.", why=why)}</p>'
            return
        self.figure.value = narrowing_svg(report)
        self.output.value = compression_html(report)
        self.result, self.error = report, None
