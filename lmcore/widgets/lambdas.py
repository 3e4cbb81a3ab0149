"""The λ explorer: interpolation weights of a trigram model against held-out perplexity.

What it teaches: a linearly interpolated model mixes unigram, bigram and trigram probabilities,
P(w | u, v) = λ1·P1(w) + λ2·P2(w | v) + λ3·P3(w | u, v), with weights summing to 1. Moving λ1 and λ2
(λ3 takes the rest) shows the held-out perplexity live, a map shows it for every allowed (λ1, λ2) with
EM's optimum marked, and the test set can be looked at once, at the end, not used for tuning. All weight
on an order that gives some token probability 0 makes perplexity ∞, and the explorer says which order to
give weight to (and keeps the test set's one use for weights that cannot give ∞).

The pattern, as in every explorer: pure compute (:func:`lambda_report`, :func:`perplexity_grid`,
:func:`wasted_test_set`) -> render (:func:`lambda_html`, :func:`render_lambda3`, and
:func:`lmcore.plots.lambda_triangle_map` for the map) -> thin wiring (:class:`LambdaExplorer`).

>>> report = lambda_report([[0.5, 0.0], [0.25, 0.5]], [0.5, 0.5])
>>> f"{report.perplexity:.4f}", report.message is None
('3.2660', True)
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import ArrayLike

from lmcore import plots
from lmcore.checks import check_int, check_number
from lmcore.i18n import Message, localised, tr, translatable
from lmcore.lm import Sentences
from lmcore.ngram import (
    EMTrace,
    Interpolated,
    check_order_probs,
    fit_interpolation_weights,
    interpolated_perplexity,
    interpolated_probs,
)
from lmcore.widgets.base import (
    INFINITY,
    SLIDER_TRACK_PX,
    Explorer,
    ExplorerFigure,
    format_number,
    help_box,
    picture_layout,
    readable,
    slider_layout,
    span,
)

__all__ = ["LambdaReport", "LambdaGrid", "lambda_report", "perplexity_grid", "lambda_html",
           "synthetic_order_probs", "wasted_test_set", "render_lambda3", "LambdaExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LambdaReport:
    """Perplexity of an interpolated model at weights ``lambdas`` on one set of tokens.

    ``perplexity`` is ``inf`` when ``n_impossible`` tokens get probability 0; ``reason`` then says why
    in words, and ``message`` is the sentence a student reads, ``"∞ — "`` followed by the reason (both
    ``None`` for a finite perplexity). Both are English; the explorer shows the reason in the course's
    language (``reason`` is a :class:`~lmcore.widgets.base.Message`).
    """

    lambdas: tuple[float, ...]
    perplexity: float
    cross_entropy: float  # bits per token
    n_tokens: int
    n_impossible: int
    reason: str | None

    @property
    def message(self) -> str | None:
        """``"∞ — <reason>"`` for an infinite perplexity, else ``None``."""
        return None if self.reason is None else f"{INFINITY} — {self.reason}"


def lambda_report(order_probs: ArrayLike, lambdas: Sequence[float] | np.ndarray,
                  data_name: str = translatable("held-out")) -> LambdaReport:
    """Perplexity of ``Σ_i λ_i p_i(token)`` over tokens, from per-order probabilities.

    ``order_probs`` has shape ``(n_tokens, order)`` (column ``i`` is order ``i + 1``'s probability of each
    token, as ``Interpolated.order_probs`` returns); ``lambdas`` are ``order`` non-negative weights summing
    to 1. The number is :func:`lmcore.evaluate.interpolated_perplexity`'s; this adds the count of
    impossible tokens and a message a student can read (``data_name`` names the tokens in it).

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Linear interpolation".

    >>> report = lambda_report([[0.5, 0.0], [0.25, 0.5]], [0.5, 0.5])
    >>> f"{report.perplexity:.4f}", report.n_impossible
    ('3.2660', 0)
    >>> lambda_report([[0.5, 0.0], [0.25, 0.5]], [0, 1]).message[:46]
    '∞ — some held-out token gets probability 0 und'
    """
    mixture = interpolated_probs(order_probs, lambdas)  # checks both arguments
    n_impossible = int((mixture <= 0).sum())
    if n_impossible:
        advice = _advice(np.asarray(order_probs, dtype=float))
        reason = Message(translatable(
            "some {data_name} token gets probability 0 under these weights ({n_impossible:,} of {n_tokens:,} "
            "tokens): every order with weight > 0 gives it probability 0.{advice}"),
            data_name=Message(data_name), n_impossible=n_impossible, n_tokens=int(mixture.size), advice=advice)
        perplexity = math.inf
    else:
        reason = None
        perplexity = float(interpolated_perplexity(order_probs, lambdas))
    return LambdaReport(tuple(float(w) for w in lambdas), perplexity,
                        math.log2(perplexity), int(mixture.size), n_impossible, reason)


def _advice(order_probs: np.ndarray) -> Message | str:
    """Which order to give weight to: one that never gives a token probability 0 ("" if none does)."""
    never_zero = [f"λ{i + 1}" for i in np.flatnonzero((order_probs > 0).all(axis=0))]
    if not never_zero:
        return ""
    orders = functools.reduce(lambda a, b: Message(translatable("{a} or {b}"), a=a, b=b), never_zero)
    return Message(translatable(" Give some weight to {orders}: that order never gives probability 0."), orders=orders)


def wasted_test_set(heldout_order_probs: ArrayLike, lambdas: Sequence[float] | np.ndarray) -> Message | None:
    """Why the one look at the test set would be wasted at ``lambdas``, or ``None``: its perplexity could
    only be ∞ where only orders that give some held-out token probability 0 have weight (λ1 = 0), or,
    if every order gives some, where the held-out perplexity is ∞. It reads the held-out set only.

    >>> wasted_test_set([[0.5, 0.0, 0.0], [0.25, 0.5, 1.0]], (0.0, 0.4, 0.6))[:34]
    'Not yet: at λ = (0.00, 0.40, 0.60)'
    """
    probs, weights = check_order_probs(heldout_order_probs, "heldout_order_probs"), np.asarray(lambdas, dtype=float)
    if weights.shape != (probs.shape[1],):
        raise ValueError(f"lambdas must have {probs.shape[1]} weights, one per order, got {len(weights)}")
    never_zero = (probs > 0).all(axis=0)
    if weights[never_zero].sum() > 0 if never_zero.any() else lambda_report(probs, weights).reason is None:
        return None
    return Message(translatable(
        "Not yet: at λ = ({lambdas}) only orders that give some tokens probability 0 have weight, so the "
        "test-set perplexity would be ∞ whatever the test set holds, and its one use would be wasted.{advice}"),
        lambdas=", ".join(f"{w:.2f}" for w in weights), advice=_advice(probs))


@dataclass(frozen=True)
class LambdaGrid:
    """Held-out perplexity on a grid of (λ1, λ2), λ3 = 1 − λ1 − λ2.

    ``perplexity[i, j]`` belongs to ``(lambda1[j], lambda2[i])``; NaN where λ1 + λ2 > 1, ``inf`` where some
    token gets probability 0.
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


