"""Widgets that teach: drag a slider, watch entropy, cross-entropy or perplexity move.

Every widget here follows one pattern, so that it can be tested without a browser
and trusted in one:

1. a pure function computes a result dataclass from the widget's state
   (:func:`explore_distribution`, :func:`distribution_from_weights`,
   :func:`lambda_report`, :func:`perplexity_grid`, :func:`branching_factor`,
   :func:`fairness_grid` and :func:`fairness_report`);
2. a render function turns the result into HTML and a matplotlib figure
   (:func:`render_distribution`, :func:`render_lambda_report`, :func:`branching_html`,
   :func:`fairness_html`);
3. the explorer class only wires controls to them with ``observe(..., names="value")``.

Figures go to an ``ipywidgets.Image`` as PNG bytes and numbers to an ``HTML``
widget, both set from the kernel side: updates replace the picture in place (no
flicker, no growing pile of figures) and strict nbval sees no captured output.
Slow work happens when an explorer is built; a slider move redraws only what
moved (:class:`lmcore.plots.QuickRedraw`), in about 10 ms.
Only core ipywidgets are used, so the explorers work in JupyterLab, Notebook 7,
VS Code and Colab. Result widgets carry CSS classes (``lmcore-result``,
``lmcore-heldout-perplexity``, ...) as stable hooks for the browser test.

>>> explorer = ProbabilityExplorer(preset="rain forecast")
>>> f"{explorer.result.entropy:.4f}"
'0.8113'
>>> explorer.p_sliders[0].value = 0.75      # rain as likely as no rain: 1 bit
>>> f"{explorer.result.entropy:.4f}"
'1.0000'
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np

from lmcore import info, plots
from lmcore.evaluate import EMTrace, fit_interpolation_weights, interpolated_perplexity, interpolated_probs

__all__ = [
    "PRESETS", "Preset", "DistributionReport", "explore_distribution", "distribution_from_weights",
    "distribution_html", "distribution_figure", "render_distribution", "ProbabilityExplorer",
    "LambdaReport", "LambdaGrid", "lambda_report", "perplexity_grid", "render_lambda_report",
    "synthetic_order_probs", "LambdaExplorer",
    "BranchingReport", "branching_factor", "branching_html", "branching_figure", "BranchingExplorer",
    "FairnessRow", "fairness_grid", "FairnessReport", "fairness_report", "fairness_html", "FairnessExplorer",
]

INFINITY = "∞"


def _number(value: float, digits: int = 4) -> str:
    return INFINITY if math.isinf(value) else f"{value:.{digits}f}"


class _Explorer:
    """Shared by the explorers: a cell ending with an explorer displays its widget."""

    widget: widgets.Widget

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        # What a static viewer (GitHub, nbviewer) shows instead of the widget; the same on every run.
        bundle["text/plain"] = f"{type(self).__name__}: an interactive widget (run the notebook in Jupyter to use it)"
        return bundle


# --- the probability explorer: pure part ----------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A worked example of the course: outcomes, their probabilities ``p``, a model ``q``."""

    labels: tuple[str, ...]
    p: tuple[float, ...]
    q: tuple[float, ...]
    story: str


PRESETS: dict[str, Preset] = {
    "fair coin": Preset(
        ("heads", "tails"), (0.5, 0.5), (0.8, 0.2),
        "A fair coin: 1 bit per toss. The model wrongly believes heads comes up 80% of the time."),
    "8 teams": Preset(
        tuple(f"team {i}" for i in range(1, 9)), (1 / 8,) * 8, (1 / 8,) * 8,
        "Eight equally strong teams: 3 bits, so the 3-bit team number is already the best code."),
    "horse race": Preset(
        tuple(f"horse {i}" for i in range(1, 9)), (1 / 2, 1 / 4, 1 / 8, 1 / 16) + (1 / 64,) * 4, (1 / 8,) * 8,
        "The horse race: 2 bits, Huffman code 0, 10, 110, 1110, 111100, ... The model treats all "
        "horses alike (the 3-bit code's belief) and pays 1 bit more per race: the KL divergence."),
    "rain forecast": Preset(
        ("rain", "no rain"), (1 / 4, 3 / 4), (1 / 2, 1 / 2),
        "Rain one day in four: 0.8113 bits. A 50/50 model needs 1 bit per day."),
    "pizza toppings (Shannon game)": Preset(
        ("mushrooms", "pepperoni", "anchovies", "fried rice", "everything else"),
        (0.1, 0.1, 0.01, 0.0001, 0.7899), (0.2,) * 5,
        "The next word after 'I want a pizza with ...'. The first four are single toppings; "
        "'everything else' is not one outcome but all other toppings lumped together (it takes "
        "the remaining 0.7899), so the entropy shown is lower than that of the real, much longer "
        "list. The model spreads its belief evenly over the five rows."),
}


@dataclass(frozen=True)
class DistributionReport:
    """What the probability explorer shows; all information in bits.

    ``cross_entropy``, ``kl_divergence`` and ``model_perplexity`` are ``None``
    without a model ``q``, and ``inf`` when ``q`` gives probability 0 to an outcome
    that happens (listed in ``impossible_under_model``). ``code`` maps each label
    with ``p > 0`` to its Huffman code word.
    """

    labels: tuple[str, ...]
    p: np.ndarray
    q: np.ndarray | None
    entropy: float
    perplexity: float
    cross_entropy: float | None
    kl_divergence: float | None
    model_perplexity: float | None
    code: dict[str, str]
    expected_code_length: float
    impossible_under_model: tuple[str, ...]
    notes: tuple[str, ...]


