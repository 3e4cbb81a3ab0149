"""The vocabulary: which tokens a model knows, and their integer ids.

A model's scores depend on what its vocabulary counts, so the counting rules are
properties here rather than habits elsewhere:

- ids ``0, 1, 2`` are ``<unk>``, ``<s>`` and ``</s>``; known words follow, most
  frequent first (ties alphabetical), so the same training text always gives the
  same ids;
- ``len(vocab)`` counts every id: the known words plus the three markers;
- ``vocab.n_words`` counts the known words only (no markers, no ``<unk>``).

The |V| that add-k smoothing divides by is not a property of the vocabulary but of the
model: the number of *outcomes* it predicts, ``len(model.outcomes)``, which depends on
the convention (with ``</s>`` and ``<unk>`` by default, without them in the course's
toy code, with ``<s>`` too under nltk's; see :class:`lmcore.ngram.Convention`).

>>> v = Vocabulary.build([["a", "b", "a"], ["c"]], min_count=2)
>>> v.words, len(v), v.n_words
(('a',), 4, 1)
>>> v.encode(["a", "c"]).tolist(), v.decode([3, 0, 2])
([3, 0], ['a', '<unk>', '</s>'])
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import repeat

import numpy as np

from lmcore.checks import check_int, check_sentences, check_tokens

UNK, BOS, EOS = "<unk>", "<s>", "</s>"
UNK_ID, BOS_ID, EOS_ID = 0, 1, 2
MARKERS = (UNK, BOS, EOS)


def _sentences(sentences) -> Sequence:
    """``sentences`` (any iterable of token lists, a generator too) as a sequence, checked."""
    if isinstance(sentences, Iterable) and not isinstance(sentences, (Sequence, str, bytes)):
        sentences = list(sentences)
    return check_sentences(sentences, "sentences", allow_empty=True)


class Vocabulary:
    """Token <-> id mapping built from training sentences only.

    Words seen fewer than ``min_count`` times in training become ``<unk>``.
    """

    def __init__(self, words: Sequence[str], min_count: int = 1):
        if isinstance(words, Iterable) and not isinstance(words, (Sequence, str, bytes)):
            words = list(words)  # a generator of words
        check_tokens(words, "words")
        self.min_count = check_int(min_count, "min_count")
        self.tokens: tuple[str, ...] = MARKERS + tuple(words)
        self._ids = {token: i for i, token in enumerate(self.tokens)}
        if len(self._ids) != len(self.tokens):
            raise ValueError("words must be distinct and must not contain <unk>, <s> or </s>")

    @classmethod
    def build(cls, sentences: Iterable[Sequence[str]], min_count: int = 1) -> Vocabulary:
        """Vocabulary of the words occurring at least ``min_count`` times in ``sentences``."""
        min_count = check_int(min_count, "min_count")
        counts: Counter[str] = Counter()
        for sentence in _sentences(sentences):
            counts.update(sentence)
        if not counts:
            raise ValueError("sentences is empty: a vocabulary needs training text")
        for marker in MARKERS:
            counts.pop(marker, None)
        kept = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
        return cls(kept, min_count)

    def __len__(self) -> int:
        return len(self.tokens)

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and token in self._ids

    def __repr__(self) -> str:
        return f"Vocabulary({self.n_words} words + <unk>, <s>, </s>; min_count={self.min_count})"

    @property
    def words(self) -> tuple[str, ...]:
        """The known words, without ``<unk>``, ``<s>`` and ``</s>``."""
        return self.tokens[len(MARKERS):]

    @property
    def n_words(self) -> int:
        """The number of known words, without ``<unk>``, ``<s>`` and ``</s>``."""
        return len(self.tokens) - len(MARKERS)

    def id(self, token: str) -> int:
        """The id of ``token``; ``<unk>``'s id for a word outside the vocabulary."""
        if not isinstance(token, str):
            raise TypeError(f"token must be a str, got {type(token).__name__}")
        return self._ids.get(token, UNK_ID)

    def encode(self, sentence: Sequence[str]) -> np.ndarray:
        """Token list -> int32 id array (unknown words -> ``UNK_ID``); no markers added."""
        check_tokens(sentence, "sentence")
        return np.fromiter(map(self._ids.get, sentence, repeat(UNK_ID)), dtype=np.int32, count=len(sentence))

    def encode_all(self, sentences: Iterable[Sequence[str]]) -> list[np.ndarray]:
        """Each token list of ``sentences`` -> its int32 id array (:meth:`encode`)."""
        if isinstance(sentences, Iterable) and not isinstance(sentences, (Sequence, str, bytes)):
            sentences = list(sentences)
        return [self.encode(s) for s in check_sentences(sentences, "sentences", allow_empty=True, tokens=False)]

    def decode(self, ids: Iterable[int]) -> list[str]:
        """Ids -> tokens. Each id must be an int of this vocabulary, ``0 .. len(self) - 1``: a
        negative id is refused, not read from the end.

        >>> Vocabulary(["a"]).decode([3, 2]), Vocabulary(["a"]).decode(np.array([0]))
        (['a', '</s>'], ['<unk>'])
        >>> Vocabulary(["a"]).decode([-1])
        Traceback (most recent call last):
        ...
        ValueError: ids holds -1, which is not an id of this vocabulary (0..3)
        """
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
            raise TypeError(f"ids must be a sequence of int ids, got {type(ids).__name__}")
        if isinstance(ids, np.ndarray):
            if ids.ndim != 1:
                raise ValueError(f"ids must be one-dimensional, got shape {ids.shape}")
            if ids.size and not np.issubdtype(ids.dtype, np.integer):
                raise TypeError(f"ids must hold int ids, got dtype {ids.dtype}")
            values = ids.tolist()
        else:
            values = list(ids)
            for i in values:
                if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
                    raise TypeError(f"ids must hold int ids, got {type(i).__name__} {i!r}")
        size = len(self.tokens)
        for i in values:
            if not 0 <= i < size:
                raise ValueError(f"ids holds {i}, which is not an id of this vocabulary (0..{size - 1})")
        return [self.tokens[i] for i in values]

    def oov_rate(self, sentences: Iterable[Sequence[str]]) -> float:
        """Fraction of the tokens of ``sentences`` that are not in the vocabulary."""
        total = unknown = 0
        for sentence in _sentences(sentences):
            total += len(sentence)
            unknown += sum(t not in self._ids for t in sentence)
        if total == 0:
            raise ValueError("sentences has no tokens")
        return unknown / total
