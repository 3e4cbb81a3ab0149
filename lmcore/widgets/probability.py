"""The probability explorer: entropy, cross-entropy, KL divergence and Huffman codes of a few outcomes.

What it teaches: drag the weights of a distribution p (what happens) and of a model
m (what the model believes) and watch entropy H(p), perplexity 2^H(p),
cross-entropy H(p, m) and the KL divergence KL(p‖m) = H(p, m) − H(p) move; the
course's worked examples (a fair coin, the horse race, the rain forecast, ...) are
presets. On request it shows the Huffman code of p and its average length.

The pattern, as in every explorer: pure compute (:func:`distribution_report`,
:func:`distribution_from_weights`) -> render (:func:`distribution_html`,
:func:`distribution_figure`) -> thin wiring (:class:`ProbabilityExplorer`).

>>> report = distribution_from_weights([1, 3], [1, 1], labels=["rain", "no rain"])
>>> f"{report.entropy:.4f} bits, {report.cross_entropy:.4f} bits"
'0.8113 bits, 1.0000 bits'
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from lmcore import info, plots
from lmcore.checks import check_distribution, check_tokens, check_weights
from lmcore.i18n import Message, localised, tr, translatable
from lmcore.widgets.base import (
    INFINITY,
    Explorer,
    ExplorerFigure,
    format_number,
    help_box,
    notes_html,
    picture_layout,
    readable,
    slider_layout,
    span,
    table_html,
)

__all__ = ["PRESETS", "Preset", "DistributionReport", "distribution_report", "distribution_from_weights",
           "distribution_html", "distribution_figure", "WEIGHT_STEP", "slider_weights",
           "ProbabilityExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A worked example of the course: outcomes, their probabilities ``p``, a model ``m``.

    The labels and the story are English, marked for translation: the explorer shows them in
    the course's language (:func:`~lmcore.widgets.base.localised`); a preset's name, the key
    of :data:`PRESETS`, is shown translated too but passed in English (``preset="horse race"``).
    """

    labels: tuple[str, ...]
    p: tuple[float, ...]
    m: tuple[float, ...]
    story: str


PRESETS: dict[str, Preset] = {
    translatable("fair coin"): Preset(
        (translatable("heads"), translatable("tails")), (0.5, 0.5), (0.8, 0.2),
        translatable("A fair coin: 1 bit per toss. The model wrongly believes heads comes up 80% of the time.")),
    translatable("8 teams"): Preset(
        tuple(Message(translatable("team {i}"), i=i) for i in range(1, 9)), (1 / 8,) * 8, (1 / 8,) * 8,
        translatable("Eight equally strong teams: 3 bits, so the 3-bit team number is already the best code.")),
    translatable("horse race"): Preset(
        tuple(Message(translatable("horse {i}"), i=i) for i in range(1, 9)),
        (1 / 2, 1 / 4, 1 / 8, 1 / 16) + (1 / 64,) * 4, (1 / 8,) * 8,
        translatable("The horse race: 2 bits, Huffman code 0, 10, 110, 1110, 111100, ... The model treats all "
                     "horses alike (the 3-bit code's belief) and pays 1 bit more per race: the KL divergence.")),
    translatable("rain forecast"): Preset(
        (translatable("rain"), translatable("no rain")), (1 / 4, 3 / 4), (1 / 2, 1 / 2),
        translatable("Rain one day in four: 0.8113 bits. A 50/50 model needs 1 bit per day.")),
    translatable("pizza toppings (Shannon game)"): Preset(
        (translatable("mushrooms"), translatable("pepperoni"), translatable("anchovies"), translatable("fried rice"),
         translatable("everything else")),
        (0.1, 0.1, 0.01, 0.0001, 0.7899), (0.2,) * 5,
        translatable("The next word after 'I always order pizza with cheese and ...'. The first four are single "
                     "toppings; 'everything else' is not one outcome but all other toppings lumped together (it takes "
                     "the remaining 0.7899), so the entropy shown is lower than that of the real, much longer "
                     "list. The model spreads its belief evenly over the five rows.")),
}