def explore_distribution(p, q=None, labels: Sequence[str] | None = None) -> DistributionReport:
    """Entropy, perplexity, Huffman code of ``p``; cross-entropy and KL against a model ``q``.

    ``p`` and ``q`` are probabilities (summing to 1) as sequences, or dicts whose
    keys are the labels.

    >>> report = explore_distribution([1/2, 1/4, 1/8, 1/16] + [1/64] * 4, q=[1/8] * 8)
    >>> report.entropy, report.cross_entropy, round(report.kl_divergence, 12), report.code["4"]
    (2.0, 3.0, 1.0, '111100')
    """
    if isinstance(p, Mapping):
        if labels is not None:
            raise TypeError("labels must not be given when p is a dict: its keys are the labels")
        labels = list(p)
        if isinstance(q, Mapping):
            q = [q.get(label, 0.0) for label in labels]
        p = list(p.values())
    p = info.check_distribution(p, "p")  # the same checks and messages as every lmcore.info function
    labels = tuple(str(i) for i in range(p.size)) if labels is None else tuple(labels)
    if len(labels) != p.size:
        raise ValueError(f"labels has {len(labels)} entries but p has {p.size} probabilities")
    entropy = info.entropy(p)
    code_by_position = info.huffman_code(p)
    code = {labels[i]: word for i, word in code_by_position.items()}
    notes = []
    if entropy == 0:
        notes.append("H(p) = 0: one outcome is certain, so seeing it tells you nothing new.")
    cross_entropy = kl_divergence = model_perplexity = None
    impossible: tuple[str, ...] = ()
    if q is not None:
        q = info.check_distribution(q, "q")
        if q.size != p.size:
            raise ValueError(f"q has {q.size} probabilities but p has {p.size}")
        cross_entropy = info.cross_entropy(p, q)
        kl_divergence = info.kl_divergence(p, q)
        model_perplexity = 2.0**cross_entropy
        impossible = tuple(label for label, pi, qi in zip(labels, p, q) if pi > 0 and qi == 0)
        if impossible:
            notes.append(
                f"H(p, q) = {INFINITY}: the model gives probability 0 to {', '.join(impossible)}, which does "
                "happen. Coding it would need an infinitely long code word; a language model with this "
                "flaw has infinite perplexity.")
    return DistributionReport(
        labels=labels, p=p, q=q, entropy=entropy, perplexity=info.perplexity(p),
        cross_entropy=cross_entropy, kl_divergence=kl_divergence, model_perplexity=model_perplexity,
        code=code, expected_code_length=info.expected_code_length(p, code_by_position),
        impossible_under_model=impossible, notes=tuple(notes))


def _normalise(weights, name: str) -> np.ndarray:
    weights = info._as_array(weights, name)
    total = weights.sum()
    if total == 0:
        raise ValueError(f"all weights of {name} are 0: give at least one outcome a positive weight")
    return weights / total


def distribution_from_weights(p_weights, q_weights=None, labels: Sequence[str] | None = None) -> DistributionReport:
    """:func:`explore_distribution` of weights divided by their sum (the sliders' state).

    A model whose weights are all 0 is left out, with a note, rather than failing.

    >>> distribution_from_weights([1, 3], labels=["rain", "no rain"]).p.tolist()
    [0.25, 0.75]
    """
    p = _normalise(p_weights, "p")
    q, note = None, None
    if q_weights is not None:
        try:
            q = _normalise(q_weights, "q")
        except ValueError:
            note = "The model's weights are all 0, so it is no distribution: no cross-entropy to show."
    report = explore_distribution(p, q, labels)
    if note:
        report = DistributionReport(**{**report.__dict__, "notes": report.notes + (note,)})
    return report


def _picture_layout() -> widgets.Layout:
    # Natural size: in an HBox, flex would otherwise stretch a picture to its neighbour's height.
    return widgets.Layout(width="460px", height="auto", align_self="flex-start", flex="0 0 auto")


def _span(css_class: str, text: str) -> str:
    return f'<span class="{css_class}">{text}</span>'


_CELL = ' style="padding: 1px 10px; text-align: left"'


def distribution_html(report: DistributionReport, show_code: bool = False) -> str:
    """The table and the numbers of a report, as HTML (each number in a ``lmcore-...`` span).

    >>> "0.8113" in distribution_html(explore_distribution([0.25, 0.75]))
    True
    """
    has_model = report.q is not None
    columns = ["outcome", "p(x)", "−log₂ p(x)"] + (["q(x)", "−log₂ q(x)"] if has_model else [])
    header = "".join(f"<th{_CELL}>{name}</th>" for name in columns + (["Huffman code word"] if show_code else []))
    rows = []
    for i, label in enumerate(report.labels):
        cells = [html.escape(label), f"{report.p[i]:.4f}", _number(info.surprisal(report.p[i]))]
        if has_model:
            cells += [f"{report.q[i]:.4f}", _number(info.surprisal(report.q[i]))]
        if show_code:
            cells.append(f"<code>{report.code[label]}</code>" if label in report.code else "— (p = 0)")
        rows.append("<tr>" + "".join(f"<td{_CELL}>{cell}</td>" for cell in cells) + "</tr>")
    lines = [
        f"Entropy H(p) = {_span('lmcore-entropy', _number(report.entropy))} bits",
        f"Perplexity 2<sup>H(p)</sup> = {_span('lmcore-perplexity', _number(report.perplexity))}: "
        "as uncertain as a fair choice among that many outcomes",
    ]
    if has_model:
        lines += [
            f"Cross-entropy H(p, q) = {_span('lmcore-cross-entropy', _number(report.cross_entropy))} bits "
            f"(the model's perplexity 2<sup>H(p, q)</sup> = {_number(report.model_perplexity)})",
            f"KL divergence D(p‖q) = H(p, q) − H(p) = {_span('lmcore-kl', _number(report.kl_divergence))} bits: "
            "the price of believing q when the truth is p",
        ]
    if show_code:
        lines.append(
            f"Huffman code: average length {_span('lmcore-code-length', _number(report.expected_code_length))} "
            "bits per outcome (never below H(p), always below H(p) + 1)")
    notes = "".join(f'<p class="lmcore-message">{html.escape(note)}</p>' for note in report.notes)
    return ('<table class="lmcore-table" style="border-collapse: collapse">'
            f"<tr>{header}</tr>{''.join(rows)}</table>"
            f"<ul>{''.join(f'<li>{line}</li>' for line in lines)}</ul>{notes}")


def distribution_figure(report: DistributionReport):
    """Bars of p, and of the model q beside them if there is one. The caller closes it."""
    return plots.bar_distribution(report.p, report.labels, report.q, figsize=(4.6, 3.0))


def render_distribution(report: DistributionReport, show_code: bool = False):
    """``(html, figure)`` for a report: :func:`distribution_html` and :func:`distribution_figure`.

    >>> page, fig = render_distribution(explore_distribution([0.25, 0.75])); plt.close(fig)
    >>> "0.8113" in page
    True
    """
    return distribution_html(report, show_code), distribution_figure(report)


# --- the probability explorer: widget -------------------------------------------------

_PROBABILITY_HELP = (
    "<b>How the sliders work.</b> Each slider holds a <i>weight</i>, not a probability: "
    "each outcome's probability is its weight divided by the sum of all weights, shown in "
    "the table. So the probabilities always add up to 1, and raising one weight lowers every "
    "other probability a little. Left: the distribution p of what happens. Right: the model q."
)