def _check_three_orders(order_probs, name: str) -> np.ndarray:
    """:func:`lmcore.evaluate.check_order_probs`, plus the λ map's need: exactly 3 orders."""
    probs = check_order_probs(order_probs, name)
    if probs.shape[1] != 3:
        raise ValueError(f"{name} must have 3 columns (unigram, bigram, trigram), got {probs.shape[1]}")
    return probs


def perplexity_grid(order_probs: ArrayLike, step: float = 0.02, chunk_size: int = 4096) -> LambdaGrid:
    """:func:`lambda_report`'s perplexity at every grid point of the λ triangle, all at once.

    Made for a picture: identical rows of ``order_probs`` (frequent n-grams) are scored once and counted,
    and the arithmetic is single precision (about six significant digits), which makes the 1,326 points of
    a 0.02 grid over 100,000 tokens take seconds rather than many. Exact numbers: :func:`lambda_report`.

    >>> grid = perplexity_grid([[0.5, 0.0, 0.0], [0.25, 0.5, 1.0]], step=0.5)
    >>> grid.perplexity.shape, round(float(grid.perplexity[0, 2]), 4), float(grid.perplexity[2, 0])
    ((3, 3), 2.8284, inf)
    """
    order_probs = _check_three_orders(order_probs, "order_probs")
    step = check_number(step, "step", low=0, high=0.5, low_open=True)
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