@dataclass(frozen=True)
class DistributionReport:
    """What the probability explorer shows; all information in bits.

    ``cross_entropy``, ``kl_divergence`` and ``model_perplexity`` are ``None``
    without a model ``m``, and ``inf`` when ``m`` gives probability 0 to an outcome
    that happens (listed in ``impossible_under_model``). ``code`` maps each label
    with ``p > 0`` to its Huffman code word.
    """

    labels: tuple[str, ...]
    p: np.ndarray
    m: np.ndarray | None
    entropy: float
    perplexity: float
    cross_entropy: float | None
    kl_divergence: float | None
    model_perplexity: float | None
    code: dict[str, str]
    expected_code_length: float
    impossible_under_model: tuple[str, ...]
    notes: tuple[str, ...]


def distribution_report(p: Sequence[float] | np.ndarray | Mapping[str, float],
                         m: Sequence[float] | np.ndarray | Mapping[str, float] | None = None,
                         labels: Sequence[str] | None = None) -> DistributionReport:
    """Entropy, perplexity, Huffman code of ``p``; cross-entropy and KL against a model ``m``.

    ``p`` and ``m`` are probabilities (summing to 1) as sequences, or dicts whose
    keys are the labels.

    >>> report = distribution_report([1/2, 1/4, 1/8, 1/16] + [1/64] * 4, m=[1/8] * 8)
    >>> report.entropy, report.cross_entropy, round(report.kl_divergence, 12), report.code["4"]
    (2.0, 3.0, 1.0, '111100')
    """
    if isinstance(p, Mapping):
        if labels is not None:
            raise TypeError("labels must not be given when p is a dict: its keys are the labels")
        labels = list(p)
        if isinstance(m, Mapping):
            m = [m.get(label, 0.0) for label in labels]
        p = list(p.values())
    p = check_distribution(p, "p")  # the same checks and messages as every lmcore.info function
    if labels is None:
        labels = tuple(str(i) for i in range(p.size))
    else:  # "ab": one letter per outcome, as cross_entropy_report reads it
        labels = tuple(labels if isinstance(labels, str) else check_tokens(labels, "labels"))
    if len(labels) != p.size:
        raise ValueError(f"labels has {len(labels)} entries but p has {p.size} probabilities")
    entropy = info.entropy(p)
    code_by_position = info.huffman_code(p)
    code = {labels[i]: word for i, word in code_by_position.items()}
    notes = []
    if entropy == 0:
        notes.append(translatable("H(p) = 0: one outcome is certain, so seeing it tells you nothing new."))
    cross_entropy = kl_divergence = model_perplexity = None
    impossible: tuple[str, ...] = ()
    if m is not None:
        m = check_distribution(m, "m")
        if m.size != p.size:
            raise ValueError(f"m has {m.size} probabilities but p has {p.size}")
        cross_entropy = info.cross_entropy(p, m)
        kl_divergence = info.kl_divergence(p, m)
        model_perplexity = 2.0**cross_entropy
        impossible = tuple(label for label, pi, mi in zip(labels, p, m) if pi > 0 and mi == 0)
        if impossible:
            outcomes = functools.reduce(
                lambda a, b: Message(translatable("{a}, {b}"), a=a, b=b),
                (label if isinstance(label, Message) else Message(label) for label in impossible))
            notes.append(Message(translatable(
                "H(p, m) = {infinity}: the model gives probability 0 to {outcomes}, which does "
                "happen. Coding it would need an infinitely long code word; a language model with this "
                "flaw has infinite perplexity."), infinity=INFINITY, outcomes=outcomes))
    return DistributionReport(
        labels=labels, p=p, m=m, entropy=entropy, perplexity=info.distribution_perplexity(p),
        cross_entropy=cross_entropy, kl_divergence=kl_divergence, model_perplexity=model_perplexity,
        code=code, expected_code_length=info.expected_code_length(p, code_by_position),
        impossible_under_model=impossible, notes=tuple(notes))


def _normalise(weights, name: str) -> np.ndarray:
    """Slider weights divided by their sum (they need not sum to 1), checked as probabilities are."""
    weights = check_weights(weights, name)
    total = weights.sum()
    if total == 0:
        # A Message: the explorer shows it in the course's language; it raises and prints in English.
        raise ValueError(Message(translatable("all weights of {name} are 0: give at least one outcome a "
                                              "positive weight"), name=name))
    return weights / total