def _weight_slider(label: str, value: float, css_class: str) -> widgets.FloatSlider:
    slider = widgets.FloatSlider(
        value=value, min=0.0, max=1.0, step=0.001, readout_format=".4f", description=label,
        continuous_update=False, style={"description_width": "8em"},
        layout=widgets.Layout(width="22em"))
    slider.add_class(css_class)
    return slider


class ProbabilityExplorer(_Explorer):
    """Sliders for the probabilities of a few outcomes and of a model; entropy, perplexity,
    cross-entropy, KL divergence and (on request) the Huffman code, live.

    Controls: ``preset`` (Dropdown), ``show_code`` (Checkbox), ``p_sliders`` and
    ``q_sliders`` (lists of FloatSliders, rebuilt when the preset changes). The last
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
        self.preset = widgets.Dropdown(options=list(PRESETS), value=preset, description="Example")
        self.show_code = widgets.Checkbox(value=show_code, description="Show the Huffman code", indent=False)
        self.story = widgets.HTML()
        self.p_sliders: list[widgets.FloatSlider] = []
        self.q_sliders: list[widgets.FloatSlider] = []
        self._p_box = widgets.VBox()
        self._q_box = widgets.VBox()
        self.figure = widgets.Image(format="png", layout=_picture_layout())
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            widgets.HBox([self.preset, self.show_code]),
            widgets.HTML(f'<div style="max-width: 50em; line-height: 1.4">{_PROBABILITY_HELP}</div>'),
            self.story,
            widgets.HBox([
                widgets.VBox([widgets.HTML("<b>p: what happens</b>"), self._p_box]),
                widgets.VBox([widgets.HTML("<b>q: the model</b>"), self._q_box]),
            ]),
            widgets.HBox([self.figure, self.output]),
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
        for old in self.p_sliders + self.q_sliders:
            old.close()  # frees the old sliders' models in the kernel and the browser
        self.labels = preset.labels
        self.p_sliders = [_weight_slider(label, value, "lmcore-p-weight") for label, value in zip(preset.labels, preset.p)]
        self.q_sliders = [_weight_slider(label, value, "lmcore-q-weight") for label, value in zip(preset.labels, preset.q)]
        for slider in self.p_sliders + self.q_sliders:
            slider.observe(self._update, names="value")
        self._p_box.children = self.p_sliders
        self._q_box.children = self.q_sliders
        self.story.value = f'<div style="max-width: 50em"><i>{html.escape(preset.story)}</i></div>'
        # One figure per preset; a slider move only changes bar heights (see plots.QuickRedraw).
        figure = distribution_figure(explore_distribution(preset.p, preset.q, preset.labels))
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        p_bars, q_bars = figure.axes[0].containers
        self._bars = (list(p_bars), list(q_bars))
        self._redraw = plots.QuickRedraw(figure, self._bars[0] + self._bars[1])
        self._update()

    def _update(self, change=None) -> None:
        try:
            report = distribution_from_weights([s.value for s in self.p_sliders],
                                               [s.value for s in self.q_sliders], self.labels)
        except ValueError as error:
            self.result, self.error = None, str(error)
            for bar in self._bars[0]:
                bar.set_height(0.0)
            self.figure.value = self._redraw.png()
            self.output.value = f'<p class="lmcore-message">Not a distribution yet: {html.escape(str(error))}.</p>'
            return
        q = report.q if report.q is not None else np.zeros_like(report.p)
        for bars, heights in zip(self._bars, (report.p, q)):
            for bar, height in zip(bars, heights):
                bar.set_height(height)
        self.figure.value = self._redraw.png()
        self.output.value = distribution_html(report, self.show_code.value)
        self.result, self.error = report, None


# --- the interpolation (λ) explorer: pure part ------------------------------------------


def _check_order_probs(order_probs, name: str) -> np.ndarray:
    try:
        array = np.asarray(order_probs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of probabilities") from None
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name} must have shape (n_tokens, order) with n_tokens, order >= 1, got {array.shape}")
    if np.isnan(array).any() or (array < 0).any() or (array > 1).any():
        raise ValueError(f"{name} must hold probabilities in [0, 1] (no NaN)")
    return array


@dataclass(frozen=True)
class LambdaReport:
    """Perplexity of an interpolated model at weights ``lambdas`` on one set of tokens.

    ``perplexity`` is ``inf`` when ``n_impossible`` tokens get probability 0, and
    ``message`` then says so in words.
    """

    lambdas: tuple[float, ...]
    perplexity: float
    cross_entropy: float  # bits per token
    n_tokens: int
    n_impossible: int
    message: str | None


def lambda_report(order_probs, lambdas, data_name: str = "held-out") -> LambdaReport:
    """Perplexity of ``Σ_i λ_i p_i(token)`` over tokens, from per-order probabilities.

    ``order_probs`` has shape ``(n_tokens, order)`` (column ``i`` is order ``i + 1``'s
    probability of each token, as ``Interpolated.order_probs`` returns); ``lambdas``
    are ``order`` non-negative weights summing to 1. The number is
    :func:`lmcore.evaluate.interpolated_perplexity`'s; this adds the count of
    impossible tokens and a message a student can read (``data_name`` names the
    tokens in it).

    >>> report = lambda_report([[0.5, 0.0], [0.25, 0.5]], [0.5, 0.5])
    >>> f"{report.perplexity:.4f}", report.n_impossible
    ('3.2660', 0)
    >>> lambda_report([[0.5, 0.0], [0.25, 0.5]], [0, 1]).message[:46]
    '∞ — some held-out token gets probability 0 und'
    """
    mixture = interpolated_probs(order_probs, lambdas)  # checks both arguments
    n_impossible = int((mixture <= 0).sum())
    if n_impossible:
        order_probs = np.asarray(order_probs, dtype=float)
        never_zero = [f"λ{i + 1}" for i in range(order_probs.shape[1]) if (order_probs[:, i] > 0).all()]
        advice = (f" Give some weight to {' or '.join(never_zero)}: that order never gives probability 0."
                  if never_zero else "")
        message = (f"{INFINITY} — some {data_name} token gets probability 0 under these weights "
                   f"({n_impossible:,} of {mixture.size:,} tokens): every order with weight > 0 gives it "
                   f"probability 0.{advice}")
        perplexity = math.inf
    else:
        message = None
        perplexity = float(interpolated_perplexity(order_probs, lambdas))
    return LambdaReport(tuple(float(w) for w in lambdas), perplexity,
                        math.log2(perplexity), int(mixture.size), n_impossible, message)


@dataclass(frozen=True)
class LambdaGrid:
    """Held-out perplexity on a grid of (λ1, λ2), λ3 = 1 − λ1 − λ2.

    ``perplexity[i, j]`` belongs to ``(lambda1[j], lambda2[i])``; NaN where
    λ1 + λ2 > 1, ``inf`` where some token gets probability 0.
    """

    lambda1: np.ndarray
    lambda2: np.ndarray
    perplexity: np.ndarray

    @property
    def best_lambdas(self) -> tuple[float, float, float]:
        """The grid point of lowest perplexity, as ``(λ1, λ2, λ3)``."""
        i, j = np.unravel_index(np.nanargmin(self.perplexity), self.perplexity.shape)
        l1, l2 = float(self.lambda1[j]), float(self.lambda2[i])
        return l1, l2, max(0.0, round(1 - l1 - l2, 12))


def perplexity_grid(order_probs, step: float = 0.02, chunk_size: int = 4096) -> LambdaGrid:
    """:func:`lambda_report`'s perplexity at every grid point of the λ triangle, all at once.

    Made for a picture: identical rows of ``order_probs`` (frequent n-grams) are
    scored once and counted, and the arithmetic is single precision (about six
    significant digits), which makes the 1,326 points of a 0.02 grid over 100,000
    tokens take seconds rather than many. Exact numbers come from :func:`lambda_report`.

    >>> grid = perplexity_grid([[0.5, 0.0, 0.0], [0.25, 0.5, 1.0]], step=0.5)
    >>> grid.perplexity.shape, round(float(grid.perplexity[0, 2]), 4), float(grid.perplexity[2, 0])
    ((3, 3), 2.8284, inf)
    """
    order_probs = _check_order_probs(order_probs, "order_probs")
    if order_probs.shape[1] != 3:
        raise ValueError(f"perplexity_grid needs 3 orders (unigram, bigram, trigram), got {order_probs.shape[1]}")
    if not 0 < step <= 0.5:
        raise ValueError(f"step must be in (0, 0.5], got {step}")
    axis = np.round(np.arange(0.0, 1.0 + step / 2, step), 12)
    l1, l2 = np.meshgrid(axis, axis)  # l1 varies along columns, l2 along rows
    valid = l1 + l2 <= 1 + 1e-9
    points = np.stack([l1[valid], l2[valid], np.clip(1 - l1[valid] - l2[valid], 0, None)], axis=1)
    rows, counts = np.unique(order_probs, axis=0, return_counts=True)
    rows, points = rows.astype(np.float32), points.astype(np.float32)
    total_log = np.zeros(len(points))
    with np.errstate(divide="ignore"):  # log 0 = -inf is the intended "impossible token"
        for start in range(0, len(rows), chunk_size):
            total_log += counts[start:start + chunk_size] @ np.log(rows[start:start + chunk_size] @ points.T)
    perplexity = np.full(l1.shape, np.nan)
    perplexity[valid] = np.exp(-total_log / counts.sum())
    return LambdaGrid(axis, axis.copy(), perplexity)


def render_lambda_report(report: LambdaReport, best: tuple[tuple[float, ...], float] | None = None,
                         best_name: str = "EM optimum") -> str:
    """HTML for a held-out :class:`LambdaReport`; ``best`` is ``(lambdas, perplexity)`` to compare with.

    >>> "3.2660" in render_lambda_report(lambda_report([[0.5, 0.0], [0.25, 0.5]], [0.5, 0.5]))
    True
    """
    shown = ", ".join(f"{w:.2f}" for w in report.lambdas)
    if report.message:
        value = f"{_span('lmcore-heldout-perplexity', INFINITY)}{html.escape(report.message[1:])}"
    else:
        value = (f"{_span('lmcore-heldout-perplexity', _number(report.perplexity))} "
                 f"(cross-entropy {report.cross_entropy:.4f} bits per token, {report.n_tokens:,} tokens)")
    page = f"<p>Held-out perplexity at λ = ({shown}): <b>{value}</b></p>"
    if best is not None:
        best_lambdas, best_perplexity = best
        page += (f"<p>{html.escape(best_name)}: λ = ({', '.join(f'{w:.2f}' for w in best_lambdas)}), "
                 f"perplexity {_number(best_perplexity)}.</p>")
    return page


def synthetic_order_probs(n_tokens: int = 5000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(heldout, test)`` arrays shaped like ``Interpolated.order_probs``, for demos and tests.

    The unigram column is never 0 (a smoothed unigram); the bigram and trigram
    columns are 0 for unseen contexts, as in a real corpus, and larger otherwise.

    >>> heldout, test = synthetic_order_probs(100)
    >>> heldout.shape, bool((heldout[:, 0] > 0).all()), bool((heldout[:, 2] == 0).any())
    ((100, 3), True, True)
    """
    rng = np.random.default_rng(seed)

    def one_split() -> np.ndarray:
        unigram = np.exp(rng.normal(-7.0, 1.5, n_tokens)).clip(1e-7, 0.1)
        bigram_seen = rng.random(n_tokens) < 0.7
        bigram = np.where(bigram_seen, np.exp(rng.normal(-3.0, 1.5, n_tokens)).clip(1e-6, 1), 0.0)
        trigram_seen = bigram_seen & (rng.random(n_tokens) < 0.5)
        trigram = np.where(trigram_seen, np.exp(rng.normal(-1.5, 1.2, n_tokens)).clip(1e-6, 1), 0.0)
        return np.stack([unigram, bigram, trigram], axis=1)

    return one_split(), one_split()