def synthetic_order_probs(n_tokens: int = 5000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(heldout, test)`` arrays shaped like ``Interpolated.order_probs``, for demos and tests.

    The unigram column is never 0 (a smoothed unigram); the bigram and trigram columns are 0 for unseen
    contexts, as in a real corpus, and larger otherwise.

    >>> heldout, test = synthetic_order_probs(100)
    >>> heldout.shape, bool((heldout[:, 0] > 0).all()), bool((heldout[:, 2] == 0).any())
    ((100, 3), True, True)
    """
    n_tokens = check_int(n_tokens, "n_tokens")
    rng = np.random.default_rng(seed)

    def one_split() -> np.ndarray:
        unigram = np.exp(rng.normal(-7.0, 1.5, n_tokens)).clip(1e-7, 0.1)
        bigram_seen = rng.random(n_tokens) < 0.7
        bigram = np.where(bigram_seen, np.exp(rng.normal(-3.0, 1.5, n_tokens)).clip(1e-6, 1), 0.0)
        trigram_seen = bigram_seen & (rng.random(n_tokens) < 0.5)
        trigram = np.where(trigram_seen, np.exp(rng.normal(-1.5, 1.2, n_tokens)).clip(1e-6, 1), 0.0)
        return np.stack([unigram, bigram, trigram], axis=1)

    return one_split(), one_split()


# --- render ---------------------------------------------------------------------------------


def _perplexity_html(report: LambdaReport, css_class: str) -> str:
    """The report's perplexity, in bold, in a ``css_class`` span, followed by the reason when it is ∞."""
    shown = f"<b>{span(css_class, format_number(report.perplexity))}</b>"
    return shown if report.reason is None else f"{shown} — {html.escape(localised(report.reason))}"


def lambda_html(report: LambdaReport, best: tuple[tuple[float, ...], float] | None = None,
                         best_name: str = translatable("EM optimum")) -> str:
    """HTML for a held-out :class:`LambdaReport`; ``best`` is ``(lambdas, perplexity)`` to compare with.
    In the course's language (``best_name`` too: a text of the catalog or a
    :class:`~lmcore.widgets.base.Message`).

    >>> "3.2660" in lambda_html(lambda_report([[0.5, 0.0], [0.25, 0.5]], [0.5, 0.5]))
    True
    """
    shown = ", ".join(f"{w:.2f}" for w in report.lambdas)
    page = "<p>" + tr("Held-out perplexity at λ = ({lambdas}): {perplexity}", lambdas=shown,
                      perplexity=_perplexity_html(report, "lmcore-heldout-perplexity"))
    if report.reason is None:
        page += tr(" (cross-entropy {cross_entropy:.4f} bits per token, {n_tokens:,} tokens)",
                   cross_entropy=report.cross_entropy, n_tokens=report.n_tokens)
    page += "</p>"
    if best is not None:
        best_lambdas, best_perplexity = best
        page += "<p>" + tr("{name}: λ = ({lambdas}), perplexity {perplexity}.", name=html.escape(localised(best_name)),
                           lambdas=", ".join(f"{w:.2f}" for w in best_lambdas),
                           perplexity=format_number(best_perplexity)) + "</p>"
    return page


_TEST_SET_NOTE = translatable(
    "Why only once: the test set stands in for text nobody has seen yet. If you moved the "
    "sliders until this number looked good, you would be choosing λ on the test set, and the "
    "number would be optimistic: it would no longer tell how the model does on new text. "
    "Choose λ on the held-out set (as EM does), then look at the test set once, at the end.")


def _render_test_report(report: LambdaReport) -> str:
    """HTML for the one look at the test set, with the reason it is only one."""
    shown = ", ".join(f"{w:.2f}" for w in report.lambdas)
    return ("<p>" + tr("Test-set perplexity at λ = ({lambdas}): {perplexity}", lambdas=shown,
                       perplexity=_perplexity_html(report, "lmcore-test-perplexity")) + "</p>"
            f'<p style="max-width: 34em"><i>{html.escape(tr(_TEST_SET_NOTE))}</i></p>')


_LAMBDA3_NAME = translatable("λ3, trigram weight (1 − λ1 − λ2)")


def render_lambda3(value: float, description_px: int = 130) -> str:
    """λ3 = 1 − λ1 − λ2 as a slider that cannot move (a grey bar and its number): no control, so no tab stop;
    a screen reader reads a meter with its name and value, in the course's language.

    >>> 'role="meter" aria-label="λ3, trigram weight' in render_lambda3(0.6), "tabindex" in render_lambda3(0.6)
    (True, False)
    """
    shown, name = f"{value:.2f}", html.escape(tr(_LAMBDA3_NAME), quote=True)
    return (f'<div class="lmcore-lambda3-meter" role="meter" aria-label="{name}" aria-valuemin="0" aria-valuemax="1" '
            f'aria-valuenow="{shown}" aria-valuetext="{shown}" style="display: flex; align-items: center; '
            f'height: 28px; width: {description_px + SLIDER_TRACK_PX + 100}px; max-width: 100%; '  # as the sliders
            f'color: var(--jp-ui-font-color2, #757575)"><span style="width: {description_px}px; flex: none; '
            f'box-sizing: border-box; padding-right: 8px; text-align: right; white-space: nowrap">λ3 = 1 − λ1 − λ2'
            f'</span><span style="flex: 0 1 {SLIDER_TRACK_PX}px; min-width: 0; height: 4px; margin: 0 14px; '
            'position: relative; background: var(--jp-layout-color3, #bdbdbd); border-radius: 2px"><span style='
            f'"position: absolute; left: 0; top: 0; bottom: 0; width: {100 * value:.0f}%; background: '
            f'var(--jp-ui-font-color3, #9e9e9e)"></span></span><span class="lmcore-lambda3-value">{shown}</span></div>')


# --- wiring ---------------------------------------------------------------------------------

_LAMBDA_HELP = translatable(
    "<b>Interpolation:</b> P(w | u, v) = λ1·P<sub>1</sub>(w) + λ2·P<sub>2</sub>(w | v) + "
    "λ3·P<sub>3</sub>(w | u, v). The weights must sum to 1, so you move λ1 and λ2 and "
    "λ3 = 1 − λ1 − λ2 takes the rest (the grey bar). The map shows the held-out "
    "perplexity for every allowed (λ1, λ2): dark is low (good); the star is EM's choice, the circle yours.")


# What the figure shows, in words: its alt text (static picture) and its title (live explorer).
_FIGURE_ALT = translatable(
    "Map of the held-out perplexity over the weights λ1 and λ2 (λ3 takes the rest), the current weights marked.")


class LambdaExplorer(Explorer):
    """Interpolation weights of a trigram model: live held-out perplexity and a map of it.

    ``heldout_order_probs`` (and ``test_order_probs``) have shape ``(n_tokens, 3)``: the unigram, bigram
    and trigram probability of each predicted token, as ``Interpolated.order_probs`` gives them.
    ``em_lambdas`` are marked on the map; without them, EM (:func:`lmcore.evaluate.fit_interpolation_weights`)
    finds them on the held-out probabilities. All slow work (EM, the perplexity map on a grid of step
    ``grid_step``) happens here, once; a slider move only mixes three columns and moves a marker.

    Controls: ``lambda1``, ``lambda2`` (FloatSliders, named for a screen reader: "λ1, unigram weight"),
    ``test_button``; ``lambda3`` shows what they leave (:func:`render_lambda3`: no control, no tab stop).
    ``result`` is the last held-out :class:`LambdaReport`, ``test_result`` the test-set one after the
    button was clicked; where that use would be wasted (:func:`wasted_test_set`) it says why instead.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "The λ explorer".

    >>> heldout, test = synthetic_order_probs(2000)
    >>> explorer = LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3))
    >>> explorer.lambda1.value = 0.2
    >>> explorer.lambdas, explorer.result.perplexity == lambda_report(heldout, (0.2, 0.3, 0.5)).perplexity
    ((0.2, 0.3, 0.5), True)
    """

    def __init__(self, heldout_order_probs: ArrayLike, test_order_probs: ArrayLike | None = None,
                 em_lambdas: Sequence[float] | np.ndarray | None = None, *,
                 initial_lambdas: Sequence[float] | None = None, grid_step: float = 0.02, slider_step: float = 0.01):
        self.heldout = _check_three_orders(heldout_order_probs, "heldout_order_probs")
        self.test = None if test_order_probs is None else _check_three_orders(test_order_probs, "test_order_probs")
        # EM on the held-out arrays is what model.fit_lambdas(heldout) does; it takes milliseconds.
        self.em_trace: EMTrace | None = None
        if em_lambdas is None:
            self.em_trace = fit_interpolation_weights(self.heldout)
            em_lambdas = self.em_trace.lambdas
        self.em_lambdas = tuple(float(w) for w in em_lambdas)
        self.grid = perplexity_grid(self.heldout, grid_step)
        em_perplexity = lambda_report(self.heldout, self.em_lambdas).perplexity
        self._best = (self.em_lambdas, em_perplexity)
        self._best_name = (translatable("EM optimum") if self.em_trace is None
                           else Message(translatable("EM optimum ({iterations} iterations)"),
                                        iterations=self.em_trace.iterations))
        start = self._starting_point(initial_lambdas, slider_step)
        self.result: LambdaReport | None = None
        self.test_result: LambdaReport | None = None
        self._notice = ""

        def slider(description, value, css_class):
            # Mixing three columns and moving a marker takes milliseconds: follow the drag.
            layout, style = slider_layout(130)
            control = widgets.FloatSlider(
                value=value, min=0.0, max=1.0, step=slider_step, readout_format=".2f", description=description,
                continuous_update=True, style=style, layout=layout)
            control.add_class(css_class)
            return control

        self.lambda1 = slider(tr("λ1 (unigram)"), start[0], "lmcore-lambda1")
        self.lambda2 = slider(tr("λ2 (bigram)"), start[1], "lmcore-lambda2")
        self.lambda3 = widgets.HTML(render_lambda3(start[2]))
        self.lambda3.add_class("lmcore-lambda3")
        self.slider_names = {"lmcore-lambda1": tr("λ1, unigram weight"), "lmcore-lambda2": tr("λ2, bigram weight")}
        self.message = widgets.HTML()
        self.message.add_class("lmcore-message")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.test_button = widgets.Button(
            description=tr("Evaluate on the test set (once)"), layout=widgets.Layout(width="auto"),
            disabled=self.test is None,
            tooltip=tr("No test set was given") if self.test is None else tr("Use the test set once, at the end"))
        self.test_button.add_class("lmcore-test-button")
        self.test_output = widgets.HTML()
        self.test_output.add_class("lmcore-test-result")

        # The map is drawn once; an update only moves the "current" marker and re-encodes the PNG.
        self._map_figure = plots.lambda_triangle_map(
            self.grid.lambda1, self.grid.lambda2, self.grid.perplexity, current=start,
            optimum=self.em_lambdas, optimum_label=translatable("EM optimum"))
        plt.close(self._map_figure)  # out of pyplot's list: never shown twice, never piling up
        self._marker = next(line for line in self._map_figure.axes[0].lines if line.get_gid() == "current")
        self._redraw = plots.QuickRedraw(self._map_figure, [self._marker])
        self.map = ExplorerFigure(format="png", layout=picture_layout(), tooltip=tr(_FIGURE_ALT))
        self.map.add_class("lmcore-map")

        results = widgets.VBox([self.output, self.test_button, self.test_output],
                               layout=widgets.Layout(max_width="30em"))
        self.widget = widgets.VBox([help_box(tr(_LAMBDA_HELP), max_width="46em"), self.lambda1, self.lambda2,
                                    self.lambda3, self.message, widgets.HBox([self.map, results])])
        self.widget.add_class("lmcore-lambda-explorer")
        self.lambda1.observe(self._on_slider, names="value")
        self.lambda2.observe(self._on_slider, names="value")
        self.test_button.on_click(self._on_test)
        self._update()

    @classmethod
    def from_model(cls, model: Interpolated, heldout: Sentences, test: Sentences | None = None,
                   em_lambdas: Sequence[float] | np.ndarray | None = None, **kwargs: Any) -> LambdaExplorer:
        """An explorer for a fitted ``lmcore.ngram.Interpolated(3)`` model and held-out (and test) sentences.
        The model is not changed: EM runs on the explorer's copy of the held-out probabilities, as
        ``model.fit_lambdas(heldout)`` would.

        >>> from lmcore.ngram import Interpolated
        >>> from lmcore.text import TOY_TRAIN, TOY_TEST
        >>> explorer = LambdaExplorer.from_model(Interpolated(3).fit(TOY_TRAIN), TOY_TEST)
        >>> explorer.heldout.shape[1]
        3
        """
        return cls(model.order_probs(heldout), None if test is None else model.order_probs(test), em_lambdas, **kwargs)

    @staticmethod
    def _starting_point(initial_lambdas, slider_step: float) -> tuple[float, float, float]:
        # (λ1, λ2) or (λ1, λ2, λ3): λ3 is derived anyway. On the sliders' step: keyboard steps land on round numbers.
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
            self._notice = tr("λ1 + λ2 cannot exceed 1 (λ3 would be negative), so {name} stopped at {stop:.2f}.",
                              name=name, stop=stop)
            moved.value = stop
            return
        self._update()
        self._notice = ""

    def _update(self) -> None:
        lambdas = self.lambdas
        report = lambda_report(self.heldout, lambdas)
        self.lambda3.value = render_lambda3(lambdas[2])
        self._marker.set_data([lambdas[0]], [lambdas[1]])
        self.map.value = self._redraw.png()
        self.output.value = readable(lambda_html(report, self._best, self._best_name))
        self.message.value = readable(f"<p>{html.escape(self._notice)}</p>") if self._notice else ""
        self.result = report
        if self.test is not None and self.test_result is None:  # the button says why not yet before a press
            not_yet = wasted_test_set(self.heldout, lambdas)
            self.test_button.tooltip = localised(not_yet) if not_yet else tr("Use the test set once, at the end")
            if not not_yet and "lmcore-not-yet" in self.test_output.value:  # the reason went with the ∞
                self.test_output.value = ""

    def _on_test(self, button=None) -> None:
        if self.test is None or self.test_result is not None:
            return
        not_yet = wasted_test_set(self.heldout, self.lambdas)
        if not_yet is not None:  # the one use is kept: say why
            self.test_output.value = readable(f'<p class="lmcore-not-yet">{html.escape(localised(not_yet))}</p>')
            return
        report = lambda_report(self.test, self.lambdas, data_name=translatable("test"))
        self.test_output.value = readable(_render_test_report(report))
        self.test_button.disabled = True
        self.test_button.description = tr("Test set used (once)")
        self.test_result = report
