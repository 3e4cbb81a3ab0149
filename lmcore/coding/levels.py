"""A language model's next-token probabilities as the rows an arithmetic coder needs.

To code a token, a coder needs the whole distribution it was drawn from, in a fixed
order: the token's share of the interval depends on the probabilities of all the tokens
before it. For a vocabulary of 12,000 words that is 12,000 probabilities per token;
asking an n-gram model for all of them (``method="dense"``) costs about 10 ms per token.

A model that backs off to its own lower orders (``model.backs_off``: Kneser-Ney) allows far
less (``method="backoff"``):

    P(v | h) = β(h) · P(v | h')   for every v never seen after h in training,

where h' is h without its first token. So a token is coded in levels, from the full
history down to none: at level k (the last k tokens of the history), a row holds the
probability of each word seen after those k tokens (except those the level above already
offered) and one *escape* entry with the rest of the probability. The token is coded at the
first level that offers it; above it, the escape. Level 0 offers every remaining outcome,
in proportion to the model's probabilities without context. The product of a token's
row shares is exactly the model's P(token | history): :func:`lmcore.coding.encode` checks
that it is. Only the words seen after each history are ever looked up, and each history's
row is computed once: a few dozen probabilities per coded token on the English corpus,
instead of 12,000.

Each row is a float array (the coder normalises it) and an index into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from lmcore.lm import LanguageModel, check_language_model, check_model_probs, model_context
from lmcore.text import BOS_ID

__all__ = ["CODE_POINTS", "METHODS", "Predictor", "check_coding_model"]

CODE_POINTS = 0x110000  # every Unicode code point, U+0000 to U+10FFFF
METHODS = ("auto", "backoff", "dense")
_DENSE_CACHE = 4096  # histories whose whole distribution is kept (dense method)


def check_coding_model(model: object, name: str) -> None:
    """Raise unless ``model`` is a fitted lmcore language model that predicts one ``</s>`` after
    each sentence and never ``<s>``.

    >>> from lmcore.ngram import AddK
    >>> check_coding_model(AddK(2, convention="course").fit([["a", "b"]]), "model")
    Traceback (most recent call last):
    ...
    ValueError: model must predict exactly one </s> after each sentence, so that the decoder knows where ...
    """
    check_language_model(model, name)
    _, end = model.sentence_padding
    if end != 1:
        raise ValueError(f"{name} must predict exactly one </s> after each sentence, so that the decoder knows "
                         f"where a sentence ends; its convention adds {end}: use convention='standard'")
    if BOS_ID in model.outcome_ids:
        raise ValueError(f"{name} treats <s> as an outcome (nltk's convention): use convention='standard'")


class Predictor:
    """The coding rows of one model: :meth:`rows` to encode a token, :meth:`decode` to get it back.

    ``method``: ``"backoff"`` (levels, for a model fitted on counts that backs off to its own
    lower orders: Kneser-Ney), ``"dense"`` (the whole distribution, any
    :class:`lmcore.lm.LanguageModel`: n-gram, ARPA or neural) or ``"auto"`` (backoff for a model
    whose ``backs_off`` is true, dense otherwise).
    A token's shares of its rows multiply to the model's probability of it:

    >>> from lmcore.ngram import KneserNey
    >>> model = KneserNey(2).fit([["a", "b"], ["a", "c"], ["b"]])
    >>> predictor = Predictor(model)
    >>> rows = predictor.rows(predictor.context([model.vocab.id("a")]), model.vocab.id("a"))  # "a" after "a"
    >>> len(rows), [len(row) for row, _ in rows]   # escape from {b, c} seen after "a", then the rest
    (2, [3, 3])
    >>> share = np.prod([row[i] / row.sum() for row, i in rows])
    >>> bool(np.isclose(share, model.prob("a", ["a"])))
    True
    """

    def __init__(self, model: LanguageModel, method: str = "auto"):
        check_language_model(model)
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        self.model = model
        self.backoff = method == "backoff" or (method == "auto" and model.backs_off)
        if self.backoff and getattr(model, "counts", None) is None:
            raise TypeError("method='backoff' needs a model's training counts (an n-gram model fitted with "
                            "lmcore.ngram): use method='dense'")
        self.order = model.context_length + 1
        self.base = len(model.vocab)
        self.outcomes = np.asarray(model.outcome_ids, dtype=np.int64)  # sorted vocabulary ids
        self.position = np.full(self.base, -1, dtype=np.int64)
        self.position[self.outcomes] = np.arange(self.outcomes.size)
        self.cache: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, float]] = {}
        self.background = self._probs((), self.outcomes)  # P(v) with no context, over the outcomes

    # -- the model's numbers

    def _probs(self, context: tuple[int, ...], ids: np.ndarray) -> np.ndarray:
        """P(id | context) for each of ``ids`` (the model's own id_probs, ``context`` its last tokens)."""
        grams = np.full((ids.size, self.order), BOS_ID, dtype=np.int64)
        if context:
            grams[:, self.order - 1 - len(context) : self.order - 1] = context
        grams[:, -1] = ids
        return check_model_probs(self.model, self.model.id_probs(grams, np.full(ids.size, len(context))))

    def _compute(self, suffixes: Sequence[tuple[int, ...]]) -> None:
        """Fill the cache for ``suffixes`` (distinct, not cached, none empty) with one call of the model:
        the words seen after each (the model's counts say which), with their probabilities."""
        if len(suffixes) == 1:  # one history, as the decoder asks: the short way
            (suffix,) = suffixes
            _, ids, _ = self.model.counts.continuations(np.array([suffix], dtype=np.int64))
            ids = ids[self.position[ids] >= 0]  # outcomes only (never <s>)
            probs = self._probs(suffix, ids)
            self.cache[suffix] = (ids, probs, float(probs.sum()))
            return
        grams, lengths, owners, counts = [], [], [], []
        for k in sorted({len(s) for s in suffixes}):
            group = [s for s in suffixes if len(s) == k]
            context = np.array(group, dtype=np.int64).reshape(len(group), k)
            owner, ids, _ = self.model.counts.continuations(context)
            is_outcome = self.position[ids] >= 0  # never <s>
            ids, owner = ids[is_outcome], owner[is_outcome]
            block = np.full((ids.size, self.order), BOS_ID, dtype=np.int64)
            block[:, self.order - 1 - k : self.order - 1] = context[owner]
            block[:, -1] = ids
            grams.append(block)
            lengths.append(np.full(ids.size, k))
            counts.append(np.bincount(owner, minlength=len(group)))
            owners.extend(group)
        probs = check_model_probs(self.model, self.model.id_probs(np.concatenate(grams), np.concatenate(lengths)))
        ids = np.concatenate(grams)[:, -1]
        edges = np.cumsum(np.concatenate(counts))[:-1]
        for suffix, suffix_ids, suffix_probs in zip(owners, np.split(ids, edges), np.split(probs, edges)):
            self.cache[suffix] = (suffix_ids, suffix_probs, float(suffix_probs.sum()))

    def prepare(self, contexts: Iterable[tuple[int, ...]]) -> None:
        """Compute, in a few calls of the model, every level the ``contexts`` will need (backoff method)."""
        if not self.backoff:
            return
        wanted = {c[len(c) - k :] for c in set(contexts) for k in range(1, len(c) + 1)}
        missing = [s for s in wanted if s not in self.cache]
        if missing:
            self._compute(missing)

    def _dense(self, context: tuple[int, ...]) -> np.ndarray:
        found = self.cache.get(context)
        if found is None:
            if len(self.cache) >= _DENSE_CACHE:
                self.cache.clear()
            probs = self._probs(context, self.outcomes)
            found = self.cache[context] = (self.outcomes, probs, 1.0)
        return found[1]

    # -- framing

    def context(self, prefix: Sequence[int]) -> tuple[int, ...]:
        """The ids the model conditions on after ``prefix`` (the sentence's ids so far), with ``<s>``
        padding: :func:`lmcore.lm.model_context` of ids."""
        return model_context(self.model, prefix, start=BOS_ID)

    # -- coding

    def _levels(self, context: tuple[int, ...]):
        """Yield (row ids, row probabilities incl. the escape last) from the longest history down to none."""
        missing = [context[len(context) - k :] for k in range(1, len(context) + 1)
                   if context[len(context) - k :] not in self.cache]
        if missing:
            self._compute(missing)
        excluded = np.zeros(0, dtype=np.int64)
        for k in range(len(context), 0, -1):
            ids, probs, total = self.cache[context[len(context) - k :]]
            offered, offered_probs = ids, probs
            if excluded.size and ids.size:
                # the words of the level above are offered there: here only the others
                at = np.minimum(np.searchsorted(ids, excluded), ids.size - 1)
                keep = np.ones(ids.size, dtype=bool)
                keep[at[ids[at] == excluded]] = False
                offered, offered_probs = ids[keep], probs[keep]
            # the escape holds what the model gives the words not seen after this history
            yield offered, np.append(offered_probs, max(1.0 - total, 0.0))
            excluded = ids  # the words seen after a history are seen after its suffixes too
        keep = np.ones(self.outcomes.size, dtype=bool)
        keep[self.position[excluded]] = False
        yield self.outcomes[keep], self.background[keep]

    def rows(self, context: tuple[int, ...], token_id: int) -> list[tuple[np.ndarray, int]]:
        """The rows and indices that code ``token_id`` after ``context``: their shares multiply to P(token)."""
        if self.position[token_id] < 0:
            raise ValueError(f"token id {token_id} is not an outcome of the model")
        if not self.backoff:
            return [(self._dense(context), int(self.position[token_id]))]
        rows = []
        for offered, row in self._levels(context):
            index = int(np.searchsorted(offered, token_id))
            found = index < offered.size and offered[index] == token_id
            rows.append((row, index if found else offered.size))
            if found:
                return rows
        raise AssertionError("level 0 offers every outcome")  # pragma: no cover

    def decode(self, context: tuple[int, ...], read: Callable[[np.ndarray], int]) -> int:
        """The token id after ``context``, given ``read(row) -> index`` that takes each row's index from the coder."""
        if not self.backoff:
            return int(self.outcomes[read(self._dense(context))])
        for offered, row in self._levels(context):
            index = read(row)
            if index < offered.size:
                return int(offered[index])
        raise ValueError("the data escaped past every level: these are not bytes this model coded")

