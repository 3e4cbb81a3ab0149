"""The course's toy corpus (:data:`TOY_TRAIN`, :data:`TOY_TEST`) and deterministic
train/held-out/test splits (:func:`split_indices`, :func:`split_sentences`).

>>> split_indices(10, heldout=0.2, test=0.2, shuffle=False)
Split(train=array([0, 1, 2, 3, 4, 5]), heldout=array([6, 7]), test=array([8, 9]))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from lmcore.checks import check_bool, check_int, check_number

__all__ = ["TOY_TRAIN", "TOY_TEST", "Split", "split_indices", "split_sentences"]

# ---------------------------------------------------------------------------
# The course's toy corpus
# ---------------------------------------------------------------------------

#: Training sentences of the course's running example (tuples, so that no
#: notebook can change them for the chapters that follow).
TOY_TRAIN: tuple[tuple[str, ...], ...] = (
    ("i", "spent", "three", "years"),
    ("before", "the", "mast"),
    ("i", "spent", "money"),
)
#: The test sentence of the running example, as a one-sentence corpus.
TOY_TEST: tuple[tuple[str, ...], ...] = (("i", "spent", "three", "years", "before", "the", "mast"),)


# ---------------------------------------------------------------------------
# Splits
# ---------------------------------------------------------------------------


class Split(NamedTuple):
    """Train, held-out and test parts: lists of sentences, or index arrays from :func:`split_indices`."""

    train: Sequence
    heldout: Sequence
    test: Sequence


def split_indices(n: int, heldout: float = 0.1, test: float = 0.1, seed: int = 0, shuffle: bool = True) -> Split:
    """Indices ``0..n-1`` divided into train, held-out and test parts (numpy int arrays).

    The test part has ``round(test * n)`` indices, the held-out part
    ``round(heldout * n)``, training the rest; the parts never overlap and
    together cover every index.

    - ``shuffle=True``: the indices are permuted with
      ``numpy.random.default_rng(seed)``, then the test part is taken first,
      then the held-out part. Shuffling sentences mixes books and genres, which
      is what an i.i.d. test set needs; each part stays in shuffled order, so a
      prefix of the training part is itself a random sample. The test part does
      not depend on ``heldout``.
    - ``shuffle=False``: contiguous blocks, training first and the test part
      last (the test text then comes from the end of the corpus).

    The same arguments always give the same split.

    >>> split_indices(5, heldout=0.2, test=0.2, seed=0)
    Split(train=array([3, 0, 1]), heldout=array([4]), test=array([2]))
    """
    n = check_int(n, "n")
    heldout = check_number(heldout, "heldout", low=0, high=1, high_open=True)
    test = check_number(test, "test", low=0, high=1, high_open=True)
    if heldout + test >= 1:
        raise ValueError(f"heldout + test must be below 1 to leave training data, got {heldout + test}")
    shuffle = check_bool(shuffle, "shuffle")
    n_test, n_heldout = round(test * n), round(heldout * n)
    if n - n_test - n_heldout < 1:
        raise ValueError(f"n={n} is too small: the training part would be empty")
    if shuffle:
        order = np.random.default_rng(seed).permutation(n)
        return Split(order[n_test + n_heldout :], order[n_test : n_test + n_heldout], order[:n_test])
    order = np.arange(n)
    n_train = n - n_test - n_heldout
    return Split(order[:n_train], order[n_train : n_train + n_heldout], order[n_train + n_heldout :])


def split_sentences(
    sentences: Sequence, heldout: float = 0.1, test: float = 0.1, seed: int = 0, shuffle: bool = True
) -> Split:
    """Divide ``sentences`` into train, held-out and test lists by sentence.

    Sizes are fractions of the number of sentences (not tokens); see
    :func:`split_indices` for how shuffling and ``seed`` work. The lists hold
    the given sentence objects themselves, not copies.

    Introduced in notebooks/04_perplexity.ipynb, section "Why test on unseen text".

    >>> split_sentences([["a"], ["b"], ["c"], ["d"], ["e"]], heldout=0.2, test=0.2)
    Split(train=[['d'], ['a'], ['b']], heldout=[['e']], test=[['c']])
    """
    if isinstance(sentences, str) or not isinstance(sentences, Sequence):
        raise TypeError(f"sentences must be a list of sentences, got {type(sentences).__name__}")
    if len(sentences) == 0:
        raise ValueError("sentences is empty: nothing to split")
    for i, sentence in enumerate(sentences):  # the tokens are checked by whoever reads them
        if type(sentence) not in (list, tuple) and not isinstance(sentence, Sequence):  # lists: the fast way
            raise TypeError(f"sentences[{i}] must be a sentence (a list of tokens), got {type(sentence).__name__}")
    parts = split_indices(len(sentences), heldout=heldout, test=test, seed=seed, shuffle=shuffle)
    return Split(*([sentences[i] for i in part] for part in parts))
