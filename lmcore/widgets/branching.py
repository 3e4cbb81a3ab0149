"""The branching-factor explorer: perplexity as the effective number of choices.

What it teaches: a uniform choice among k outcomes has entropy log₂ k and
perplexity exactly k, the branching factor; favouring one outcome (the skew)
lowers the perplexity towards 1, so perplexity is a *weighted average* branching
factor, the number of equally likely choices that would be as uncertain.

The pattern, as in every explorer: pure compute (:func:`branching_report`) ->
render (:func:`branching_html`, :func:`branching_figure`) -> thin wiring
(:class:`BranchingExplorer`).

>>> f"{branching_report(4).perplexity:.4f}"
'4.0000'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib.pyplot as plt
import matplotlib.transforms as mtransforms
import numpy as np
from matplotlib.figure import Figure

from lmcore import info, plots
from lmcore.checks import check_int, check_number
from lmcore.i18n import tr, translatable
from lmcore.widgets.base import (
    Explorer,
    ExplorerFigure,
    format_number,
    help_box,
    picture_layout,
    readable,
    slider_layout,
    span,
)

__all__ = ["BranchingReport", "branching_report", "branching_html", "branching_figure", "outcome_ticks",
           "BranchingExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchingReport:
    """A choice among ``k`` outcomes, the first with probability ``p[0]``, the others alike.

    ``entropy`` is in bits, ``perplexity = 2 ** entropy`` (the weighted average
    branching factor) and ``max_entropy = log2 k``, the entropy of the uniform choice.
    """

    k: int
    skew: float
    p: np.ndarray
    entropy: float
    perplexity: float
    max_entropy: float


def branching_report(k: int, skew: float = 0.0) -> BranchingReport:
    """Entropy and perplexity of ``k`` outcomes, ``skew`` of the way from uniform to certain.

        p_1 = 1/k + skew (1 - 1/k),    p_i = (1 - p_1) / (k - 1)  for i = 2..k

    ``skew = 0`` is the uniform choice, whose perplexity is ``k`` (the branching factor);
    ``skew = 1`` makes the first outcome certain: perplexity 1. In between, the
    perplexity ``2 ** H`` is an effective number of choices between 1 and ``k``.

    Introduced in notebooks/04_perplexity.ipynb, section "Perplexity as a branching factor".

    >>> report = branching_report(10)
    >>> f"{report.entropy:.4f} bits, perplexity {report.perplexity:.4f}"
    '3.3219 bits, perplexity 10.0000'
    >>> f"{branching_report(10, skew=0.9).perplexity:.4f}"
    '1.6492'
    """
    k, skew = check_int(k, "k"), check_number(skew, "skew", low=0, high=1)  # skew 0: uniform, 1: certain
    first = 1.0 / k + skew * (1.0 - 1.0 / k)
    p = np.full(k, (1.0 - first) / (k - 1) if k > 1 else 0.0)
    p[0] = first if k > 1 else 1.0
    entropy = info.entropy(p)
    return BranchingReport(k, skew, p, entropy, 2.0**entropy, math.log2(k))


# --- render ---------------------------------------------------------------------------------


def branching_html(report: BranchingReport) -> str:
    """The numbers of a :class:`BranchingReport` as HTML (each in a ``lmcore-...`` span).

    >>> "10.0000" in branching_html(branching_report(10))
    True
    """
    others = (tr(", each of the other {n}: {p:.4f}", n=report.k - 1, p=report.p[1]) if report.k > 1 else "")
    lines = [
        tr("{k} outcomes; outcome 1 has probability {p}{others}", k=report.k,
           p=span("lmcore-top-probability", f"{report.p[0]:.4f}"), others=others),
        tr("Entropy H = {entropy} bits (a uniform choice among {k}: log₂ {k} = {max_entropy:.4f} bits)",
           entropy=span("lmcore-entropy", format_number(report.entropy)), k=report.k,
           max_entropy=report.max_entropy),
        tr("Perplexity 2<sup>H</sup> = {perplexity}: as uncertain as a fair choice among that many outcomes",
           perplexity=span("lmcore-perplexity", format_number(report.perplexity))),
    ]
    return f"<ul>{''.join(f'<li>{line}</li>' for line in lines)}</ul>"


def outcome_ticks(k: int) -> list[int]:
    """The outcomes (numbered from 1) that get a tick label on the x axis: all of them up to 15,
    else 1 and every fifth, so that the labels never collide.

    >>> outcome_ticks(4), outcome_ticks(22)
    ([1, 2, 3, 4], [1, 5, 10, 15, 20])
    """
    return list(range(1, k + 1)) if k <= 15 else [1, *range(5, k + 1, 5)]


def _show_outcomes(ax, k: int) -> None:
    """Fit the x axis to ``k`` bars (at x = 0 .. k-1) and label the outcomes of :func:`outcome_ticks`."""
    ticks = outcome_ticks(k)
    ax.set_xlim(-0.7, k - 0.3)
    ax.set_xticks([t - 1 for t in ticks], [str(t) for t in ticks], rotation=0, ha="center")


def branching_figure(report: BranchingReport) -> Figure:
    """Bars of the report's distribution, outcome 1 first, labelled in the course's language. The caller closes it.

    >>> fig = branching_figure(branching_report(30, 0.5)); [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]
    ['1', '5', '10']
    >>> plt.close(fig)
    """
    figure = plots.bar_distribution(report.p, [str(i) for i in range(1, report.k + 1)], figsize=(4.6, 3.0),
                                    p_name="p", title=tr("probability of each outcome"))
    ax = figure.axes[0]
    _show_outcomes(ax, report.k)
    ax.set_xlabel(tr("outcome"))
    return figure


# --- wiring ---------------------------------------------------------------------------------

_BRANCHING_HELP = translatable(
    "<b>Perplexity as a branching factor.</b> Choose how many outcomes there are (k) and how "
    "strongly the first one is favoured (skew). With skew 0 all k are equally likely and the "
    "perplexity is exactly k; favouring one outcome lowers it towards 1: fewer <i>effective</i> choices."
)



# What the figure shows, in words: its alt text (static picture) and its title (live explorer).
_FIGURE_ALT = translatable(
    "Bar chart: the probability of each of the k outcomes, outcome 1 first."
)


class BranchingExplorer(Explorer):
    """Perplexity as a (weighted average) branching factor: ``k`` outcomes, optionally skewed.

    Controls: ``k`` (IntSlider) and ``skew`` (FloatSlider), both answering while dragged.
    ``result`` is the last :class:`BranchingReport`. The figure is drawn once, with
    ``max_k`` bars and its outcome labels as plain texts; a change of ``k`` shows the first
    ``k`` bars and relabels them, a change of the skew moves only the bars; only those
    artists are redrawn (:class:`lmcore.plots.QuickRedraw`), so that either takes a few
    milliseconds, where redrawing the axis took tens.

    Introduced in notebooks/04_perplexity.ipynb, section "Perplexity as a branching factor".

    >>> explorer = BranchingExplorer(k=10)
    >>> explorer.skew.value = 1.0
    >>> f"{explorer.result.perplexity:.4f}"
    '1.0000'
    """

    def __init__(self, k: int = 10, skew: float = 0.0, max_k: int = 30):
        start = branching_report(k, skew)  # checks the arguments
        check_int(start.k, "k", minimum=2, maximum=max_k, maximum_label=f"max_k={max_k}")
        self.result: BranchingReport | None = None
        layout, style = slider_layout(90)
        self.k = widgets.IntSlider(value=start.k, min=2, max=max_k, step=1, description=tr("k outcomes"),
                                   continuous_update=True, style=style, layout=layout)
        self.k.add_class("lmcore-k")
        layout, style = slider_layout(90)
        self.skew = widgets.FloatSlider(value=start.skew, min=0.0, max=1.0, step=0.01, readout_format=".2f",
                                        description=tr("skew"), continuous_update=True, style=style, layout=layout)
        self.skew.add_class("lmcore-skew")
        self.figure = ExplorerFigure(format="png", layout=picture_layout(), tooltip=tr(_FIGURE_ALT))
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            help_box(tr(_BRANCHING_HELP)),
            self.k, self.skew,
            widgets.HBox([self.figure, self.output]),
        ])
        self.widget.add_class("lmcore-branching-explorer")
        # One figure with max_k bars, drawn once; k only decides how many of them show.
        figure = branching_figure(branching_report(max_k))
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        self._axes = figure.axes[0]
        self._axes.set_xticks([])  # the outcome labels are texts below the bars: cheaper to redraw than an axis
        self._axes.set_xlabel(tr("outcome"), labelpad=16)  # room for those texts
        below = mtransforms.blended_transform_factory(self._axes.transData, self._axes.transAxes)
        self._labels = [self._axes.text(0, -0.03, "", transform=below, ha="center", va="top", fontsize="small")
                        for _ in range(max_k)]
        self._all_bars = list(self._axes.containers[0])
        self._redraw = plots.QuickRedraw(figure, self._all_bars, settled=self._labels)
        self._bars: list = []
        self.k.observe(self._update, names="value")
        self.skew.observe(self._update, names="value")
        self._update()

    def _update(self, change=None) -> None:
        report = branching_report(self.k.value, self.skew.value)
        if len(self._bars) != report.k:
            self._axes.set_xlim(-0.7, report.k - 0.3)
            ticks = outcome_ticks(report.k)
            for i, label in enumerate(self._labels):
                label.set_visible(i < len(ticks))
                if i < len(ticks):
                    label.set_x(ticks[i] - 1)
                    label.set_text(str(ticks[i]))
            self._redraw.settle()
            for i, bar in enumerate(self._all_bars):
                bar.set_visible(i < report.k)
            self._bars = self._all_bars[:report.k]
        for bar, height in zip(self._bars, report.p):
            bar.set_height(height)
        self.figure.value = self._redraw.png()
        self.output.value = readable(branching_html(report))
        self.result = report
