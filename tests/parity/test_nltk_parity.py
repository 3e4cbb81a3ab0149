"""lmcore and nltk.lm agree once nltk's conventions are selected (``convention="nltk"``).

nltk's pipeline: ``padded_everygram_pipeline(n, train)`` pads each sentence with n - 1
``<s>`` and n - 1 ``</s>`` and builds a vocabulary whose length counts ``<UNK>``, ``<s>``
and ``</s>``; a test sentence is scored as ``ngrams(pad_both_ends(s, n), n)``; add-k
divides by c(h) counted as a history plus k len(vocab).
"""

import math

import nltk.lm as nltk_lm
import numpy as np
import pytest
from nltk.lm.preprocessing import pad_both_ends, padded_everygram_pipeline
from nltk.util import everygrams, ngrams

from lmcore.evaluate import evaluate
from lmcore.ngram import MLE, AddK, Convention
from lmcore.text import TOY_TEST, TOY_TRAIN


def nltk_perplexity(model, test, order):
    if order == 1:  # nltk pads only for n > 1
        return model.perplexity([(w,) for s in test for w in s])
    return model.perplexity([g for s in test for g in ngrams(pad_both_ends(s, n=order), order)])


def nltk_fit(cls, order, train, *args):
    model = cls(*args, order)
    model.fit(*padded_everygram_pipeline(order, train))
    return model


def random_corpus(rng, n_sentences, words):
    return [list(rng.choice(words, size=rng.integers(1, 8))) for _ in range(n_sentences)]


# 30 cases: each kind of model at orders 1, 2 and 3 in turn, on a fresh random corpus
KINDS = ("mle", "laplace", "lidstone")
CASES = [(kind, 1 + (seed + shift) % 3, seed) for seed in range(10) for shift, kind in enumerate(KINDS)]


@pytest.mark.parametrize(("kind", "order", "seed"), CASES)
def test_perplexity_equals_nltk(kind, order, seed):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(rng.integers(3, 12))]
    train = random_corpus(rng, int(rng.integers(3, 25)), words)
    if kind == "mle":  # MLE is finite only on text made of seen n-grams
        test = [train[i] for i in rng.choice(len(train), size=3)]
        ours, theirs = MLE(order, convention="nltk"), nltk_fit(nltk_lm.MLE, order, train)
    else:
        test = random_corpus(rng, 5, words + ["unseen-word"])
        gamma = 1.0 if kind == "laplace" else float(rng.uniform(0.05, 2))
        ours = AddK(order, gamma, convention="nltk")
        if kind == "laplace":
            theirs = nltk_fit(nltk_lm.Laplace, order, train)
        else:
            theirs = nltk_fit(nltk_lm.Lidstone, order, train, gamma)
    ours.fit(train)
    assert len(ours.outcomes) == len(theirs.vocab)
    expected = nltk_perplexity(theirs, test, order)
    assert math.isfinite(expected)
    assert evaluate(ours, test).perplexity == pytest.approx(expected, rel=1e-9)


def test_mle_on_an_unseen_ngram_is_inf_in_both():
    train = [["a", "b", "c"], ["b", "a"]]
    test = [["c", "a"]]
    result = evaluate(MLE(2, convention="nltk").fit(train), test)
    assert result.perplexity == nltk_perplexity(nltk_fit(nltk_lm.MLE, 2, train), test, 2) == math.inf
    assert result.zero_probability_tokens == ((0, 0, "c"), (0, 1, "a"))  # no sentence starts with c; a never follows c


def test_toy_corpus_numbers_of_nltk():
    train, test = [list(s) for s in TOY_TRAIN], [list(s) for s in TOY_TEST]
    # unigram: no padding, |V| = 8 words + <UNK> = 9
    nltk_unigram = nltk_fit(nltk_lm.Laplace, 1, train)
    assert round(nltk_perplexity(nltk_unigram, test, 1), 4) == 8.4608
    assert round(evaluate(AddK(1, convention="nltk").fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 8.4608
    # bigram as the course frames it (no padding, first word by the unigram model), |V| = 9
    unpadded = nltk_lm.Laplace(2)
    unpadded.fit([everygrams(s, max_len=2) for s in train], [w for s in train for w in s])
    sentence = test[0]
    bigrams = zip(sentence, sentence[1:])
    logprob = math.log2(unpadded.score(sentence[0])) + sum(unpadded.logscore(w, [h]) for h, w in bigrams)
    assert round(2 ** (-logprob / len(sentence)), 4) == 5.4547
    open_course = Convention(start_padding=0, end_markers=0)  # the course's framing, <unk> counted in |V|
    assert round(evaluate(AddK(2, convention=open_course).fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 5.4547
    # bigram with nltk's own padding: |V| = 11, </s> predicted
    padded = nltk_perplexity(nltk_fit(nltk_lm.Laplace, 2, train), test, 2)
    assert round(padded, 6) == 6.149164
    assert evaluate(AddK(2, convention="nltk").fit(TOY_TRAIN), TOY_TEST).perplexity == pytest.approx(padded, rel=1e-12)