def distribution_from_weights(p_weights: Sequence[float] | np.ndarray,
                              m_weights: Sequence[float] | np.ndarray | None = None,
                              labels: Sequence[str] | None = None) -> DistributionReport:
    """:func:`distribution_report` of weights divided by their sum (the sliders' state).

    A model whose weights are all 0 is left out, with a note, rather than failing.

    >>> distribution_from_weights([1, 3], labels=["rain", "no rain"]).p.tolist()
    [0.25, 0.75]
    """
    p = _normalise(p_weights, "p")
    m, note = None, None
    if m_weights is not None and check_weights(m_weights, "m").sum() == 0:  # any other fault is raised
        note = translatable("The model's weights are all 0, so it is no distribution: no cross-entropy to show.")
    elif m_weights is not None:
        m = _normalise(m_weights, "m")
    report = distribution_report(p, m, labels)
    if note:
        report = replace(report, notes=report.notes + (note,))
    return report


# --- render ---------------------------------------------------------------------------------

#: The figure's size in inches: wide and low, beside the explanation (560 x 190 px in the explorer).
FIGURE_SIZE = (5.6, 1.9)


#: What the table holds, its name for a screen reader.
_TABLE_NAME = translatable("each outcome's probabilities and surprisals")


def distribution_html(report: DistributionReport, show_code: bool = False) -> str:
    """The table and the numbers of a report, as HTML (each number in a ``lmcore-...`` span).

    >>> "0.8113" in distribution_html(distribution_report([0.25, 0.75]))
    True
    """
    has_model = report.m is not None
    columns = [tr("outcome"), "p(x)", "−log₂ p(x)"] + (["m(x)", "−log₂ m(x)"] if has_model else [])
    rows = []
    for i, label in enumerate(report.labels):
        cells = [html.escape(localised(label)), f"{report.p[i]:.4f}", format_number(info.surprisal(report.p[i]))]
        if has_model:
            cells += [f"{report.m[i]:.4f}", format_number(info.surprisal(report.m[i]))]
        if show_code:
            cells.append(f"<code>{report.code[label]}</code>" if label in report.code else "— (p = 0)")
        rows.append(cells)
    lines = [
        tr("Entropy H(p) = {entropy} bits", entropy=span("lmcore-entropy", format_number(report.entropy))),
        tr("Perplexity 2<sup>H(p)</sup> = {perplexity}: as uncertain as a fair choice among that many outcomes",
           perplexity=span("lmcore-perplexity", format_number(report.perplexity))),
    ]
    if has_model:
        lines += [
            tr("Cross-entropy H(p, m) = {cross_entropy} bits (the model's perplexity 2<sup>H(p, m)</sup> = "
               "{model_perplexity})", cross_entropy=span("lmcore-cross-entropy", format_number(report.cross_entropy)),
               model_perplexity=format_number(report.model_perplexity)),
            tr("KL divergence KL(p‖m) = H(p, m) − H(p) = {kl} bits: the price of believing m when the truth is p",
               kl=span("lmcore-kl", format_number(report.kl_divergence))),
        ]
    if show_code:
        lines.append(tr("Huffman code: average length {length} bits per outcome (never below H(p), always below "
                        "H(p) + 1)", length=span("lmcore-code-length", format_number(report.expected_code_length))))
    table = table_html(columns + ([tr("Huffman code word")] if show_code else []), rows, label=tr(_TABLE_NAME))
    numbers = f'<ul style="margin: 0; padding-left: 1.4em">{"".join(f"<li>{line}</li>" for line in lines)}</ul>'
    # The table and the numbers side by side, one above the other where the column is narrow.
    return (f'<div style="display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: flex-start">'
            f'<div style="min-width: 0; max-width: 100%">{table}</div>'
            f'<div style="flex: 1 1 20em; min-width: 0">{numbers}{notes_html(report.notes)}</div></div>')


def distribution_figure(report: DistributionReport) -> Figure:
    """Bars of p, and of the model m beside them if there is one, labelled in the course's
    language. The caller closes it."""
    return plots.bar_distribution(report.p, [localised(label) for label in report.labels], report.m,
                                  figsize=FIGURE_SIZE)


# --- wiring ---------------------------------------------------------------------------------

_PROBABILITY_HELP = translatable(
    "<b>How the sliders work.</b> Each slider holds a <i>weight</i>, not a probability: "
    "each outcome's probability is its weight divided by the sum of all weights, shown in "
    "the table. So the probabilities always add up to 1, and raising one weight lowers every "
    "other probability a little. First the distribution p of what happens, then the model m."
)


