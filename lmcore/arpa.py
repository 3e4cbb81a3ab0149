"""ARPA files: write an lmcore n-gram model in backoff form, and read one back.

An ARPA file lists, for each order k, n-grams with their log10 probability and,
for those that are histories of longer n-grams, a log10 backoff weight α. A reader
scores w after a history h of the model's order - 1 words by

    log10 P(w | h) = log10 p(h w)                       if "h w" is listed,
                   = log10 α(h) + log10 P(w | h')       otherwise (α = 1 if h is not listed),

with h' = h without its first word. Sentences start with one ``<s>`` (context only:
listed with probability -99, the format's "log10 0") and end with ``</s>`` (predicted);
a word missing from the 1-grams is scored as ``<unk>``. This is lmcore's standard
convention, and KenLM's ``Model.score(sentence, bos=True, eos=True)``.

An interpolated model is a backoff model in disguise when, for every n-gram (h, w)
never seen in training, P(w | h) = α(h) Q(w | h') for one lower-order distribution Q
shared by all h with the same h'. Then the file lists every seen n-gram with its
probability (the model's P at the top order, Q below), and every seen history with

    α(h) = (1 - Σ_{w seen after h} P(w | h)) / (1 - Σ_{w seen after h} Q(w | h'))

(:func:`write_arpa` takes α from each model's own formula instead: these sums lose
digits when they are close to 1). ``<s>`` padding: lmcore pads a model of order n
with n - 1 ``<s>``, an ARPA reader with one, so an n-gram of k words starting with
``<s>`` holds the model's probability after the whole padded history, and n-grams
starting with ``<s> <s>`` are not written.

KneserNey and AddK are written exactly, Interpolated exactly up to order 2 (and as the
standard conversion above that, on request), MLE not at all: :func:`write_arpa` says why.

>>> import os, tempfile
>>> from lmcore.ngram import KneserNey
>>> model = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
>>> path = os.path.join(tempfile.mkdtemp(), "toy.arpa")
>>> model.to_arpa(path)   # 1-grams: a b c <unk> </s> <s>; 2-grams: <s> a, a b, a c, b </s>, c </s>
(6, 5)
>>> round(read_arpa(path).prob("b", ["a"]), 6)   # 0.35, as the model itself
0.35
"""

from __future__ import annotations

import math
import os
from operator import itemgetter

import numpy as np

from lmcore.ngram import INT64_MAX, Convention, NgramModel, _keys, _lookup
from lmcore.util import gc_paused
from lmcore.vocab import BOS, BOS_ID, MARKERS, UNK_ID, Vocabulary

__all__ = ["ArpaModel", "read_arpa", "write_arpa"]

LOG10_ZERO = -99.0  # the format's stand-in for log10(0), used for <s>
DIGITS = 7  # decimals of each log10 value: 5e-8 rounding, far below the 1e-6 round trip


# --- writing ------------------------------------------------------------------------------


def _check_writable(model, exact) -> None:
    if not isinstance(model, NgramModel):
        raise TypeError(f"model must be an lmcore.ngram model, got {type(model).__name__}")
    if not isinstance(exact, bool):
        raise TypeError(f"exact must be True or False, got {exact!r}")
    model._check_fitted()
    model._check_backoff_form(exact)
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
        return np.r_[model._outcome_ids, BOS_ID][:, None]
    grams = model.counts.decode(model.counts.tables[k - 1].keys, k)
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
        probs[full] = model._probs(rows[full], np.full(int(full.sum()), order - 1))
    if (~full).any():
        probs[~full] = model._lower_order_probs(rows[~full], k)
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


def write_arpa(model, path, *, exact: bool = True) -> tuple[int, ...]:
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
    order, vocab = model.order, model.vocab
    entries = [_entries(model, k) for k in range(1, order + 1)]
    base = len(vocab)
    sections = []
    for k, grams in enumerate(entries, start=1):
        backoffs = None
        if k < order:
            # a listed k-gram is a history when some listed (k+1)-gram starts with it
            histories = np.unique(_keys(entries[k][:, :-1], k, base))
            is_history = np.isin(_keys(grams, k, base), histories)
            backoffs = np.full(grams.shape[0], np.nan)
            with np.errstate(divide="ignore"):
                backoffs[is_history] = np.log10(model._backoff_weights(_padded(grams[is_history], order), k))
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


# --- reading -------------------------------------------------------------------------------