# --- the interpolation (λ) explorer: widget ---------------------------------------------

_LAMBDA_HELP = (
    "<b>Interpolation:</b> P(w | u, v) = λ1·P<sub>1</sub>(w) + λ2·P<sub>2</sub>(w | v) + "
    "λ3·P<sub>3</sub>(w | u, v). The weights must sum to 1, so you move λ1 and λ2 and "
    "<b>λ3 = 1 − λ1 − λ2</b> takes the rest (the grey slider). The map shows held-out "
    "perplexity for every allowed (λ1, λ2); the circle is your choice."
)

_TEST_SET_NOTE = (
    "Why only once: the test set stands in for text nobody has seen yet. If you moved the "
    "sliders until this number looked good, you would be choosing λ on the test set, and the "
    "number would be optimistic: it would no longer tell how the model does on new text. "
    "Choose λ on the held-out set (as EM does), then look at the test set once, at the end."
)


class LambdaExplorer(_Explorer):
    """Interpolation weights of a trigram model: live held-out perplexity and a map of it.

    ``heldout_order_probs`` (and ``test_order_probs``) have shape ``(n_tokens, 3)``:
    the unigram, bigram and trigram probability of each predicted token, as
    ``Interpolated.order_probs`` gives them. ``em_lambdas`` are marked on the map;
    without them, EM (:func:`lmcore.evaluate.fit_interpolation_weights`) finds them
    on the held-out probabilities. All slow work (EM, the perplexity map on a grid
    of step ``grid_step``) happens here, once; a slider move only mixes three
    columns and moves a marker.

    Controls: ``lambda1``, ``lambda2`` (FloatSliders), ``lambda3`` (disabled, derived),
    ``test_button``. ``result`` is the last held-out :class:`LambdaReport`,
    ``test_result`` the test-set one after the button was clicked.

    >>> heldout, test = synthetic_order_probs(2000)
    >>> explorer = LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3))
    >>> explorer.lambda1.value = 0.2
    >>> explorer.lambdas, explorer.result.perplexity == lambda_report(heldout, (0.2, 0.3, 0.5)).perplexity
    ((0.2, 0.3, 0.5), True)
    """

    def __init__(self, heldout_order_probs, test_order_probs=None, em_lambdas=None, *,
                 initial_lambdas=None, grid_step: float = 0.02, slider_step: float = 0.01):
        self.heldout = _check_order_probs(heldout_order_probs, "heldout_order_probs")
        if self.heldout.shape[1] != 3:
            raise ValueError(f"heldout_order_probs must have 3 columns (unigram, bigram, trigram), "
                             f"got {self.heldout.shape[1]}")
        self.test = None if test_order_probs is None else _check_order_probs(test_order_probs, "test_order_probs")
        if self.test is not None and self.test.shape[1] != 3:
            raise ValueError(f"test_order_probs must have 3 columns, got {self.test.shape[1]}")
        # EM on the held-out arrays is what model.fit_lambdas(heldout) does; it takes milliseconds.
        self.em_trace: EMTrace | None = None
        if em_lambdas is None:
            self.em_trace = fit_interpolation_weights(self.heldout)
            em_lambdas = self.em_trace.lambdas
        self.em_lambdas = tuple(float(w) for w in em_lambdas)
        self.grid = perplexity_grid(self.heldout, grid_step)
        em_perplexity = lambda_report(self.heldout, self.em_lambdas).perplexity
        self._best = (self.em_lambdas, em_perplexity)
        self._best_name = ("EM optimum" if self.em_trace is None
                           else f"EM optimum ({self.em_trace.iterations} iterations)")
        start = self._starting_point(initial_lambdas, slider_step)
        self.result: LambdaReport | None = None
        self.test_result: LambdaReport | None = None
        self._notice = ""

        def slider(description, value, css_class, disabled=False):
            control = widgets.FloatSlider(
                value=value, min=0.0, max=1.0, step=slider_step, readout_format=".2f", description=description,
                continuous_update=False, disabled=disabled, style={"description_width": "9em"},
                layout=widgets.Layout(width="26em"))
            control.add_class(css_class)
            return control

        self.lambda1 = slider("λ1 (unigram)", start[0], "lmcore-lambda1")
        self.lambda2 = slider("λ2 (bigram)", start[1], "lmcore-lambda2")
        self.lambda3 = slider("λ3 = 1 − λ1 − λ2", start[2], "lmcore-lambda3", disabled=True)
        self.message = widgets.HTML()
        self.message.add_class("lmcore-message")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.test_button = widgets.Button(
            description="Evaluate on the test set (once)", layout=widgets.Layout(width="auto"),
            disabled=self.test is None,
            tooltip="No test set was given" if self.test is None else "Use the test set once, at the end")
        self.test_button.add_class("lmcore-test-button")
        self.test_output = widgets.HTML()
        self.test_output.add_class("lmcore-test-result")

        # The map is drawn once; an update only moves the "current" marker and re-encodes the PNG.
        self._map_figure = plots.lambda_triangle_map(
            self.grid.lambda1, self.grid.lambda2, self.grid.perplexity, current=start,
            optimum=self.em_lambdas, optimum_label="EM optimum")
        plt.close(self._map_figure)  # out of pyplot's list: never shown twice, never piling up
        self._marker = next(line for line in self._map_figure.axes[0].lines if line.get_gid() == "current")
        self._redraw = plots.QuickRedraw(self._map_figure, [self._marker])
        self.map = widgets.Image(format="png", layout=_picture_layout())
        self.map.add_class("lmcore-map")

        self.widget = widgets.HBox([
            widgets.VBox([
                widgets.HTML(f'<div style="max-width: 34em; line-height: 1.4">{_LAMBDA_HELP}</div>'),
                self.lambda1, self.lambda2, self.lambda3, self.message, self.output,
                self.test_button, self.test_output,
            ], layout=widgets.Layout(max_width="36em")),
            self.map,
        ])
        self.widget.add_class("lmcore-lambda-explorer")
        self.lambda1.observe(self._on_slider, names="value")
        self.lambda2.observe(self._on_slider, names="value")
        self.test_button.on_click(self._on_test)
        self._update()

    @classmethod
    def from_model(cls, model, heldout, test=None, em_lambdas=None, **kwargs) -> LambdaExplorer:
        """An explorer for a fitted ``lmcore.ngram.Interpolated(3)`` model and held-out
        (and test) sentences. The model is not changed: EM runs on the explorer's copy
        of the held-out probabilities, as ``model.fit_lambdas(heldout)`` would.

        >>> from lmcore.ngram import Interpolated
        >>> from lmcore.text import TOY_TRAIN, TOY_TEST
        >>> explorer = LambdaExplorer.from_model(Interpolated(3).fit(TOY_TRAIN), TOY_TEST)
        >>> explorer.heldout.shape[1]
        3
        """
        heldout_probs = model.order_probs(heldout)
        test_probs = None if test is None else model.order_probs(test)
        return cls(heldout_probs, test_probs, em_lambdas, **kwargs)

    @staticmethod
    def _starting_point(initial_lambdas, slider_step: float) -> tuple[float, float, float]:
        # (λ1, λ2) or (λ1, λ2, λ3): λ3 is derived anyway. Rounded to the sliders' step,
        # so that keyboard steps land on round numbers.
        if initial_lambdas is None:
            initial_lambdas = (1 / 3, 1 / 3)
        l1, l2 = (round(round(float(w) / slider_step) * slider_step, 10) for w in tuple(initial_lambdas)[:2])
        if l1 < 0 or l2 < 0 or l1 + l2 > 1 + 1e-9:
            raise ValueError(f"initial_lambdas must be >= 0 with λ1 + λ2 <= 1, got {initial_lambdas}")
        return l1, l2, max(0.0, round(1 - l1 - l2, 10))

    @property
    def lambdas(self) -> tuple[float, float, float]:
        """The current ``(λ1, λ2, λ3)``; λ3 is derived and never negative."""
        l1, l2 = float(self.lambda1.value), float(self.lambda2.value)
        return l1, l2, max(0.0, round(1 - l1 - l2, 10))

    def _on_slider(self, change) -> None:
        moved = change["owner"]
        other = self.lambda2 if moved is self.lambda1 else self.lambda1
        if moved.value + other.value > 1 + 1e-9:
            # Stop the moved slider where λ3 reaches 0; setting it runs this observer again.
            name = "λ1" if moved is self.lambda1 else "λ2"
            stop = round(1 - other.value, 10)
            self._notice = (f"λ1 + λ2 cannot exceed 1 (λ3 would be negative), so {name} stopped at {stop:.2f}.")
            moved.value = stop
            return
        self._update()
        self._notice = ""

    def _update(self) -> None:
        lambdas = self.lambdas
        report = lambda_report(self.heldout, lambdas)
        self.lambda3.value = lambdas[2]
        self._marker.set_data([lambdas[0]], [lambdas[1]])
        self.map.value = self._redraw.png()
        self.output.value = render_lambda_report(report, self._best, self._best_name)
        self.message.value = f"<p>{html.escape(self._notice)}</p>" if self._notice else ""
        self.result = report

    def _on_test(self, button=None) -> None:
        if self.test is None or self.test_result is not None:
            return
        report = lambda_report(self.test, self.lambdas, data_name="test")
        shown = ", ".join(f"{w:.2f}" for w in report.lambdas)
        value = _span("lmcore-test-perplexity", _number(report.perplexity))
        if report.message:
            value += html.escape(report.message[1:])
        self.test_output.value = (f"<p>Test-set perplexity at λ = ({shown}): <b>{value}</b></p>"
                                  f'<p style="max-width: 34em"><i>{html.escape(_TEST_SET_NOTE)}</i></p>')
        self.test_button.disabled = True
        self.test_button.description = "Test set used (once)"
        self.test_result = report


