"""Sliding-window evaluation: scoring a long text with a model that reads at most a window of tokens.

A Transformer reads a window of at most W tokens at a time. To score a text of N tokens,
the Hugging Face perplexity guide (https://huggingface.co/docs/transformers/perplexity)
slides the window along the text by a stride s <= W: windows start at 0, s, 2s, ...;
each *forward pass* computes the predictions of every position of its window, and scores
only the tokens the previous window did not (the last s, all W in the first window):

- s = W (disjoint chunks): N / W passes, but the first token of each chunk is predicted
  from nothing, the second from one token, ...: a worse score than the model can do;
- s = 1: every token (after the first W) is predicted from the W - 1 tokens before it, at
  the cost of N - W + 1 passes of W positions each.

A fixed-context model (:class:`lmcore.neural.NeuralLM`, k tokens) inside such a window
sees ``min(k, tokens before it inside its window)`` tokens of context; the rest is padded
with ``<s>``. Given each token's log-probability for every cut-off c = 0..k
(:meth:`lmcore.neural.NeuralLM.context_logprobs`, a (k + 1) x N table), any window and
stride is scored by a lookup, without running the model again (:func:`windowed_score`).

>>> plan = window_plan(10, window=4, stride=2)
>>> plan.starts.tolist(), plan.n_passes, plan.positions_computed
([0, 2, 4, 6], 4, 16)
>>> context_in_window(10, window=4, stride=2).tolist()      # tokens 0-3 by the first pass, then 2 each
[0, 1, 2, 3, 2, 3, 2, 3, 2, 3]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_int

__all__ = ["WindowPlan", "window_plan", "context_in_window", "WindowedScore", "windowed_score"]


def _check(n_tokens, window, stride) -> tuple[int, int, int]:
    n_tokens, window, stride = check_int(n_tokens, "n_tokens"), check_int(window, "window"), check_int(stride, "stride")
    if stride > window:
        raise ValueError(f"stride must be at most the window ({window}), got {stride}: "
                         "a longer stride would skip tokens")
    return n_tokens, window, stride


@dataclass(frozen=True)
class WindowPlan:
    """The forward passes of a sliding-window evaluation of ``n_tokens`` tokens.

    ``n_passes``: how many windows; ``positions_computed``: the predictions the passes compute in
    all (each window's length), the cost; ``positions_computed / n_tokens`` is how many times
    each token is computed on average. Both are formulas, so a plan of a billion tokens costs
    nothing; ``starts``, where each pass's window begins, is listed only when asked for.
    """

    n_tokens: int
    window: int
    stride: int
    n_passes: int
    positions_computed: int

    @property
    def starts(self) -> np.ndarray:
        """Where each pass's window begins: 0, stride, 2 stride, ... (``n_passes`` of them)."""
        return np.arange(self.n_passes, dtype=np.int64) * self.stride


def window_plan(n_tokens: int, window: int, stride: int) -> WindowPlan:
    """The passes of the Hugging Face loop: a window at 0, ``stride``, 2 ``stride``, ...
    until one reaches the end of the text.

        n_passes = 1 + ceil(max(0, N - W) / s)

    Introduced in notebooks/07_neural_models.ipynb, section "Fixed context windows".

    >>> window_plan(1000, 100, 100).n_passes, window_plan(1000, 100, 1).n_passes
    (10, 901)
    >>> window_plan(10**9, 1024, 1).n_passes        # a formula: nothing the size of the text is made
    999998977
    """
    n_tokens, window, stride = _check(n_tokens, window, stride)
    n_passes = 1 + -(-max(0, n_tokens - window) // stride)  # whole numbers: exact for any length
    # every pass but the last computes a whole window; the last one, from its start to the end
    last_start = (n_passes - 1) * stride
    computed = (n_passes - 1) * window + n_tokens - last_start
    return WindowPlan(n_tokens, window, stride, n_passes, computed)


def context_in_window(n_tokens: int, window: int, stride: int) -> np.ndarray:
    """For each token, how many tokens before it lie inside the window of the pass that scores it.

    The first pass scores tokens 0 .. W - 1 (token t sees t before it); every later pass, the
    last ``stride`` tokens of its window (token t at ``W - s .. W - 1`` inside it).

    >>> context_in_window(6, window=3, stride=3).tolist()      # disjoint chunks: 0, 1, 2 again and again
    [0, 1, 2, 0, 1, 2]
    """
    n_tokens, window, stride = _check(n_tokens, window, stride)
    # a window longer than the text is the whole text (so is its stride): the same contexts, in int64
    window = min(window, n_tokens)
    stride = min(stride, window)
    t = np.arange(n_tokens)
    later = t >= window
    # token t >= W is scored by the pass j = ceil((t - W + 1) / s), whose window starts at j s
    start = np.where(later, -(-(t - window + 1) // stride) * stride, 0)
    return t - start


@dataclass(frozen=True)
class WindowedScore:
    """A sliding-window evaluation: ``plan``, each token's context used and log-probability,
    and the totals (``perplexity`` per token, ``bits`` in all, ``full_share``: the share of
    tokens scored with all the context the model can use, as without windows)."""

    plan: WindowPlan
    context_used: np.ndarray
    logprobs: np.ndarray
    bits: float
    bits_per_token: float
    perplexity: float
    full_share: float


def windowed_score(table: ArrayLike, window: int, stride: int, positions: ArrayLike | None = None) -> WindowedScore:
    """Score the stream of a (k + 1) x N table (row c: each token's natural-log probability with
    c tokens of context) with windows of ``window`` tokens and ``stride``.

    Token t uses ``min(k, context_in_window(t), positions[t])`` tokens of context, where
    ``positions[t]`` counts the tokens before it in its sentence (the model sees ``<s>``
    before a sentence start, window or not); without ``positions`` the stream is one sentence.

    Introduced in notebooks/07_neural_models.ipynb, section "Fixed context windows".

    >>> table = np.log([[0.5, 0.5, 0.5], [0.5, 0.8, 0.8]])   # k = 1: context helps tokens 1 and 2
    >>> f"{windowed_score(table, 1, 1).perplexity:.4f}", f"{windowed_score(table, 2, 1).perplexity:.4f}"
    ('2.0000', '1.4620')
    """
    if isinstance(table, (str, bytes)):
        raise TypeError("table must be a (k + 1) x N array of log-probabilities, got str")
    try:
        array = np.asarray(table)
    except (TypeError, ValueError):  # ragged rows
        raise ValueError("table must be a (k + 1) x N array of log-probabilities: its rows differ in length") from None
    if array.dtype.kind not in "iuf":  # str, bool, object, complex
        raise TypeError(f"table must hold numbers (natural-log probabilities), got dtype {array.dtype}")
    table = array.astype(float)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 1:
        raise ValueError(f"table must be a (k + 1) x N array of log-probabilities, got shape {table.shape}")
    if np.any(table > 0) or np.isnan(table).any():
        raise ValueError("table must hold natural-log probabilities (all <= 0, no NaN)")
    k, n_tokens = table.shape[0] - 1, table.shape[1]
    if positions is None:
        positions = np.arange(n_tokens)
    positions = np.asarray(positions)
    if positions.shape != (n_tokens,) or not np.issubdtype(positions.dtype, np.integer) or (positions < 0).any():
        raise ValueError(f"positions must hold {n_tokens} integers >= 0, one per token of the table")
    plan = window_plan(n_tokens, window, stride)
    full = np.minimum(positions, k)  # all the context the model can use
    used = np.minimum(context_in_window(n_tokens, window, stride), full)
    logprobs = table[used, np.arange(n_tokens)]
    bits = -float(logprobs.sum()) / math.log(2) + 0.0
    per_token = bits / n_tokens
    perplexity = 2.0**per_token if per_token < 1024 else math.inf  # 2 ** 1024 is beyond the largest float
    return WindowedScore(plan, used, logprobs, bits, per_token, perplexity, float(np.mean(used == full)))
