"""The cross-entropy explorer: a model m measured against the distribution p of the data.

What it teaches: drag the weights of p (what happens) and of a model m (what the model
expects) and watch three bars: the entropy H(p), the cross-entropy H(p, m) and the KL
divergence KL(p‖m) = H(p, m) − H(p). H(p, m) is drawn as H(p) plus KL, so Gibbs'
inequality H(p) ≤ H(p, m) is visible: the KL part is never negative and vanishes only
when m = p. A button swaps p and m, to show that H(m, p) is another number. The presets
are the course's examples, among them the toy corpus, whose add-one unigram model gives
its test sentence 3.0028 bits per word.

The pattern, as in every explorer: pure compute (:func:`cross_entropy_report`) -> render
(:func:`cross_entropy_html`, HTML bars, fast enough to follow a dragged slider) -> thin
wiring (:class:`CrossEntropyExplorer`).

>>> report = cross_entropy_report([1, 1], [0.8, 0.2])
>>> f"H(p) = {report.entropy:.4f}, H(p, m) = {report.cross_entropy:.4f}, KL = {report.kl:.4f}"
'H(p) = 1.0000, H(p, m) = 1.3219, KL = 0.3219'
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from lmcore import info
from lmcore.checks import check_weights
from lmcore.i18n import tr, translatable
from lmcore.widgets.base import (
    Explorer,
    format_number,
    help_box,
    notes_html,
    readable,
    scroll_box,
    slider_layout,
    span,
)

__all__ = ["CROSS_ENTROPY_PRESETS", "CrossEntropyPreset", "CrossEntropyReport", "cross_entropy_report",
           "cross_entropy_html", "distributions_html", "CrossEntropyExplorer"]


@dataclass(frozen=True)
class CrossEntropyPreset:
    """A worked example: outcomes, weights of the data's distribution ``p`` and of a model ``m``
    (each divided by its sum; chosen so that the sliders' steps of 0.01 hold them exactly), and its story
    (in English, marked for translation: the explorer shows it translated)."""

    labels: tuple[str, ...]
    p: tuple[float, ...]
    m: tuple[float, ...]
    story: str


_TOY_WORDS = ("i", "spent", "three", "years", "before", "the", "mast", "money")
_HORSE_RACE = (0.32, 0.16, 0.08, 0.04, 0.01, 0.01, 0.01, 0.01)  # 1/2, 1/4, 1/8, 1/16, 1/64 x 4, times 0.64

CROSS_ENTROPY_PRESETS: dict[str, CrossEntropyPreset] = {
    translatable("toy corpus, add-one unigram"): CrossEntropyPreset(
        _TOY_WORDS, (0.5,) * 7 + (0.0,), (0.3, 0.3) + (0.2,) * 6,  # m: (c(w) + 1) / 10, summing to 1.8
        translatable("p: how often each word occurs in the test sentence 'i spent three years before the mast' "
                     "(7 words, once each). m: the add-one unigram model of the three training sentences, "
                     "(c(w) + 1) / (10 + 8). H(p, m) is the model's cross-entropy on the test sentence: 3.0028 bits "
                     "per word, perplexity 2^3.0028 = 8.0155.")),
    translatable("the text 'A B', model P(A) = 0.8"): CrossEntropyPreset(
        ("A", "B"), (0.5, 0.5), (0.8, 0.2),
        translatable("The test text 'A B' has A and B half of the time each (p); the model says A 80% of the time "
                     "(m). H(p, m) = 1.3219 bits per word, the course's exercise (perplexity 2.5).")),
    translatable("rain forecast"): CrossEntropyPreset(
        (translatable("rain"), translatable("no rain")), (0.25, 0.75), (0.5, 0.5),
        translatable("Rain one day in four (p) against a forecaster who always says 50/50 (m): 1 bit per day "
                     "where 0.8113 would do.")),
    translatable("horse race, uniform model"): CrossEntropyPreset(
        tuple(f"horse {i}" for i in range(1, 9)), _HORSE_RACE, (0.5,) * 8,
        translatable("The horse race has entropy 2 bits; a model that believes all eight horses equally likely "
                     "pays 3 bits per race: 1 bit of KL divergence.")),
    translatable("8 teams, horse-race model"): CrossEntropyPreset(
        tuple(f"team {i}" for i in range(1, 9)), (0.5,) * 8, _HORSE_RACE,
        translatable("The previous example the other way round: eight equally strong teams (3 bits) read by the "
                     "horse-race odds. The KL divergence is now 1.25 bits, not 1: KL is not symmetric.")),
}
# Numbered outcomes ("horse 3") as shown: their kind's text with the number filled in.
_NUMBERED = {"horse": translatable("horse {number}"), "team": translatable("team {number}")}


def _shown_label(label: str) -> str:
    """An outcome's label as the explorer shows it, in the course's language.

    >>> _shown_label("horse 3"), _shown_label("rain"), _shown_label("spent")
    ('horse 3', 'rain', 'spent')
    """
    kind, _, number = label.rpartition(" ")
    if kind in _NUMBERED and number.isdigit():
        return tr(_NUMBERED[kind], number=number)
    return tr(label)


@dataclass(frozen=True)
class CrossEntropyReport:
    """What the explorer shows, in bits.

    ``entropy`` = H(p), ``cross_entropy`` = H(p, m) = −Σ p log2 m, ``kl`` = KL(p‖m) =
    H(p, m) − H(p); ``inf`` where m gives probability 0 to an outcome p says happens
    (listed in ``impossible``). ``perplexity`` = 2^H(p, m), the model's perplexity on such data.
    """

    labels: tuple[str, ...]
    p: np.ndarray
    m: np.ndarray
    entropy: float
    cross_entropy: float
    kl: float
    perplexity: float
    impossible: tuple[str, ...]
    notes: tuple[str, ...]


# Why weights are no distribution, for the weights of p and of m, as the explorer shows it.
_ALL_ZERO = {"p": translatable("all weights of p are 0: give at least one outcome a positive weight"),
             "m": translatable("all weights of m are 0: give at least one outcome a positive weight")}


def _normalised(weights, name: str) -> np.ndarray:
    weights = check_weights(weights, name)
    total = float(weights.sum())
    if total == 0:
        raise ValueError(_ALL_ZERO[name])
    return weights / total


def _notes(impossible: Sequence[str], kl: float) -> list[tuple[str, dict]]:
    """The notes on a report, each as (English text with ``{fields}``, fields): the report keeps them
    in English, the HTML shows them translated."""
    if impossible:
        return [(translatable("The model gives probability 0 to {outcomes}, which does happen: H(p, m) and KL are "
                              "infinite, as is the perplexity of a language model that meets a word it ruled out."),
                 {"outcomes": impossible})]
    if kl < 1e-12:
        return [(translatable("m = p: the model is the truth, KL = 0 and H(p, m) = H(p), the lowest it can be."), {})]
    return []


def cross_entropy_report(p_weights: Sequence[float] | np.ndarray, m_weights: Sequence[float] | np.ndarray,
                         labels: Sequence[str] | None = None) -> CrossEntropyReport:
    """H(p), H(p, m) and KL(p‖m) of two weight vectors, each divided by its sum.

        H(p, m) = −Σ_x p(x) log2 m(x),   KL(p‖m) = Σ_x p(x) log2 (p(x) / m(x)) = H(p, m) − H(p)

    Uses :func:`lmcore.info.cross_entropy` and :func:`lmcore.info.kl_divergence`.

    Introduced in notebooks/03_cross_entropy.ipynb, section "The course's numbers".

    >>> toy = CROSS_ENTROPY_PRESETS["toy corpus, add-one unigram"]
    >>> f"{cross_entropy_report(toy.p, toy.m).cross_entropy:.4f}"
    '3.0028'
    >>> cross_entropy_report([1, 1], [1, 0], ["A", "B"]).impossible
    ('B',)
    """
    p, m = _normalised(p_weights, "p"), _normalised(m_weights, "m")
    if p.size != m.size:
        raise ValueError(f"p has {p.size} outcomes but m has {m.size}")
    if labels is not None and not isinstance(labels, Sequence):  # "ABC": one letter per outcome
        raise TypeError(f"labels must be a list of outcome names, got {type(labels).__name__}")
    labels = tuple(str(i + 1) for i in range(p.size)) if labels is None else tuple(str(x) for x in labels)
    if len(labels) != p.size:
        raise ValueError(f"labels has {len(labels)} entries but p has {p.size} outcomes")
    entropy, cross = info.entropy(p), info.cross_entropy(p, m)
    kl = info.kl_divergence(p, m)
    impossible = tuple(label for label, pi, mi in zip(labels, p, m) if pi > 0 and mi == 0)
    notes = [text.format(outcomes=", ".join(fields["outcomes"])) if fields else text
             for text, fields in _notes(impossible, kl)]
    perplexity = 2.0**cross if cross < 1024 else math.inf
    return CrossEntropyReport(labels, p, m, entropy, cross, kl, perplexity, impossible, tuple(notes))


# --- render ---------------------------------------------------------------------------------

_P_COLOUR, _M_COLOUR, _KL_COLOUR = "#4e79a7", "#f28e2b", "#e15759"
_M_TEXT_COLOUR = "#a85400"  # the model's orange, dark enough for text on white (5.3:1, WCAG AA)


def _bar(width_percent: float, colour: str) -> str:
    width_percent = min(max(width_percent, 0.0), 100.0)
    return (f'<div style="display: inline-block; height: 14px; width: {width_percent:.2f}%; '
            f'background: {colour}; vertical-align: middle"></div>')


def _bits_row(label: str, parts: list[tuple[float, str]], value_html: str, scale: float) -> str:
    inner = "".join(_bar(100 * bits / scale, colour) for bits, colour in parts if bits > 0)
    return (f'<tr><td style="padding: 2px 8px; white-space: nowrap">{label}</td>'
            f'<td style="padding: 2px 0; width: 320px"><div style="width: 320px; white-space: nowrap; '
            f'overflow: hidden; background: #f3f3f3">{inner}</div></td>'
            f'<td style="padding: 2px 8px; white-space: nowrap">{value_html}</td></tr>')


def cross_entropy_html(report: CrossEntropyReport, scale: float | None = None, distributions: bool = True) -> str:
    """The three bars (bits, on one scale of ``scale`` bits, by default log2 of twice the outcomes),
    the numbers in ``lmcore-...`` spans, and (unless ``distributions`` is false: the explorer shows
    them beside its sliders, :func:`distributions_html`) the two distributions as a table of bars.

    >>> page = cross_entropy_html(cross_entropy_report([1, 3], [1, 1]))
    >>> '<span class="lmcore-cross-entropy">1.0000</span>' in page
    True
    """
    scale = math.log2(2 * report.p.size) if scale is None else float(scale)
    finite_kl = report.kl if math.isfinite(report.kl) else scale
    off_scale = "" if report.cross_entropy <= scale else tr(" (beyond the scale)")
    rows = [
        _bits_row("H(p)", [(report.entropy, _P_COLOUR)],
                  tr("{bits} bits", bits=span("lmcore-entropy", format_number(report.entropy))), scale),
        _bits_row("H(p, m)", [(report.entropy, _P_COLOUR), (finite_kl, _KL_COLOUR)],
                  tr("{bits} bits", bits=span("lmcore-cross-entropy", format_number(report.cross_entropy)))
                  + off_scale, scale),
        _bits_row("KL(p‖m)", [(finite_kl, _KL_COLOUR)],
                  tr("{bits} bits", bits=span("lmcore-kl", format_number(report.kl))), scale),
    ]
    ticks = "".join(f'<span style="position: absolute; left: {100 * t / scale:.2f}%">{t:g}</span>'
                    for t in range(0, int(scale) + 1))
    axis = (f'<tr><td style="padding: 0 8px; font-size: 85%">{tr("bits")}</td><td><div style="position: relative; '
            f'height: 1.2em; width: 320px; font-size: 85%">{ticks}</div></td><td></td></tr>')
    bits = f'<table class="lmcore-bits" style="border-collapse: collapse">{"".join(rows)}{axis}</table>'
    summary = "<p>" + tr("H(p, m) = H(p) + KL(p‖m): {cross} = {entropy} + {kl}. The model's perplexity "
                         "2<sup>H(p, m)</sup> = {perplexity}.", cross=format_number(report.cross_entropy),
                         entropy=format_number(report.entropy), kl=format_number(report.kl),
                         perplexity=span("lmcore-model-perplexity", format_number(report.perplexity))) + "</p>"
    notes = [tr(text, outcomes=", ".join(_shown_label(x) for x in fields["outcomes"])) if fields else tr(text)
             for text, fields in _notes(report.impossible, report.kl)]
    table = distributions_html(report) if distributions else ""
    return readable(f'{scroll_box(bits, tr("bits"))}{summary}{notes_html(notes)}{table}')


def distributions_html(report: CrossEntropyReport, bar_px: int = 70) -> str:
    """p and m, outcome by outcome, as numbers and bars ``bar_px`` wide, in a box that scrolls where narrow.

    >>> "lmcore-distributions" in distributions_html(cross_entropy_report([1, 3], [1, 1]))
    True
    """
    distribution_rows = "".join(
        f'<tr><td style="padding: 1px 8px">{html.escape(_shown_label(label))}</td>'
        f'<td style="padding: 1px 4px; width: {bar_px}px">{_bar(100 * pi, _P_COLOUR)}</td>'
        f'<td style="padding: 1px 8px">{pi:.4f}</td>'
        f'<td style="padding: 1px 4px; width: {bar_px}px">{_bar(100 * mi, _M_COLOUR)}</td>'
        f'<td style="padding: 1px 8px">{mi:.4f}</td></tr>'
        for label, pi, mi in zip(report.labels, report.p, report.m))
    heading = 'th colspan="2" style="text-align: left; color:'
    distributions = ('<table class="lmcore-distributions" style="border-collapse: collapse">'
                     f'<tr><th style="padding: 1px 8px; text-align: left">{tr("outcome")}</th>'
                     f'<{heading} {_P_COLOUR}">{tr("p (the data)")}</th>'
                     f'<{heading} {_M_TEXT_COLOUR}">{tr("m (the model)")}</th></tr>'
                     f"{distribution_rows}</table>")
    return scroll_box(distributions, tr("p (the data)") + ", " + tr("m (the model)"))


# --- wiring ---------------------------------------------------------------------------------

_HELP = translatable(
    "<b>Cross-entropy.</b> Each slider holds a <i>weight</i>: an outcome's probability is its weight "
    "divided by the sum of the weights (the table shows them). Left: p, how often each outcome happens in the "
    "data. Right: m, what the model expects. The bars show the bits per outcome: H(p) with the best possible "
    "code, H(p, m) with the model's, and the difference, KL(p‖m). Try to make the red part vanish."
)


_TEXT_WIDTH, _RESULT_WIDTH = "540px", "560px"  # side by side in 1,100 px, one above the other where narrower


def _slider(label: str, value: float, css_class: str) -> widgets.FloatSlider:
    layout, style = slider_layout(80)
    # Two columns and the distributions' table in a 1,152 px slide: a track of about 280 px, 2.8 px
    # per step of 0.01 (the arrow keys move one step).
    layout.width = "400px"
    slider = widgets.FloatSlider(value=value, min=0.0, max=1.0, step=0.01, readout_format=".2f",
                                 description=_shown_label(label), continuous_update=True, style=style, layout=layout)
    slider.add_class(css_class)
    return slider


class CrossEntropyExplorer(Explorer):
    """Sliders for p and for the model m; H(p), H(p, m) and KL(p‖m) as bars, live while dragging.

    Controls: ``preset`` (Dropdown), ``p_sliders`` and ``m_sliders`` (FloatSliders of weights,
    rebuilt when the preset changes), ``swap`` (Button: exchange p and m). ``result`` is the last
    :class:`CrossEntropyReport`, or ``None`` while the weights are no distribution (``error`` says why).

    Introduced in notebooks/03_cross_entropy.ipynb, section "The course's numbers".

    >>> explorer = CrossEntropyExplorer("rain forecast")
    >>> f"{explorer.result.kl:.4f}"
    '0.1887'
    >>> explorer.swap.click(); f"{explorer.result.cross_entropy:.4f}"   # H(m, p): the other way round
    '1.2075'
    """

    def __init__(self, preset: str = "toy corpus, add-one unigram"):
        if preset not in CROSS_ENTROPY_PRESETS:
            raise ValueError(f"preset must be one of {list(CROSS_ENTROPY_PRESETS)}, got {preset!r}")
        self.result: CrossEntropyReport | None = None
        self.error: str | None = None
        self.preset = widgets.Dropdown(options=[(tr(name), name) for name in CROSS_ENTROPY_PRESETS], value=preset,
                                       description=tr("Example"), layout=widgets.Layout(width="420px"))
        self.swap = widgets.Button(description=tr("swap p and m"), tooltip=tr("exchange the data and the model"))
        self.swap.add_class("lmcore-swap")
        self.story = widgets.HTML()
        self.p_sliders: list[widgets.FloatSlider] = []
        self.m_sliders: list[widgets.FloatSlider] = []
        self._p_box, self._m_box = widgets.VBox(), widgets.VBox()
        self.output = widgets.HTML(layout=widgets.Layout(width=_RESULT_WIDTH))
        self.output.add_class("lmcore-result")
        self.distributions = widgets.HTML()
        self.distributions.add_class("lmcore-distributions-table")
        # Three rows, each wrapping where the column is narrow: what to do beside the bits it costs,
        # then the sliders beside the distributions they make. On a 1280 x 720 slide it fits without
        # scrolling (the explanation and the sliders one above the other were 790 px tall).
        wrap = {"flex_flow": "row wrap", "grid_gap": "4px 24px", "align_items": "flex-start"}
        self.widget = widgets.VBox([
            widgets.HBox([self.preset, self.swap]),
            widgets.HBox([
                widgets.VBox([help_box(tr(_HELP), None), self.story], layout=widgets.Layout(width=_TEXT_WIDTH)),
                self.output,
            ], layout=widgets.Layout(**wrap)),
            widgets.HBox([
                widgets.VBox([widgets.HTML(f"<b>{tr('p: the data')}</b>"), self._p_box]),
                widgets.VBox([widgets.HTML(f"<b>{tr('m: the model')}</b>"), self._m_box]),
                self.distributions,
            ], layout=widgets.Layout(**wrap)),
        ])
        self.widget.add_class("lmcore-cross-entropy-explorer")
        self.preset.observe(self._on_preset, names="value")
        self.swap.on_click(self._on_swap)
        self._swapped = False
        preset_value = CROSS_ENTROPY_PRESETS[preset]
        self._load(preset_value.labels, preset_value.p, preset_value.m, preset_value.story)

    def _on_preset(self, change) -> None:
        chosen = CROSS_ENTROPY_PRESETS[change["new"]]
        self._swapped = False
        self._load(chosen.labels, chosen.p, chosen.m, chosen.story)

    def _on_swap(self, button=None) -> None:
        p = [s.value for s in self.p_sliders]
        m = [s.value for s in self.m_sliders]
        self._swapped = not self._swapped
        self._load(self.labels, m, p, self._story)

    def _load(self, labels, p, m, story: str) -> None:
        # New sliders, wired once their values are set: one update per load, not one per slider.
        for old in self.p_sliders + self.m_sliders:
            old.close()
        self.labels = tuple(labels)
        self.p_sliders = [_slider(label, value, "lmcore-p-weight") for label, value in zip(labels, p)]
        self.m_sliders = [_slider(label, value, "lmcore-m-weight") for label, value in zip(labels, m)]
        for slider in self.p_sliders + self.m_sliders:
            slider.observe(self._update, names="value")
        self._p_box.children, self._m_box.children = self.p_sliders, self.m_sliders
        self._story = story
        swapped = (tr("<b>Swapped:</b> the left column now holds what the story calls m, the right one p. ")
                   if self._swapped else "")
        self.story.value = readable(f"{swapped}<i>{html.escape(tr(story))}</i>")
        self._scale = math.log2(2 * len(self.labels))
        self._update()

    def _update(self, change=None) -> None:
        try:
            report = cross_entropy_report([s.value for s in self.p_sliders], [s.value for s in self.m_sliders],
                                          self.labels)
        except ValueError as error:
            self.result, self.error = None, str(error)
            why = html.escape(tr(str(error)), quote=False)  # the message of weights all 0 is translatable
            self.output.value = f'<p class="lmcore-message">{tr("Not a distribution yet: {why}.", why=why)}</p>'
            self.distributions.value = ""
            return
        self.output.value = cross_entropy_html(report, self._scale, distributions=False)
        self.distributions.value = distributions_html(report)
        self.result, self.error = report, None