# --- the branching-factor explorer: pure part --------------------------------------------


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


def branching_factor(k: int, skew: float = 0.0) -> BranchingReport:
    """Entropy and perplexity of ``k`` outcomes, ``skew`` of the way from uniform to certain.

        p_1 = 1/k + skew (1 - 1/k),    p_i = (1 - p_1) / (k - 1)  for i = 2..k

    ``skew = 0`` is the uniform choice, whose perplexity is ``k`` (the branching factor);
    ``skew = 1`` makes the first outcome certain: perplexity 1. In between, the
    perplexity ``2 ** H`` is an effective number of choices between 1 and ``k``.

    >>> report = branching_factor(10)
    >>> f"{report.entropy:.4f} bits, perplexity {report.perplexity:.4f}"
    '3.3219 bits, perplexity 10.0000'
    >>> f"{branching_factor(10, skew=0.9).perplexity:.4f}"
    '1.6492'
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an integer, got {type(k).__name__}")
    if k < 1:
        raise ValueError(f"k must be >= 1 (the number of outcomes), got {k}")
    if isinstance(skew, bool) or not isinstance(skew, (int, float, np.integer, np.floating)):
        raise TypeError(f"skew must be a number between 0 and 1, got {type(skew).__name__}")
    if not 0.0 <= skew <= 1.0:
        raise ValueError(f"skew must be between 0 (uniform) and 1 (certain), got {skew}")
    k, skew = int(k), float(skew)
    first = 1.0 / k + skew * (1.0 - 1.0 / k)
    p = np.full(k, (1.0 - first) / (k - 1) if k > 1 else 0.0)
    p[0] = first if k > 1 else 1.0
    entropy = info.entropy(p)
    return BranchingReport(k, skew, p, entropy, 2.0**entropy, math.log2(k))


def branching_html(report: BranchingReport) -> str:
    """The numbers of a :class:`BranchingReport` as HTML (each in a ``lmcore-...`` span).

    >>> "10.0000" in branching_html(branching_factor(10))
    True
    """
    others = (f", each of the other {report.k - 1}: {report.p[1]:.4f}" if report.k > 1 else "")
    lines = [
        f"{report.k} outcomes; outcome 1 has probability {_span('lmcore-top-probability', f'{report.p[0]:.4f}')}"
        f"{others}",
        f"Entropy H = {_span('lmcore-entropy', _number(report.entropy))} bits "
        f"(a uniform choice among {report.k}: log₂ {report.k} = {report.max_entropy:.4f} bits)",
        f"Perplexity 2<sup>H</sup> = {_span('lmcore-perplexity', _number(report.perplexity))}: "
        "as uncertain as a fair choice among that many outcomes",
    ]
    return f"<ul>{''.join(f'<li>{line}</li>' for line in lines)}</ul>"


def branching_figure(report: BranchingReport):
    """Bars of the report's distribution. The caller closes it."""
    return plots.bar_distribution(report.p, [str(i) for i in range(1, report.k + 1)], figsize=(4.6, 3.0),
                                  p_name="p", title="the next outcome")