class ArpaModel(NgramModel):
    """A backoff n-gram model read from an ARPA file (:func:`read_arpa`), queryable like lmcore's models.

    ``prob``/``logprob`` (natural log) with a context, ``next_word_distribution``,
    ``token_logprobs``/``score_tokens`` over sentences and ``generate`` work as for the
    fitted models, and :func:`lmcore.evaluate.evaluate` scores it. The convention is
    the format's: one ``<s>`` before each sentence (context only), one ``</s>`` after
    it (predicted), unknown words scored as ``<unk>`` (probability 0 if the file has no
    ``<unk>``; KenLM substitutes 10**-100 there). ``log10_probs[k - 1]`` and
    ``log10_backoffs[k - 1]`` hold the file's numbers, aligned with ``keys[k - 1]``
    (n-grams as base-|V| ids, as in :class:`lmcore.ngram.NgramTable`).
    """

    def __init__(self, vocab: Vocabulary, keys, log10_probs, log10_backoffs):
        order = len(keys)
        has_unk = bool((keys[0] == UNK_ID).any())
        super().__init__(order, convention=Convention(start_padding=1, end_markers=1, open_vocabulary=has_unk))
        self.vocab = vocab
        self.keys, self.log10_probs, self.log10_backoffs = tuple(keys), tuple(log10_probs), tuple(log10_backoffs)
        is_outcome = np.zeros(len(vocab), dtype=bool)
        is_outcome[keys[0]] = True
        is_outcome[BOS_ID] = False
        self._is_outcome, self._outcome_ids = is_outcome, np.flatnonzero(is_outcome)

    def fit(self, sentences, vocab=None, min_count: int = 1):
        raise TypeError("an ArpaModel is read from a file (read_arpa), not fitted")

    def _check_backoff_form(self, exact: bool) -> None:
        raise TypeError("an ArpaModel is already an ARPA file: copy the file instead of writing it again")

    def _probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        base = len(self.vocab)
        log10_p = np.full(grams.shape[0], -np.inf)
        longest = np.zeros(grams.shape[0], dtype=np.int64)  # order of the longest listed n-gram ending at w
        for k in range(1, self.order + 1):
            found = _lookup(self.keys[k - 1], self.log10_probs[k - 1], _keys(grams, k, base), default=np.nan)
            hit = (context_len >= k - 1) & ~np.isnan(found)
            log10_p[hit], longest[hit] = found[hit], k
        # every history longer than the one matched was backed off from: add its α
        for j in range(1, self.order):
            backed_off = (context_len >= j) & (longest <= j)
            if backed_off.any():
                alpha = _lookup(self.keys[j - 1], self.log10_backoffs[j - 1], _keys(grams[:, :-1], j, base))
                log10_p += np.where(backed_off, alpha, 0.0)
        return 10.0**log10_p


def _parse_error(path, line_number: int, message: str) -> ValueError:
    return ValueError(f"{os.fspath(path)}, line {line_number}: {message}")


def read_arpa(path) -> ArpaModel:
    """Read an ARPA file into an :class:`ArpaModel`.

    The file has a ``\\data\\`` header with ``ngram k=M`` lines, then for each k a
    ``\\k-grams:`` section of M lines ``log10_prob  w_1 .. w_k  [log10_backoff]``
    (fields separated by whitespace), and ``\\end\\``. Anything before ``\\data\\``
    is ignored. Every word must be listed as a 1-gram. A malformed file raises a
    ``ValueError`` naming the line.
    """
    with open(path, encoding="utf-8") as f, gc_paused():
        lines = [line.strip() for line in f]
        content = [i for i, line in enumerate(lines) if line]  # blank lines separate sections
        sections = _split_sections(path, lines, content)
        vocab = _vocabulary(path, lines, sections[0])
        ids = {token: i for i, token in enumerate(vocab.tokens)}
        if len(ids) ** len(sections) > INT64_MAX:
            raise ValueError(f"{os.fspath(path)}: {len(ids)} words at order {len(sections)} overflow lmcore's "
                             "int64 n-gram keys")
        parsed = [_parse_section(path, lines, rows, k, ids) for k, rows in enumerate(sections, start=1)]
    base = len(vocab)
    keys, probs, backoffs = [], [], []
    for k, (grams, log10_probs, log10_backoffs) in enumerate(parsed, start=1):
        k_keys = _keys(grams, k, base)
        by_key = np.argsort(k_keys, kind="stable")
        if (np.diff(k_keys[by_key]) == 0).any():
            raise ValueError(f"{os.fspath(path)}: a {k}-gram is listed twice")
        keys.append(k_keys[by_key])
        probs.append(log10_probs[by_key])
        backoffs.append(log10_backoffs[by_key])
    return ArpaModel(vocab, keys, probs, backoffs)