#: The weight sliders' step: fine enough for the pizza's 0.0001.
WEIGHT_STEP = 0.0001


def slider_weights(p: Sequence[float], step: float = WEIGHT_STEP) -> tuple[float, ...]:
    """Weights on the sliders' grid (multiples of ``step``, at most 1) that normalise to exactly ``p``.

    A slider shows and, while it follows the drag, sends back its value rounded to its step, so
    a preset off the grid would change by itself when displayed. Probabilities on the grid are
    their own weights; others (the horse race's 1/64) are scaled by the least factor >= 1 that
    puts them all on it.

    >>> slider_weights([0.25, 0.75])
    (0.25, 0.75)
    >>> w = slider_weights([1/2, 1/4, 1/8, 1/16] + [1/64] * 4); w[:5], math.isclose(w[4] / sum(w), 1/64)
    ((0.5024, 0.2512, 0.1256, 0.0628, 0.0157), True)
    """
    fractions = [Fraction(x).limit_denominator(10**6) for x in p]
    unit = Fraction(step).limit_denominator(10**6)
    denominator = math.lcm(*(f.denominator for f in fractions))
    numerators = [int(f * denominator) for f in fractions]
    common = math.gcd(*numerators) or 1
    # weight_i = unit * t * numerator_i / common: on the grid for any whole t; the least t with weights >= p.
    t = math.ceil(Fraction(common) / (unit * denominator))
    weights = [unit * t * n / common for n in numerators]
    if max(weights) > 1:
        return tuple(float(x) for x in p)  # no grid scaling fits under 1: keep p
    return tuple(float(w) for w in weights)


# p's and m's sliders side by side in a 1280 x 720 slide's 1,198 px, each with a track of at least
# 400 px (a step of 0.01 is 4 px): the description (90 px; "everything else" is cut to "everything
# e…", its tooltip and the table beside say it whole), the track, the readout and the track's margins
# (72 + 2 x 12 px in JupyterLab 4).
_DESCRIPTION_PX, _TRACK_PX, _READOUT_PX = 90, 402, 96
_SLIDER_WIDTH = f"{_DESCRIPTION_PX + _TRACK_PX + _READOUT_PX}px"  # 588 px
_COLUMN_WIDTH = "560px"  # the explanation and the figure, side by side


def _weight_slider(label: str, value: float, css_class: str) -> widgets.FloatSlider:
    # ``label`` is the outcome's English label: the slider shows it in the course's language.
    # An update (the numbers and moving bars) takes about 10 ms: follow the drag. The track is
    # wide enough that a step of 0.01 is over 4 px; the keyboard moves one step, 0.0001.
    layout, style = slider_layout(_DESCRIPTION_PX)
    layout.width, layout.margin = _SLIDER_WIDTH, "0 0 2px 0"  # 8 sliders in 240 px
    slider = widgets.FloatSlider(
        value=value, min=0.0, max=1.0, step=WEIGHT_STEP, readout_format=".4f", description=localised(label),
        continuous_update=True, style=style, layout=layout)
    slider.add_class(css_class)
    return slider


# What the figure shows, in words: its alt text (static picture) and its title (live explorer).
_FIGURE_ALT = translatable(
    "Bar chart: each outcome's probability under p (and, beside it, under the model m when there is "
    "one)."
)


