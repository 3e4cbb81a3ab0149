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
        self.min_count = min_count
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

    def __contains__(self, token: str) -> bool:
        return token in self._ids

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
        return self._ids.get(token, UNK_ID)

    def encode(self, sentence: Sequence[str]) -> np.ndarray:
        """Token list -> int32 id array (unknown words -> ``UNK_ID``); no markers added."""
        check_tokens(sentence, "sentence")
        return np.fromiter(map(self._ids.get, sentence, repeat(UNK_ID)), dtype=np.int32, count=len(sentence))

    def encode_all(self, sentences: Iterable[Sequence[str]]) -> list[np.ndarray]:
        return [self.encode(s) for s in sentences]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self.tokens[int(i)] for i in ids]

    def oov_rate(self, sentences: Iterable[Sequence[str]]) -> float:
        """Fraction of the tokens of ``sentences`` that are not in the vocabulary."""
        total = unknown = 0
        for sentence in _sentences(sentences):
            total += len(sentence)
            unknown += sum(t not in self._ids for t in sentence)
        if total == 0:
            raise ValueError("sentences has no tokens")
        return unknown / total
