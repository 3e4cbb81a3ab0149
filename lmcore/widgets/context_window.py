"""The context-window explorer: sliding-window evaluation, stride against window, score against cost.

What it teaches: a model that reads at most a window of W tokens scores a long text in
passes (:mod:`lmcore.evaluate`, as the Hugging Face perplexity guide does for Transformers).
Disjoint chunks (stride = W) are cheap but leave the first tokens of every chunk with little
context, so the perplexity is worse than the model's own; a smaller stride gives every scored
token more context and costs more passes. The neural model of chapter 7 sees k tokens, so a
window longer than k + 1 with stride 1 gives exactly its full-context score.

Nothing is run when a slider moves: the model's log-probabilities for every cut-off of the
context were computed once (:meth:`lmcore.neural.NeuralLM.context_logprobs`), and each setting
is a lookup in that table (:func:`lmcore.evaluate.windowed_score`), well under 50 ms.

The pattern, as in every explorer: pure compute (:func:`window_report`) -> render
(:func:`window_html`, :func:`window_figure`) -> thin wiring (:class:`ContextWindowExplorer`).

>>> table = np.log(np.array([[0.5] * 6, [0.5] + [0.8] * 5]))      # k = 1, six tokens
>>> report = window_report(table, np.arange(6), n_characters=6, window=2, stride=2)
>>> report.score.plan.n_passes, f"{report.score.perplexity:.4f}", f"{report.full.perplexity:.4f}"
(3, '1.5811', '1.3519')
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib.pyplot as plt
import matplotlib.transforms as mtransforms
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from numpy.typing import ArrayLike

from lmcore import plots
from lmcore.checks import check_int
from lmcore.evaluate import WindowedScore, windowed_score
from lmcore.i18n import tr, translatable
from lmcore.widgets.base import (
    Explorer,
    ExplorerFigure,
    help_box,
    picture_layout,
    readable,
    slider_layout,
    span,
    table_html,
)

__all__ = ["WindowReport", "window_report", "window_html", "window_figure", "ContextWindowExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WindowReport:
    """One setting of the explorer: the windowed ``score``, the ``full`` score (one window over the
    whole text: every token with all the context the model uses), bits per character of both,
    and, for the curve, the perplexity and passes at every stride 1..W of this window."""

    window: int
    stride: int
    k: int
    n_characters: int
    score: WindowedScore
    full: WindowedScore
    bits_per_character: float
    full_bits_per_character: float
    strides: np.ndarray
    perplexities: np.ndarray
    passes: np.ndarray


def window_report(table: ArrayLike, positions: ArrayLike | None, n_characters: int, window: int,
                  stride: int) -> WindowReport:
    """Score a precomputed (k + 1) x N table with windows of ``window`` tokens and ``stride``
    (:func:`lmcore.evaluate.windowed_score`), per token and per character (``n_characters``
    from :func:`lmcore.evaluate.count_characters`), with the curve over all strides of this window.

    Introduced in notebooks/07_neural_models.ipynb, section "Fixed context windows".
    """
    n_characters = check_int(n_characters, "n_characters")
    score = windowed_score(table, window, stride, positions)
    n_tokens = score.plan.n_tokens
    full = windowed_score(table, n_tokens, n_tokens, positions)
    strides = np.arange(1, window + 1)
    curve = [windowed_score(table, window, int(s), positions) for s in strides]
    return WindowReport(
        window=int(window), stride=int(stride), k=len(table) - 1, n_characters=int(n_characters), score=score,
        full=full, bits_per_character=score.bits / n_characters, full_bits_per_character=full.bits / n_characters,
        strides=strides, perplexities=np.array([c.perplexity for c in curve]),
        passes=np.array([c.plan.n_passes for c in curve]))


# --- render ---------------------------------------------------------------------------------


def window_html(report: WindowReport) -> str:
    """The numbers of a :class:`WindowReport` as HTML (each in a ``lmcore-...`` span).

    >>> table = np.log(np.array([[0.5] * 6, [0.5] + [0.8] * 5]))
    >>> "lmcore-passes" in window_html(window_report(table, np.arange(6), 6, 2, 2))
    True
    """
    score, plan = report.score, report.score.plan
    rows = [
        [tr("forward passes"), span("lmcore-passes", f"{plan.n_passes:,}"), "1"],
        [tr("positions computed"), span("lmcore-computed", f"{plan.positions_computed:,}"),
         f"{report.full.plan.positions_computed:,}"],
        [tr("perplexity per token"), span("lmcore-window-perplexity", f"{score.perplexity:.4f}"),
         span("lmcore-full-perplexity", f"{report.full.perplexity:.4f}")],
        [tr("bits per character"), span("lmcore-window-bpc", f"{report.bits_per_character:.4f}"),
         f"{report.full_bits_per_character:.4f}"],
        [tr("tokens with all k tokens of context (or all of their sentence)"),
         span("lmcore-full-share", f"{100 * score.full_share:.1f}%"), "100.0%"],
    ]
    extra = 100 * (score.perplexity / report.full.perplexity - 1)
    note = tr("Window {window}, stride {stride}, over {n_tokens:,} tokens; the model sees k = {k} tokens. "
              "Perplexity {extra} against one window over everything; each token computed {times:.2f} times.",
              window=report.window, stride=report.stride, n_tokens=plan.n_tokens, k=report.k,
              extra=span("lmcore-extra", f"{extra:+.1f}%"), times=plan.positions_computed / plan.n_tokens)
    # Every column named, the first too: a screen reader reads a cell's heading with it (axe: "empty-table-header").
    return readable(f"<p>{note}</p>" + table_html([tr("measure"), tr("this window and stride"), tr("no window")], rows))


MAX_PLOT_WINDOW_FLOOR = 8
MAX_TICKS = 12  # at most this many perplexity ticks (MaxNLocator(5) gives up to 7)


def window_figure(report: WindowReport, max_window: int | None = None) -> Figure:
    """Perplexity per token (top) and forward passes (bottom, log scale) against the stride, for
    this window; the current stride marked, the no-window perplexity dashed. The caller closes it."""
    max_window = max(max_window or report.window, MAX_PLOT_WINDOW_FLOOR)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(5.4, 4.4), sharex=True, layout="constrained")
    top.plot(report.strides, report.perplexities, color=plots.DATA_COLOR, lw=1.5, label=tr("this window"))
    top.plot([report.stride], [report.score.perplexity], "o", color=plots.MODEL_COLOR, label=tr("this stride"))
    top.axhline(report.full.perplexity, color="black", ls="--", lw=1, label=tr("no window (full context)"))
    top.set_ylabel(tr("perplexity per token"))
    fig.legend(loc="outside upper center", ncol=3, fontsize="small", frameon=False)
    bottom.plot(report.strides, report.passes, color=plots.DATA_COLOR, lw=1.5)
    bottom.plot([report.stride], [report.score.plan.n_passes], "o", color=plots.MODEL_COLOR)
    bottom.set_yscale("log")
    bottom.set_ylabel(tr("forward passes (log scale)"))
    bottom.set_xlabel(tr("stride (tokens)"))
    bottom.set_xlim(0.5, max_window + 0.5)
    bottom.set_ylim(0.8, report.score.plan.n_tokens * 1.3)
    for ax in (top, bottom):
        ax.spines[["top", "right"]].set_visible(False)
    return fig


# --- wiring ---------------------------------------------------------------------------------

_HELP = translatable(
    "<b>Stride against window.</b> The model reads at most a <i>window</i> of tokens at a time; to score the "
    "whole text it slides the window along by the <i>stride</i>. Each pass computes every position of its "
    "window but scores only the tokens no earlier pass scored. A stride as long as the window cuts the text "
    "into chunks: cheap, but the first tokens of each chunk lose their context. A short stride costs more "
    "passes and gives every token its context back."
)



# What the figure shows, in words: its alt text (static picture) and its title (live explorer).
_FIGURE_ALT = translatable(
    "Two charts against the stride: perplexity per token (top, the no-window perplexity dashed) and "
    "forward passes (bottom, log scale), the current stride marked."
)


class ContextWindowExplorer(Explorer):
    """Sliding-window evaluation of a precomputed table (:meth:`lmcore.neural.NeuralLM.context_logprobs`).

    Controls: ``window`` and ``stride`` (IntSliders, answering while dragged; the stride's
    maximum follows the window). ``result`` is the last :class:`WindowReport`. The figure is
    drawn once for ``max_window``; a new stride redraws only its lines, a new window also the
    perplexity axis's ticks, which span that window's curve (:class:`lmcore.plots.QuickRedraw`).

    Introduced in notebooks/07_neural_models.ipynb, section "Fixed context windows".
    (``tests/unit/test_widgets_context_window.py`` moves its sliders as a student would.)
    """

    def __init__(self, table: ArrayLike, positions: ArrayLike | None, n_characters: int, window: int = 16,
                 stride: int | None = None, max_window: int = 40):
        stride = window if stride is None else stride
        start = window_report(table, positions, n_characters, window, stride)  # checks the arguments
        check_int(window, "window", maximum=max_window, maximum_label=f"max_window={max_window}")
        self._table, self._positions, self._n_characters = np.asarray(table, dtype=float), positions, n_characters
        self.result: WindowReport | None = None
        layout, style = slider_layout(90)
        self.window = widgets.IntSlider(value=window, min=1, max=max_window, step=1, description=tr("window W"),
                                        continuous_update=True, style=style, layout=layout)
        self.window.add_class("lmcore-window")
        layout, style = slider_layout(90)
        self.stride = widgets.IntSlider(value=stride, min=1, max=window, step=1, description=tr("stride s"),
                                        continuous_update=True, style=style, layout=layout)
        self.stride.add_class("lmcore-stride")
        self.figure = ExplorerFigure(format="png", layout=picture_layout(), tooltip=tr(_FIGURE_ALT))
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([help_box(tr(_HELP)), self.window, self.stride,
                                    widgets.HBox([self.figure, self.output])])
        self.widget.add_class("lmcore-context-window-explorer")
        figure = window_figure(start, max_window)
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        self._top, bottom = figure.axes
        curve, dot, full_line = self._top.lines[:3]
        # The perplexity axis spans the current window's curve. Its ticks are texts and grid lines of
        # our own, redrawn (settled) only when the window changes: a whole axis would take tens of ms.
        self._top.set_yticks([])
        self._top.set_ylabel(tr("perplexity per token"), labelpad=30)
        left = mtransforms.blended_transform_factory(self._top.transAxes, self._top.transData)
        self._tick_labels = [self._top.text(-0.02, 0, "", transform=left, ha="right", va="center",
                                            fontsize="small") for _ in range(MAX_TICKS)]
        self._grid = [self._top.axhline(0, color="#e4e4e4", lw=0.8, zorder=0) for _ in range(MAX_TICKS)]
        self._lines = [curve, dot, *bottom.lines[:2]]
        self._redraw = plots.QuickRedraw(figure, self._lines, settled=[full_line, *self._grid, *self._tick_labels])
        self._drawn_window: int | None = None
        self.window.observe(self._window_moved, names="value")
        self.stride.observe(self._update, names="value")
        self._update()

    def _window_moved(self, change) -> None:
        before = self.stride.value
        self.stride.max = change["new"]  # clamps a longer stride, whose observer then updates
        if self.stride.value == before:
            self._update()

    def _update(self, change=None) -> None:
        report = window_report(self._table, self._positions, self._n_characters, self.window.value,
                               min(self.stride.value, self.window.value))
        if report.window != self._drawn_window:
            self._span_perplexity_axis(report)
        curve, dot, passes, passes_dot = self._lines
        curve.set_data(report.strides, report.perplexities)
        dot.set_data([report.stride], [report.score.perplexity])
        passes.set_data(report.strides, report.passes)
        passes_dot.set_data([report.stride], [report.score.plan.n_passes])
        self.figure.value = self._redraw.png()
        self.output.value = window_html(report)
        self.result = report

    def _span_perplexity_axis(self, report: WindowReport) -> None:
        low, high = report.full.perplexity, max(report.perplexities.max(), report.full.perplexity * 1.01)
        margin = 0.08 * (high - low)
        bottom, top = low - margin, high + margin
        self._top.set_ylim(bottom, top)
        ticks = [t for t in MaxNLocator(5).tick_values(bottom, top) if bottom <= t <= top]
        for i, (label, line) in enumerate(zip(self._tick_labels, self._grid)):
            label.set_visible(i < len(ticks))
            line.set_visible(i < len(ticks))
            if i < len(ticks):
                label.set_y(ticks[i])
                label.set_text(f"{ticks[i]:g}")
                line.set_ydata([ticks[i], ticks[i]])
        self._redraw.settle()
        self._drawn_window = report.window