def _split_sections(path, lines: list[str], content: list[int]) -> list[list[int]]:
    """Check the layout; return, for each order, the indices of its n-gram lines."""

    def at(position: int) -> str:
        if position >= len(content):
            raise _parse_error(path, len(lines), "the file ends early (no \\end\\)")
        return lines[content[position]]

    def error(position: int, message: str) -> ValueError:
        return _parse_error(path, content[min(position, len(content) - 1)] + 1, message)

    if "\\data\\" not in lines:
        raise ValueError(f"{os.fspath(path)}: no \\data\\ line: not an ARPA file")
    cursor = content.index(lines.index("\\data\\")) + 1
    sizes = []
    while at(cursor).startswith("ngram "):
        k, _, count = at(cursor)[len("ngram ") :].partition("=")
        if not (k.strip().isdigit() and count.strip().isdigit() and int(k) == len(sizes) + 1):
            raise error(cursor, f"expected 'ngram {len(sizes) + 1}=<count>', got {at(cursor)!r}")
        sizes.append(int(count))
        cursor += 1
    if not sizes:
        raise error(cursor, "the \\data\\ header lists no 'ngram k=count' line")
    markers = [p for p in range(cursor, len(content)) if lines[content[p]].startswith("\\")] + [len(content)]
    sections = []
    for k, size in enumerate(sizes, start=1):
        if at(cursor) != f"\\{k}-grams:":
            raise error(cursor, f"expected the section \\{k}-grams:, got {at(cursor)!r}")
        found = markers[markers.index(cursor) + 1] - cursor - 1
        if found != size:
            raise error(cursor, f"the header says {size} {k}-grams, the section has {found}")
        sections.append(content[cursor + 1 : cursor + 1 + size])
        cursor += 1 + size
    if at(cursor) != "\\end\\":
        raise error(cursor, f"expected \\end\\ after {sizes[-1]} {len(sizes)}-grams (as the header says), "
                            f"got {at(cursor)!r}")
    return sections


def _vocabulary(path, lines: list[str], unigram_lines: list[int]) -> Vocabulary:
    unigrams = [lines[i].split()[1] if len(lines[i].split()) > 1 else "" for i in unigram_lines]
    if BOS not in unigrams:
        raise ValueError(f"{os.fspath(path)}: <s> is not among the 1-grams")
    try:
        return Vocabulary([w for w in unigrams if w not in MARKERS])
    except ValueError:
        raise ValueError(f"{os.fspath(path)}: a 1-gram is listed twice") from None


def _parse_section(path, lines: list[str], indices: list[int], k: int, ids: dict[str, int]):
    """``(ids as an (M, k) array, log10 probs, log10 backoffs)`` of one section's lines."""
    rows = [lines[i].split() for i in indices]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    for i in np.flatnonzero((lengths != k + 1) & (lengths != k + 2)):
        raise _parse_error(path, indices[i] + 1, f"expected a log10 probability, {k} words and maybe a backoff, "
                                                 f"got {lines[indices[i]]!r}")
    grams = np.empty((len(rows), k), dtype=np.int64)
    try:
        for j in range(k):
            grams[:, j] = np.fromiter(map(ids.__getitem__, map(itemgetter(j + 1), rows)), np.int64, len(rows))
    except KeyError as missing:
        raise ValueError(f"{os.fspath(path)}: the {k}-grams use {missing}, which is not a 1-gram") from None
    with_backoff = np.flatnonzero(lengths == k + 2)
    try:
        probs = np.array(list(map(itemgetter(0), rows)), dtype=float)
        backoffs = np.zeros(len(rows))
        backoffs[with_backoff] = np.array([rows[i][k + 1] for i in with_backoff], dtype=float)
    except ValueError:
        for i, fields in zip(indices, rows):
            for value in (fields[0], *fields[k + 1 :]):
                try:
                    float(value)
                except ValueError:
                    raise _parse_error(path, i + 1, f"{value!r} is not a number in {lines[i]!r}") from None
        raise
    return grams, probs, backoffs