# --- the branching-factor explorer: widget ----------------------------------------------

_BRANCHING_HELP = (
    "<b>Perplexity as a branching factor.</b> Choose how many outcomes there are (k) and how "
    "strongly the first one is favoured (skew). With skew 0 all k are equally likely and the "
    "perplexity is exactly k; favouring one outcome lowers it towards 1: fewer <i>effective</i> choices."
)


class BranchingExplorer(_Explorer):
    """Perplexity as a (weighted average) branching factor: ``k`` outcomes, optionally skewed.

    Controls: ``k`` (IntSlider) and ``skew`` (FloatSlider). ``result`` is the last
    :class:`BranchingReport`. Changing ``k`` draws a new picture; moving ``skew`` only
    changes the bar heights (:class:`lmcore.plots.QuickRedraw`).

    >>> explorer = BranchingExplorer(k=10)
    >>> explorer.skew.value = 1.0
    >>> f"{explorer.result.perplexity:.4f}"
    '1.0000'
    """

    def __init__(self, k: int = 10, skew: float = 0.0, max_k: int = 30):
        start = branching_factor(k, skew)  # checks the arguments
        if not 2 <= start.k <= max_k:
            raise ValueError(f"k must be between 2 and max_k={max_k}, got {k}")
        self.result: BranchingReport | None = None
        self.k = widgets.IntSlider(value=start.k, min=2, max=max_k, step=1, description="k outcomes",
                                   continuous_update=False, style={"description_width": "7em"},
                                   layout=widgets.Layout(width="26em"))
        self.k.add_class("lmcore-k")
        self.skew = widgets.FloatSlider(value=start.skew, min=0.0, max=1.0, step=0.01, readout_format=".2f",
                                        description="skew", continuous_update=False,
                                        style={"description_width": "7em"}, layout=widgets.Layout(width="26em"))
        self.skew.add_class("lmcore-skew")
        self.figure = widgets.Image(format="png", layout=_picture_layout())
        self.figure.add_class("lmcore-figure")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            widgets.HTML(f'<div style="max-width: 50em; line-height: 1.4">{_BRANCHING_HELP}</div>'),
            self.k, self.skew,
            widgets.HBox([self.figure, self.output]),
        ])
        self.widget.add_class("lmcore-branching-explorer")
        self._drawn_k = None
        self.k.observe(self._update, names="value")
        self.skew.observe(self._update, names="value")
        self._update()

    def _new_picture(self, report: BranchingReport) -> None:
        figure = branching_figure(report)
        plt.close(figure)  # out of pyplot's list: never shown twice, never piling up
        self._bars = list(figure.axes[0].containers[0])
        self._redraw = plots.QuickRedraw(figure, self._bars)
        self._drawn_k = report.k

    def _update(self, change=None) -> None:
        report = branching_factor(self.k.value, self.skew.value)
        if report.k != self._drawn_k:
            self._new_picture(report)
        for bar, height in zip(self._bars, report.p):
            bar.set_height(height)
        self.figure.value = self._redraw.png()
        self.output.value = branching_html(report)
        self.result = report


