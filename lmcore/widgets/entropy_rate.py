"""The entropy-rate explorer: one long sample's bits per symbol converging to the source's exact rate.

What it teaches: draw a few samples of 100,000 symbols from a source whose entropy
rate H is known exactly and follow −(1/n) log₂ p(x₁…xₙ), the bits per symbol the
source gives its own sample, as n grows. For a two-state Markov chain (stationary and
ergodic) every sample's curve closes in on H, and ever more tightly (the
Shannon-McMillan-Breiman theorem). For a mixture that picks one of two coins once
per sample (stationary, not ergodic) each curve settles on the rate of the coin it
picked, and none on the mixture's rate H, the average of the two.

The pattern, as in every explorer: pure compute (:func:`entropy_rate_report`) ->
render (:func:`entropy_rate_html`, :func:`entropy_rate_figure`) -> thin wiring
(:class:`EntropyRateExplorer`). :func:`two_state_sample` draws the same samples as
:meth:`lmcore.info.MarkovSource.sample`, vectorised, so that a slider move stays quick.

>>> report = entropy_rate_report("Markov chain", 0.1, 0.5, n_samples=2, n=10_000)
>>> f"{report.result.entropy_rate:.4f}", report.result.max_gap < 0.05
('0.5575', True)
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from lmcore import info, plots
from lmcore.checks import check_int, check_number
from lmcore.i18n import tr, translatable
from lmcore.info import IIDSource, MarkovSource, MixtureSource
from lmcore.widgets.base import Explorer, ExplorerFigure, format_number, help_box, picture_layout, span, table_html

__all__ = ["SOURCE_KINDS", "two_state_sample", "EntropyRateReport", "entropy_rate_source", "entropy_rate_report",
           "entropy_rate_html", "entropy_rate_figure", "EntropyRateExplorer"]

#: The explorer's two sources, with what its two sliders mean for each and their starting values
#: (names and meanings in English; the explorer shows them translated).
SOURCE_KINDS: dict[str, tuple[str, str, float, float]] = {
    translatable("Markov chain"): ("P(a → b)", "P(b → a)", 0.1, 0.5),
    translatable("mixture of two coins"): (translatable("coin 1: P(b)"), translatable("coin 2: P(b)"), 0.5, 0.1),
}
MAX_SAMPLES = 8
Y_TOP = 1.5  # bits per symbol: the top of the plot; a two-symbol source has at most 1
_FROZEN_CHAIN = translatable("P(a → b) = P(b → a) = 0: the chain never leaves the state it starts in. It has two "
                             "closed classes, is not ergodic, and has no single entropy rate")


# --- pure part -----------------------------------------------------------------------------


def two_state_sample(chain: MarkovSource, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """The sample ``chain.sample(n, seed)`` of a two-state chain, drawn without a Python loop.

    The chain's sampler compares one uniform number ``u`` per step with the current row's
    threshold ``t_s = P(s → a)``: the next state is ``b`` when ``u ≥ t_s``. Below both
    thresholds the next state is ``a`` whatever the current one, above both it is ``b``;
    in between it copies the current state (``t_b < t_a``) or flips it (``t_a < t_b``). So
    each state is the last forced one, copied or flipped once per step since: a running
    maximum of indices instead of a loop. The same uniform numbers, the same states.

    >>> chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    >>> bool((two_state_sample(chain, 1000, seed=1) == chain.sample(1000, seed=1)).all())
    True
    """
    if not isinstance(chain, MarkovSource) or len(chain.states) != 2:
        raise TypeError(f"chain must be a MarkovSource with two states, got {chain!r}")
    n = check_int(n, "n")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    u = rng.random(int(n))
    # The thresholds exactly as the chain's sampler computes them (cumulative sums, divided by the total).
    rows = np.cumsum(chain.transition, axis=1)
    rows = rows / rows[:, -1:]
    start = np.cumsum(chain.stationary_distribution())
    start = start / start[-1]
    to_b_from_a, to_b_from_b = rows[0, 0], rows[1, 0]
    low, high = min(to_b_from_a, to_b_from_b), max(to_b_from_a, to_b_from_b)
    forced = (u < low) | (u >= high)
    value = (u >= high).astype(np.int64)
    forced[0], value[0] = True, int(u[0] >= start[0])
    steps = np.arange(u.size)
    last = np.maximum.accumulate(np.where(forced, steps, 0))
    states = value[last]
    if to_b_from_a < to_b_from_b:  # in between, the chain changes state at every step
        states = states ^ ((steps - last) & 1)
    return states


def entropy_rate_source(kind: str, first: float, second: float) -> MarkovSource | MixtureSource:
    """The source the explorer samples: a two-state :class:`~lmcore.info.MarkovSource` with
    ``P(a → b) = first`` and ``P(b → a) = second``, or a :class:`~lmcore.info.MixtureSource`
    picking, with probability 1/2 each, a coin showing b with probability ``first`` or ``second``.

    A chain that can never change state (``first = second = 0``) is refused: it has two
    closed classes, so which state it starts in decides everything (a ``ValueError`` says so).

    >>> entropy_rate_source("Markov chain", 0.1, 0.5).transition.tolist()
    [[0.9, 0.1], [0.5, 0.5]]
    """
    if not isinstance(kind, str) or kind not in SOURCE_KINDS:
        raise ValueError(f"kind must be one of {list(SOURCE_KINDS)}, got {kind!r}")
    names = SOURCE_KINDS[kind][:2]
    first, second = check_number(first, names[0], low=0, high=1), check_number(second, names[1], low=0, high=1)
    if kind == "Markov chain":
        if first == second == 0:
            raise ValueError(_FROZEN_CHAIN)
        return MarkovSource([[1 - first, first], [second, 1 - second]], states=["a", "b"])
    coins = [IIDSource([1 - p, p], outcomes=["a", "b"]) for p in (first, second)]
    return MixtureSource(coins)


@dataclass(frozen=True)
class EntropyRateReport:
    """What the explorer shows: the source, its exact rate and its samples' running rates.

    ``result`` holds the running rates (:class:`lmcore.info.SampleRates`); ``picks``
    says which coin each sample of a mixture came from (empty for a chain), and
    ``component_rates`` the two coins' own rates (empty for a chain).
    """

    kind: str
    first: float
    second: float
    n: int
    seed: int
    source: MarkovSource | MixtureSource
    result: info.SampleRates
    picks: tuple[int, ...]
    component_rates: tuple[float, ...]


def entropy_rate_report(kind: str, first: float, second: float, n_samples: int = 5, n: int = 100_000,
                        seed: int = 0, points: int = 200) -> EntropyRateReport:
    """Draw ``n_samples`` samples of ``n`` symbols from :func:`entropy_rate_source` (one generator
    seeded with ``seed``) and follow each one's ``-(1/k) log₂ p(x₁…x_k)`` at ``points``
    log-spaced lengths ``k``.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: one long sample is enough, and when it is not".

    >>> report = entropy_rate_report("mixture of two coins", 0.5, 0.1, n_samples=5, n=10_000)
    >>> f"{report.result.entropy_rate:.4f}", report.picks  # coin 2 (index 1) four times, coin 1 once
    ('0.7345', (1, 1, 1, 1, 0))
    >>> [f"{rate:.4f}" for rate in report.result.final]  # each near its coin's rate: 0.4690 or 1
    ['0.4628', '0.4628', '0.4593', '0.4586', '1.0001']
    """
    source = entropy_rate_source(kind, first, second)
    n_samples = check_int(n_samples, "n_samples")
    rng = np.random.default_rng(seed)
    picks: tuple[int, ...] = ()
    component_rates: tuple[float, ...] = ()
    if isinstance(source, MixtureSource):
        drawn = [source.sample_with_choice(n, seed=rng) for _ in range(n_samples)]
        picks = tuple(pick for pick, _ in drawn)
        samples = [sample for _, sample in drawn]
        component_rates = tuple(coin.entropy_rate() for coin in source.sources)
    else:
        samples = [two_state_sample(source, n, seed=rng) for _ in range(n_samples)]
    result = info.sample_rates(source, samples, points=points)
    return EntropyRateReport(kind, float(first), float(second), int(n), seed, source, result, picks,
                             component_rates)


# --- render ---------------------------------------------------------------------------------


def entropy_rate_html(report: EntropyRateReport) -> str:
    """The exact rate and each sample's bits per symbol at its full length, as HTML
    (numbers in ``lmcore-...`` spans).

    >>> "0.5575" in entropy_rate_html(entropy_rate_report("Markov chain", 0.1, 0.5, 1, 1000))
    True
    """
    result, n = report.result, report.n
    rate = span("lmcore-exact-rate", format_number(result.entropy_rate))
    if report.component_rates:
        h1, h2 = (format_number(h) for h in report.component_rates)
        lines = [tr("Coin 1: H₁ = {h1} bits per toss; coin 2: H₂ = {h2} bits per toss.", h1=h1, h2=h2),
                 tr("Mixture's entropy rate H = (H₁ + H₂) / 2 = {rate} bits per symbol.", rate=rate),
                 tr("Each sample follows one coin: it settles on that coin's rate, not on H.")]
    else:
        pi = report.source.stationary_distribution()
        lines = [tr("Exact entropy rate H = {rate} bits per symbol.", rate=rate),
                 tr("Stationary distribution: P(a) = {a}, P(b) = {b}.", a=f"{pi[0]:.4f}", b=f"{pi[1]:.4f}")]
    columns = [tr("sample")] + ([tr("coin picked")] if report.picks else []) + [
        tr("bits per symbol at n = {n}", n=f"{n:,}"), tr("distance from H")]
    rows = []
    for i, (final, gap) in enumerate(zip(result.final, result.gaps)):
        rows.append([str(i + 1)] + ([str(report.picks[i] + 1)] if report.picks else []) + [
            span("lmcore-sample-rate", format_number(final)), span("lmcore-gap", f"{gap:+.4f}")])
    largest = span("lmcore-max-gap", format_number(result.max_gap))
    lines.append(tr("Largest distance from H after {n} symbols: {largest} bits per symbol.", n=f"{n:,}",
                    largest=largest))
    # line-height: JupyterLab gives an HTML widget a control's 28 px line height, which double-spaces text.
    items = "".join(f"<li>{line}</li>" for line in lines)
    return f'<div style="line-height: 1.4"><ul>{items}</ul>{table_html(columns, rows)}</div>'


def entropy_rate_figure(report: EntropyRateReport) -> Figure:
    """The running rates against the length ``n`` (log axis), with the exact rate H as a dashed
    line (and each coin's rate, dotted, for a mixture). Lines for :data:`MAX_SAMPLES` samples
    exist; those beyond the report's samples are empty. The caller closes it."""
    result = report.result
    fig, ax = plt.subplots(figsize=(5.2, 3.3), layout="constrained")
    colors = plt.get_cmap("tab10").colors
    for i in range(MAX_SAMPLES):
        x, y = (result.lengths, result.rates[i]) if i < len(result.rates) else ([], [])
        ax.plot(x, y, color=colors[i % 10], lw=1.2, label=tr("samples") if i == 0 else None)
    ax.axhline(result.entropy_rate, color="black", ls="--", lw=1.5, label=tr("exact entropy rate H"))
    if report.component_rates:
        for i, h in enumerate(report.component_rates):
            ax.axhline(h, color="grey", ls=":", lw=1.5, label=tr("each coin's rate") if i == 0 else None)
    ax.set_xscale("log")
    ax.set_xlim(1, report.n)
    ax.set_ylim(0, Y_TOP)
    ax.set_xlabel(tr("sample length n (log scale)"))
    ax.set_ylabel(tr("−(1/n) log₂ p(x₁…xₙ), bits"))
    ax.set_title(tr(report.kind))
    ax.legend(loc="upper right", fontsize="small", frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return fig


# --- wiring ---------------------------------------------------------------------------------

_HELP = translatable(
    "<b>Does one long sample know the entropy rate?</b> Each coloured line is one sample of "
    "100,000 symbols (a or b); it shows −(1/n) log₂ p(x₁…xₙ), the bits per symbol the source gives "
    "the first n symbols. The dashed line is the source's exact entropy rate H. For the Markov chain, "
    "the sliders set how likely it is to switch state; for the mixture, which two coins it picks "
    "between (once per sample, each with probability 1/2)."
)



# What the figure shows, in words: its alt text (static picture) and its title (live explorer).
_FIGURE_ALT = translatable(
    "Line chart: each sample's running bits per symbol against its length (log scale), the exact "
    "entropy rate dashed."
)


class EntropyRateExplorer(Explorer):
    """Samples' bits per symbol converging (or not) to a source's exact entropy rate.

    Controls: ``kind`` (Dropdown: :data:`SOURCE_KINDS`), ``first`` and ``second``
    (FloatSliders: the chain's switching probabilities or the two coins' P(b)),
    ``n_samples`` (IntSlider, 1 to 8) and ``new_samples`` (Button: the next seed).
    ``result`` is the last :class:`EntropyRateReport`, or ``None`` while the sliders
    describe no usable source (the reason in ``error``, shown in the widget).

    Introduced in notebooks/02_entropy.ipynb, section "Going further: one long sample is enough, and when it is not".

    >>> explorer = EntropyRateExplorer(n=10_000)
    >>> explorer.first.value = 0.5                    # P(a → b) = P(b → a) = 0.5: a fair coin
    >>> f"{explorer.result.result.entropy_rate:.4f}"
    '1.0000'
    """

    def __init__(self, kind: str = "Markov chain", n: int = 100_000, n_samples: int = 5, seed: int = 0):
        if kind not in SOURCE_KINDS:
            raise ValueError(f"kind must be one of {list(SOURCE_KINDS)}, got {kind!r}")
        check_int(n_samples, "n_samples", maximum=MAX_SAMPLES)
        self.n, self.seed = n, seed
        self.result: EntropyRateReport | None = None
        self.error: str | None = None
        self.kind = widgets.Dropdown(options=[(tr(name), name) for name in SOURCE_KINDS], value=kind,
                                     description=tr("source"),
                                     style={"description_width": "130px"}, layout=widgets.Layout(width="400px"))
        self.kind.add_class("lmcore-source-kind")
        # A 420 px track (130 px for the name, 60 for the readout): one 0.01 step is over 4 px.
        slider = {"min": 0.0, "max": 1.0, "step": 0.01, "readout_format": ".2f", "continuous_update": True,
                  "style": {"description_width": "130px"}, "layout": widgets.Layout(width="610px")}
        self.first = widgets.FloatSlider(**slider)
        self.first.add_class("lmcore-first")
        self.second = widgets.FloatSlider(**slider)
        self.second.add_class("lmcore-second")
        self.n_samples = widgets.IntSlider(value=n_samples, min=1, max=MAX_SAMPLES, description=tr("samples"),
                                           continuous_update=True, style={"description_width": "130px"},
                                           layout=widgets.Layout(width="400px"))
        self.n_samples.add_class("lmcore-n-samples")
        self.new_samples = widgets.Button(description=tr("new samples"),
                                          tooltip=tr("draw fresh samples (next seed)"))
        self.new_samples.add_class("lmcore-new-samples")
        self.figure = ExplorerFigure(format="png", layout=picture_layout(), tooltip=tr(_FIGURE_ALT))
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            help_box(tr(_HELP)),
            self.kind, self.first, self.second, widgets.HBox([self.n_samples, self.new_samples]),
            widgets.HBox([self.figure, self.output]),
        ])
        self.widget.add_class("lmcore-entropy-rate-explorer")
        self._drawn_kind: str | None = None
        self._loading = False
        self._load(kind)
        self.kind.observe(lambda change: self._load(change["new"]), names="value")
        for control in (self.first, self.second, self.n_samples):
            control.observe(self._update, names="value")
        self.new_samples.on_click(self._next_seed)

    def _load(self, kind: str) -> None:
        """Slider names and starting values for ``kind``, then one update (not one per slider)."""
        first_name, second_name, first, second = SOURCE_KINDS[kind]
        self._loading = True
        try:
            self.first.description, self.second.description = tr(first_name), tr(second_name)
            self.first.value, self.second.value = first, second
        finally:
            self._loading = False
        self._update()

    def _next_seed(self, button=None) -> None:
        self.seed += 1
        self._update()

    def _new_picture(self, report: EntropyRateReport) -> None:
        figure = entropy_rate_figure(report)
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        axes = figure.axes[0]
        self._lines = axes.lines[:MAX_SAMPLES]
        self._levels = axes.lines[MAX_SAMPLES:]  # H, then the coins' rates
        self._redraw = plots.QuickRedraw(figure, self._lines + self._levels)
        self._drawn_kind = report.kind

    def _update(self, change=None) -> None:
        if self._loading:
            return
        try:
            report = entropy_rate_report(self.kind.value, self.first.value, self.second.value,
                                         self.n_samples.value, self.n, self.seed)
        except ValueError as error:
            self.result, self.error = None, str(error)
            for line in self._lines:  # no samples to show
                line.set_data([], [])
            self.figure.value = self._redraw.png()
            why = html.escape(tr(str(error)))  # the frozen chain's message is translatable
            self.output.value = f'<p class="lmcore-message">{tr("No entropy rate to show: {why}.", why=why)}</p>'
            return
        if report.kind != self._drawn_kind:
            self._new_picture(report)
        result = report.result
        for i, line in enumerate(self._lines):
            line.set_data(*((result.lengths, result.rates[i]) if i < len(result.rates) else ([], [])))
        levels = (result.entropy_rate, *report.component_rates)
        for line, level in zip(self._levels, levels):
            line.set_ydata([level, level])
        self.figure.value = self._redraw.png()
        self.output.value = entropy_rate_html(report)
        self.result, self.error = report, None