class ProbabilityExplorer(Explorer):
    """Sliders for the probabilities of a few outcomes and of a model; entropy, perplexity,
    cross-entropy, KL divergence and (on request) the Huffman code, live.

    Controls: ``preset`` (Dropdown), ``show_code`` (Checkbox), ``p_sliders`` and
    ``m_sliders`` (lists of FloatSliders, rebuilt when the preset changes). The last
    result is ``result`` (a :class:`DistributionReport`, or ``None`` while the state
    is not a distribution, with the reason in ``error``).

    >>> explorer = ProbabilityExplorer(preset="horse race", show_code=True)
    >>> explorer.result.entropy, explorer.result.code["horse 5"]
    (2.0, '111100')
    """

    def __init__(self, preset: str = "horse race", show_code: bool = False):
        if preset not in PRESETS:
            raise ValueError(f"preset must be one of {list(PRESETS)}, got {preset!r}")
        self.result: DistributionReport | None = None
        self.error: str | None = None
        # The menu shows the presets' names in the course's language; its values stay the English names.
        self.preset = widgets.Dropdown(options=[(tr(name), name) for name in PRESETS], value=preset,
                                       description=tr("Example"))
        self.show_code = widgets.Checkbox(value=show_code, description=tr("Show the Huffman code"), indent=False)
        self.story = widgets.HTML()
        self.p_sliders: list[widgets.FloatSlider] = []
        self.m_sliders: list[widgets.FloatSlider] = []
        self._p_box = widgets.VBox()
        self._m_box = widgets.VBox()
        self.figure = ExplorerFigure(format="png", layout=picture_layout(), tooltip=tr(_FIGURE_ALT))
        # RISE gives a slide's images a margin of 20 px above and below: none here.
        self.figure.layout.width, self.figure.layout.margin = _COLUMN_WIDTH, "0"
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        # Three rows, each wrapping where the column is narrow: the menus and the explanation beside
        # the figure; p's sliders beside m's; the table beside the numbers. On a 1280 x 720 slide it
        # fits without scrolling (one above the other, they were 1,047 px tall).
        wrap = {"flex_flow": "row wrap", "grid_gap": "4px 24px", "align_items": "flex-start"}
        self.widget = widgets.VBox([
            widgets.HBox([
                widgets.VBox([widgets.HBox([self.preset, self.show_code]), help_box(tr(_PROBABILITY_HELP), None),
                              self.story], layout=widgets.Layout(width=_COLUMN_WIDTH)),
                self.figure,
            ], layout=widgets.Layout(**wrap)),
            widgets.HBox([
                widgets.VBox([widgets.HTML(f"<b>{tr('p: what happens')}</b>"), self._p_box]),
                widgets.VBox([widgets.HTML(f"<b>{tr('m: the model')}</b>"), self._m_box]),
            ], layout=widgets.Layout(**{**wrap, "grid_gap": "4px 12px"})),
            self.output,
        ])
        self.widget.add_class("lmcore-probability-explorer")
        self.preset.observe(self._on_preset, names="value")
        self.show_code.observe(self._update, names="value")
        self._load(PRESETS[preset])

    def _on_preset(self, change) -> None:
        self._load(PRESETS[change["new"]])

    def _load(self, preset: Preset) -> None:
        # New sliders for the new outcomes: wired only once their values are set,
        # so a preset change redraws once, not once per slider.
        for old in self.p_sliders + self.m_sliders:
            old.close()  # frees the old sliders' models in the kernel and the browser
        self.labels = preset.labels
        self.p_sliders = [_weight_slider(label, w, "lmcore-p-weight")
                          for label, w in zip(preset.labels, slider_weights(preset.p))]
        self.m_sliders = [_weight_slider(label, w, "lmcore-m-weight")
                          for label, w in zip(preset.labels, slider_weights(preset.m))]
        for slider in self.p_sliders + self.m_sliders:
            slider.observe(self._update, names="value")
        self._p_box.children = self.p_sliders
        self._m_box.children = self.m_sliders
        self.story.value = readable(f"<i>{html.escape(tr(preset.story))}</i>")
        # One figure per preset; a slider move only changes bar heights (see plots.QuickRedraw).
        figure = distribution_figure(distribution_report(preset.p, preset.m, preset.labels))
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        p_bars, q_bars = figure.axes[0].containers
        self._bars = (list(p_bars), list(q_bars))
        self._redraw = plots.QuickRedraw(figure, self._bars[0] + self._bars[1])
        self._update()

    def _update(self, change=None) -> None:
        try:
            report = distribution_from_weights([s.value for s in self.p_sliders],
                                               [s.value for s in self.m_sliders], self.labels)
        except ValueError as error:
            self.result, self.error = None, str(error)
            for bar in self._bars[0]:
                bar.set_height(0.0)
            self.figure.value = self._redraw.png()
            reason = localised(error.args[0]) if error.args and isinstance(error.args[0], str) else str(error)
            self.output.value = readable('<p class="lmcore-message">'
                                         f"{html.escape(tr('Not a distribution yet: {reason}.', reason=reason))}</p>")
            return
        m = report.m if report.m is not None else np.zeros_like(report.p)
        for bars, heights in zip(self._bars, (report.p, m)):
            for bar, height in zip(bars, heights):
                bar.set_height(height)
        self.figure.value = self._redraw.png()
        self.output.value = readable(distribution_html(report, self.show_code.value))
        self.result, self.error = report, None