# --- the fair-comparison explorer: pure part ----------------------------------------------


@dataclass(frozen=True)
class FairnessRow:
    """An interpolated model's test score under one tokenization ``unit`` and vocabulary cut-off.

    ``vocabulary`` is |V|, the number of outcomes the model predicts among (known
    units, ``<unk>`` and ``</s>``); ``oov_rate`` the fraction of test units (without
    ``</s>``) outside the vocabulary, scored as ``<unk>``; ``n_tokens`` the count N
    (units and one ``</s>`` per sentence). ``total_bits = n_tokens * bits_per_token``
    and ``bits_per_character = total_bits / n_characters`` (the characters of the test
    text, the same whatever the unit): the one number here that compares units.
    """

    unit: str
    min_count: int
    vocabulary: int
    oov_rate: float
    n_tokens: int
    perplexity: float
    bits_per_token: float
    total_bits: float
    n_characters: int
    bits_per_character: float


def fairness_grid(data: Mapping[str, Sequence], min_counts: Sequence[int] = (1, 2, 5),
                  order: int = 2) -> dict[tuple[str, int], FairnessRow]:
    """Test perplexity of an interpolated model for every tokenization unit and vocabulary cut-off.

    ``data`` maps a unit name (say ``"word"`` and ``"char"``) to ``(train, heldout,
    test)`` sentences of that unit; every unit's test sentences must spell the same
    text. For each unit and ``min_count`` (words seen fewer times in training become
    ``<unk>``), an :class:`lmcore.ngram.Interpolated` model of ``order`` is fitted on
    train, its λ by EM on held-out, and scored on test with lmcore's defaults
    (``<unk>`` scored, ``</s>`` counted). Slow (one fit per cell): explorers call it once.

    >>> words = [["ab", "c"], ["c", "ab"], ["ab", "ab", "c"]]
    >>> chars = [list("".join(s)) for s in words]
    >>> grid = fairness_grid({"word": (words, words, words), "char": (chars, chars, chars)}, (1,), order=1)
    >>> grid["word", 1].n_characters == grid["char", 1].n_characters == 11
    True
    """
    from lmcore.evaluate import evaluate  # fitting models is this function's job alone
    from lmcore.ngram import Interpolated
    from lmcore.vocab import Vocabulary

    if not isinstance(data, Mapping) or not data:
        raise TypeError("data must be a non-empty dict {unit: (train, heldout, test)}")
    if isinstance(min_counts, (str, bytes)) or not isinstance(min_counts, Sequence) or not min_counts:
        raise TypeError(f"min_counts must be a non-empty sequence of integers >= 1, got {min_counts!r}")
    grid, characters = {}, {}
    for unit, parts in data.items():
        if isinstance(parts, (str, bytes)) or len(parts) != 3:
            raise ValueError(f"data[{unit!r}] must be (train, heldout, test) sentences")
        train, heldout, test = parts
        characters[unit] = sum(len(token) for sentence in test for token in sentence)
        n_units = sum(len(sentence) for sentence in test)
        for min_count in min_counts:
            vocab = Vocabulary.build(train, min_count)
            model = Interpolated(order).fit(train, vocab=vocab)
            model.fit_lambdas(heldout)
            result = evaluate(model, test)
            total_bits = result.cross_entropy * result.n_tokens
            grid[unit, min_count] = FairnessRow(
                unit=unit, min_count=int(min_count), vocabulary=len(model.outcomes),
                oov_rate=result.n_oov / n_units, n_tokens=result.n_tokens, perplexity=result.perplexity,
                bits_per_token=result.cross_entropy, total_bits=total_bits,
                n_characters=characters[unit], bits_per_character=total_bits / characters[unit])
    if len(set(characters.values())) > 1:
        raise ValueError(f"data: the units' test sets must spell the same text, but their character counts "
                         f"differ: {characters}")
    return grid


@dataclass(frozen=True)
class FairnessReport:
    """A chosen setting against a reference one: ``chosen.perplexity / reference.perplexity``
    and the change in bits per character, with ``notes`` saying what changed."""

    reference: FairnessRow
    chosen: FairnessRow
    perplexity_ratio: float
    bits_per_character_change: float
    notes: tuple[str, ...]


