"""Writing an lmcore n-gram model as an ARPA file: its backoff form, in log10.

A model in backoff form is a :class:`~lmcore.ngram.BackoffModel` (``backoff``): for every word w
never seen after a history h in training, P(w | h) = α(h) Q(w | h'), h' being h without its first
token. :func:`write_arpa` writes such a model and refuses any other with the reason. The format,
and how lmcore's models map onto it, are described with the reader, ``arpa_reader``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from lmcore.checks import check_bool, check_path
from lmcore.ngram.backoff import BackoffModel
from lmcore.ngram.model import NgramModel
from lmcore.text import BOS_ID, Vocabulary

__all__ = ["DIGITS", "LOG10_ZERO", "write_arpa"]

LOG10_ZERO = -99.0  # the format's stand-in for log10(0), used for <s>
DIGITS = 7  # decimals of each log10 value: 5e-8 rounding, far below the 1e-6 round trip


def _check_writable(model, exact) -> None:
    if not isinstance(model, BackoffModel):
        if not isinstance(model, NgramModel):
            raise TypeError(f"model must be an lmcore n-gram model in backoff form (KneserNey, AddK, Interpolated), "
                            f"got {type(model).__name__}")
        reason = getattr(model, "NO_BACKOFF_FORM", "it has no backoff form")
        raise TypeError(f"{type(model).__name__} cannot be written as an ARPA file: {reason}")
    exact = check_bool(exact, "exact")
    model.check_fitted()
    model.check_backoff_form(exact)
    convention = model.convention
    standard = convention.padding(model.order) == (model.order - 1, 1) and not convention.bos_outcome
    if not (standard and convention.open_vocabulary):
        raise ValueError(
            "model.convention must be the standard one (order - 1 <s> as context, one </s>, <unk> an outcome): "
            f"ARPA readers score sentences that way, got {convention}"
        )
    bad = [t for t in model.vocab.tokens if not t or any(c.isspace() for c in t)]
    if bad:
        raise ValueError(f"ARPA separates tokens by whitespace, which some vocabulary tokens hold, e.g. {bad[0]!r}")


def _entries(model, k: int) -> np.ndarray:
    """The k-grams the file lists, as (M, k) id rows: every outcome and ``<s>`` for k = 1, the
    seen k-grams for k >= 2 except those starting with ``<s> <s>``."""
    if k == 1:
        return np.r_[model.outcome_ids, BOS_ID][:, None]
    grams = model.counts.ngram_ids(k)
    return grams[~((grams[:, 0] == BOS_ID) & (grams[:, 1] == BOS_ID))]


def _padded(grams: np.ndarray, order: int) -> np.ndarray:
    """Rows of ``order`` ids, the k-gram in the last columns after ``<s>``: for a k-gram starting
    with ``<s>``, that is the whole padded sentence start the model saw."""
    rows = np.full((grams.shape[0], order), BOS_ID, dtype=np.int64)
    rows[:, order - grams.shape[1] :] = grams
    return rows


def _log10_probs(model, grams: np.ndarray) -> np.ndarray:
    """log10 of what the file holds for each listed k-gram (M, k)."""
    k, order = grams.shape[1], model.order
    rows = _padded(grams, order)
    full = np.full(grams.shape[0], k == order) | (grams[:, 0] == BOS_ID)
    probs = np.empty(grams.shape[0])
    if full.any():  # the model itself: the top order, or the sentence start after padding
        probs[full] = model.id_probs(rows[full], np.full(int(full.sum()), order - 1))
    if (~full).any():
        probs[~full] = model.lower_order_probs(rows[~full], k)
    if k == 1:
        probs[grams[:, 0] == BOS_ID] = 10.0**LOG10_ZERO
    if not (probs > 0).all():
        raise ValueError("the model gives an n-gram probability 0, which an ARPA file cannot hold")
    return np.log10(probs)


def _lines(vocab: Vocabulary, grams: np.ndarray, log10_probs: np.ndarray, log10_backoffs: np.ndarray | None,
           ) -> list[str]:
    """``log10 prob <tab> w_1 .. w_k [<tab> log10 backoff]`` for each row."""
    tokens = np.array(vocab.tokens, dtype=object)
    text = tokens[grams[:, 0]]
    for column in range(1, grams.shape[1]):
        text = text + " " + tokens[grams[:, column]]  # object arrays: str concatenation per row
    number = f"{{:.{DIGITS}f}}".format
    probs = map(number, log10_probs.tolist())
    if log10_backoffs is None:
        return [f"{p}\t{t}" for p, t in zip(probs, text)]
    # a k-gram that is no history gets no backoff column
    backoffs = ["" if math.isnan(b) else "\t" + number(b) for b in log10_backoffs.tolist()]
    return [f"{p}\t{t}{b}" for p, t, b in zip(probs, text, backoffs)]


def write_arpa(model: BackoffModel, path: str | Path, *, exact: bool = True) -> tuple[int, ...]:
    """Write a fitted ``model`` to ``path`` as an ARPA file; returns the n-gram count of each order.

    Which models can be written (the model's convention must be the standard one):

    - :class:`~lmcore.ngram.KneserNey`: its recursion is a backoff model, α(h) = γ(h),
      and each order's entries are its own P_k, so the file also agrees with the model
      on shorter contexts.
    - :class:`~lmcore.ngram.Interpolated` of order 1 or 2, exactly; of order 3 or more
      only with ``exact=False``. After a seen history h and an unseen (h, w), the top
      order's MLE is 0, so P(w | h) = Σ_{i<n} λ_i P_i(w | h_i) = Λ_{n-1} Q_{n-1}(w | h')
      with Q_k = Σ_{i<=k} λ_i P_i / Λ_k and Λ_k = λ_1 + .. + λ_k: the order-k entries
      hold Q_k and α(h) = Λ_k / Λ_{k+1} (the standard conversion). But after a history
      h never seen in training, lmcore gives the weight of the undefined orders to the
      highest defined one, Σ_{i<k} λ_i P_i + (λ_k + .. + λ_n) P_k(w | h'), which is not
      proportional to Q_k(w | h') (it weighs P_k more), while the reader, finding no h,
      uses Q_k(w | h'). One list of k-grams cannot hold both; exactness would need,
      for every seen history h, an n-gram for every word seen after h' (56 million
      extra trigrams for the English corpus's 330,000). With ``exact=False`` the file
      is the standard conversion: the model on every history seen in training, the
      recursive interpolation after the others. For order 2 the only unseen history is
      an unknown word, after which both give P_1. λ_1 = 0 (unseen words get
      probability 0) is refused.
    - :class:`~lmcore.ngram.AddK`: every n-gram unseen after h has the same
      k / (c(h) + k|V|), which depends on h only through c(h): it is α(h) = k|V| /
      (c(h) + k|V|) times a uniform 1/|V|. So it is compact after all: the lower orders
      hold the uniform 1/|V| (they are only ever backed off to, never the model's own
      lower-order add-k estimates) and the top order's histories carry α(h). Full
      contexts only, for that reason.
    - :class:`~lmcore.ngram.MLE`: refused. Unseen words and n-grams have probability 0;
      ARPA's only stand-in, -99, is read as 10**-99, so KenLM's perplexity would be
      finite where lmcore's is inf.

    Log-probabilities are written with 7 decimals. ``<unk>`` is always listed. KenLM
    reads files of order 2 or more only.
    """
    _check_writable(model, exact)
    check_path(path)
    order, vocab = model.order, model.vocab
    entries = [_entries(model, k) for k in range(1, order + 1)]
    sections = []
    for k, grams in enumerate(entries, start=1):
        backoffs = None
        if k < order:
            # a listed k-gram is a history when some listed (k+1)-gram starts with it
            histories = np.unique(model.counts.history_keys(entries[k][:, :-1], k))
            is_history = np.isin(model.counts.history_keys(grams, k), histories)
            backoffs = np.full(grams.shape[0], np.nan)
            with np.errstate(divide="ignore"):
                backoffs[is_history] = np.log10(model.backoff_weights(_padded(grams[is_history], order), k))
            if np.isneginf(backoffs).any():
                raise ValueError("the model gives a backoff weight 0, which an ARPA file cannot hold")
        sections.append(_lines(vocab, grams, _log10_probs(model, grams), backoffs))
    counts = tuple(len(lines) for lines in sections)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\\data\\\n" + "".join(f"ngram {k}={n}\n" for k, n in enumerate(counts, start=1)))
        for k, lines in enumerate(sections, start=1):
            f.write(f"\n\\{k}-grams:\n")
            f.write("\n".join(lines) + "\n")
        f.write("\n\\end\\\n")
    return counts
