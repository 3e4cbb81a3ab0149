"""What the benchmark scripts share: the corpus split, a timer, and nltk.lm's padded n-gram pipelines.

Imported as ``from common import ...``: ``python benchmarks/NAME.py`` puts this
directory first on ``sys.path``, so every script in it finds this module without
installing anything.

- :func:`course_split`: a corpus split by sentence 80 / 10 / 10 with seed 0, the split
  every benchmark reports on (and the chapters use), so their numbers can be compared.
- :func:`timed`: the best wall-clock time of a few runs, which keeps other programs on
  the machine from inflating a measurement.
- :func:`nltk_ngrams`, :func:`nltk_fit`: nltk.lm's conventions for scoring and fitting
  (``pad_both_ends``, ``padded_everygram_pipeline``), so that every comparison with
  nltk feeds it the same padded n-grams.
"""

from __future__ import annotations

import math
import time

from nltk.lm.preprocessing import pad_both_ends, padded_everygram_pipeline
from nltk.util import ngrams

from lmcore.text import Split, load_corpus, split_sentences


def course_split(name: str = "english", unit: str = "word") -> Split:
    """Corpus ``name`` as tokenized sentences, split 80 / 10 / 10 (train / held-out / test) with seed 0."""
    return split_sentences(load_corpus(name, unit=unit), heldout=0.1, test=0.1, seed=0)


def timed(function, *args, repeat: int = 1):
    """``(result, best time in seconds over repeat runs)``: the result is the last run's."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        result = function(*args)
        best = min(best, time.perf_counter() - start)
    return result, best


def nltk_ngrams(sentences, order: int) -> list[tuple[str, ...]]:
    """Every ``order``-gram nltk.lm scores for ``sentences``: each padded with ``order - 1`` ``<s>`` and ``</s>``."""
    return [gram for sentence in sentences for gram in ngrams(pad_both_ends(sentence, n=order), order)]


def nltk_fit(model_class, order: int, train):
    """An nltk.lm model of ``model_class(order)`` fitted on ``train`` with ``padded_everygram_pipeline``."""
    model = model_class(order)
    model.fit(*padded_everygram_pipeline(order, train))
    return model