def fairness_report(grid: Mapping[tuple[str, int], FairnessRow], unit: str, min_count: int,
                    reference: tuple[str, int] | None = None) -> FairnessReport:
    """Compare ``grid[unit, min_count]`` with ``grid[reference]`` (default: the grid's first entry).

    >>> row = lambda unit, m, pp, bpc: FairnessRow(unit, m, 10, 0.0, 10, pp, 0.0, 0.0, 5, bpc)
    >>> grid = {("word", 1): row("word", 1, 500.0, 6.0), ("char", 1): row("char", 1, 100.0, 6.5)}
    >>> report = fairness_report(grid, "char", 1)
    >>> round(report.perplexity_ratio, 2), report.bits_per_character_change
    (0.2, 0.5)
    """
    reference = next(iter(grid)) if reference is None else tuple(reference)
    for key in (reference, (unit, min_count)):
        if key not in grid:
            raise ValueError(f"no setting {key!r} in the grid; it has {sorted(grid)}")
    base, chosen = grid[reference], grid[unit, min_count]
    notes = []
    if chosen.unit != base.unit:
        notes.append(
            f"The unit changed ({base.unit} to {chosen.unit}): perplexity per token now counts guesses "
            f"among {chosen.unit}s, not {base.unit}s, so it cannot be compared. Compare bits per character: "
            "every model pays for the same characters.")
    if chosen.min_count != base.min_count:
        notes.append(
            f"The vocabulary changed (min_count {base.min_count} to {chosen.min_count}): "
            f"{chosen.oov_rate:.1%} of the test {chosen.unit}s are now <unk> (was {base.oov_rate:.1%}). "
            "Predicting '<unk>' is easier than predicting the word it hides, so the score improves "
            "without the model predicting the text any better.")
    if not notes:
        notes.append("Same unit, same vocabulary: these numbers can be compared with each other.")
    return FairnessReport(base, chosen, chosen.perplexity / base.perplexity,
                          chosen.bits_per_character - base.bits_per_character, tuple(notes))


def fairness_html(report: FairnessReport) -> str:
    """A two-row table (reference and chosen setting) and the notes, as HTML.

    >>> row = lambda unit, pp: FairnessRow(unit, 1, 10, 0.0, 10, pp, 1.0, 10.0, 5, 2.0)
    >>> grid = {("word", 1): row("word", 1.0), ("char", 1): row("char", 123.4)}
    >>> "123.4000" in fairness_html(fairness_report(grid, "char", 1))
    True
    """
    columns = ["setting", "|V|", "test OOV", "tokens N", "perplexity per token", "bits per token",
               "bits per character"]
    header = "".join(f"<th{_CELL}>{name}</th>" for name in columns)
    rows = []
    for name, row, css in (("reference", report.reference, "lmcore-reference"),
                           ("your choice", report.chosen, "lmcore-chosen")):
        cells = [f"{name}: {html.escape(row.unit)}s, min_count {row.min_count}", f"{row.vocabulary:,}",
                 f"{row.oov_rate:.2%}", f"{row.n_tokens:,}",
                 _span(f"{css}-perplexity", _number(row.perplexity)), _number(row.bits_per_token),
                 _span(f"{css}-bpc", _number(row.bits_per_character))]
        rows.append("<tr>" + "".join(f"<td{_CELL}>{cell}</td>" for cell in cells) + "</tr>")
    summary = (f"Perplexity per token × {_span('lmcore-perplexity-ratio', f'{report.perplexity_ratio:.4f}')}; "
               f"bits per character {_span('lmcore-bpc-change', f'{report.bits_per_character_change:+.4f}')}.")
    notes = "".join(f'<p class="lmcore-message">{html.escape(note)}</p>' for note in report.notes)
    return (f'<table class="lmcore-table" style="border-collapse: collapse"><tr>{header}</tr>{"".join(rows)}'
            f"</table><p>{summary}</p>{notes}")


# --- the fair-comparison explorer: widget ------------------------------------------------

_FAIRNESS_HELP = (
    "<b>Fair comparison.</b> The same model family on the same test text, scored under different "
    "settings: the tokenization unit (words or characters) and the vocabulary cut-off min_count "
    "(words seen fewer times in training become &lt;unk&gt;). The first row is the reference setting."
)


class FairnessExplorer(_Explorer):
    """Dropdowns for the tokenization unit and the vocabulary cut-off; the score table follows.

    Every setting's numbers are computed once, when the explorer is built
    (:meth:`from_data` runs :func:`fairness_grid`); a dropdown change only looks them
    up and renders (:func:`fairness_report`, :func:`fairness_html`). Controls: ``unit``,
    ``min_count`` (Dropdowns); ``result`` is the last :class:`FairnessReport`.

    >>> row = lambda unit, pp: FairnessRow(unit, 1, 10, 0.0, 10, pp, 1.0, 10.0, 5, 2.0)
    >>> explorer = FairnessExplorer({("word", 1): row("word", 500.0), ("char", 1): row("char", 100.0)})
    >>> explorer.unit.value = "char"
    >>> round(explorer.result.perplexity_ratio, 4)
    0.2
    """

    UNIT_NAMES = {"word": "words", "char": "characters"}

    def __init__(self, grid: Mapping[tuple[str, int], FairnessRow], reference: tuple[str, int] | None = None):
        if not isinstance(grid, Mapping) or not grid:
            raise TypeError("grid must be a non-empty dict {(unit, min_count): FairnessRow}, see fairness_grid")
        self.grid = dict(grid)
        self.reference = next(iter(self.grid)) if reference is None else tuple(reference)
        if self.reference not in self.grid:
            raise ValueError(f"reference {self.reference!r} is not in the grid")
        units = list(dict.fromkeys(unit for unit, _ in self.grid))
        min_counts = sorted({m for _, m in self.grid})
        self.result: FairnessReport | None = None
        self.unit = widgets.Dropdown(options=[(self.UNIT_NAMES.get(u, u), u) for u in units],
                                     value=self.reference[0], description="unit")
        self.unit.add_class("lmcore-unit")
        self.min_count = widgets.Dropdown(options=min_counts, value=self.reference[1], description="min_count")
        self.min_count.add_class("lmcore-min-count")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            widgets.HTML(f'<div style="max-width: 50em; line-height: 1.4">{_FAIRNESS_HELP}</div>'),
            widgets.HBox([self.unit, self.min_count]),
            self.output,
        ])
        self.widget.add_class("lmcore-fairness-explorer")
        self.unit.observe(self._update, names="value")
        self.min_count.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_data(cls, data: Mapping[str, Sequence], min_counts: Sequence[int] = (1, 2, 5), order: int = 2,
                  reference: tuple[str, int] | None = None) -> FairnessExplorer:
        """Build the grid with :func:`fairness_grid` (one model fit per setting), then the explorer."""
        return cls(fairness_grid(data, min_counts, order), reference)

    def _update(self, change=None) -> None:
        key = (self.unit.value, self.min_count.value)
        if key not in self.grid:
            self.output.value = f'<p class="lmcore-message">No numbers for {html.escape(str(key))}.</p>'
            self.result = None
            return
        report = fairness_report(self.grid, *key, reference=self.reference)
        self.output.value = fairness_html(report)
        self.result = report
