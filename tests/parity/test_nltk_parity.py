"""lmcore and nltk.lm agree once nltk's conventions are selected (``convention="nltk"``).

nltk's pipeline: ``padded_everygram_pipeline(n, train)`` pads each sentence with n - 1
``<s>`` and n - 1 ``</s>``, counts every everygram of the padded sentence (the n-grams of
``<s>`` padding alone too) and builds a vocabulary whose length counts ``<UNK>``, ``<s>``
and ``</s>``; a test sentence is scored as ``ngrams(pad_both_ends(s, n), n)``; add-k
divides by c(h) counted as a history plus k len(vocab). ``model.score(word, context)``
takes a context of 0 to n - 1 tokens and reads the counts of that length, and
``model.entropy(text_ngrams)`` is the mean of -log2 score over any list of n-grams.

Every expected number is computed by the installed nltk while the tests run, except the few
that nltk's own documentation and tests state (``test_the_numbers_nltk_states``).

One difference is left on purpose: nltk's ``unk_cutoff`` applies to ``<s>`` and ``</s>`` too,
so a corpus with fewer than ``unk_cutoff / (n - 1)`` sentences loses them to ``<UNK>``;
lmcore's markers are always known. The random corpora with a cutoff of 2 keep them.
"""

import itertools
import math

import nltk.lm as nltk_lm
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nltk.lm.preprocessing import pad_both_ends, padded_everygram_pipeline, padded_everygrams
from nltk.util import everygrams, ngrams

from lmcore.evaluate import evaluate
from lmcore.ngram import MLE, AddK, Convention, KneserNey
from lmcore.text import TOY_TEST, TOY_TRAIN, Vocabulary


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


# --- every context length, from empty to n - 1 ------------------------------------------------

# nltk's own small test corpus (nltk/test/unit/lm/test_models.py builds it so): a vocabulary of
# a, b, c, d, z, <s> and </s> with unk_cutoff=1, so e and g, which the text holds, are <UNK>
# and z, which it does not, is known but never seen
SMALL_TRAIN = [list("abcd"), list("egadbe")]
SMALL_WORDS = ["a", "b", "c", "d", "z"]
ORDERS = (1, 2, 3, 4)


def nltk_model(kind, order, gamma=0.1):
    """nltk's model class and constructor arguments for ``kind``, with lmcore's twin."""
    if kind == "mle":
        return nltk_lm.MLE(order), MLE(order, convention="nltk")
    if kind == "laplace":
        return nltk_lm.Laplace(order), AddK(order, 1, convention="nltk")
    return nltk_lm.Lidstone(gamma, order), AddK(order, gamma, convention="nltk")


def fit_small(kind, order, gamma=0.1):
    theirs, ours = nltk_model(kind, order, gamma)
    markers = ["<s>", "</s>"] if order > 1 else []  # nltk's pipeline pads nothing at order 1
    theirs.vocab = nltk_lm.Vocabulary(SMALL_WORDS + markers, unk_cutoff=1)
    theirs.fit([list(padded_everygrams(order, s)) for s in SMALL_TRAIN])
    return theirs, ours.fit(SMALL_TRAIN, vocab=Vocabulary(SMALL_WORDS))


def fit_both(kind, order, train, gamma=0.1, min_count=1):
    """nltk's model as its pipeline fits it (``unk_cutoff=min_count``), and lmcore's on the same text."""
    theirs, ours = nltk_model(kind, order, gamma)
    ngram_text, vocabulary_text = padded_everygram_pipeline(order, train)
    theirs.vocab = nltk_lm.Vocabulary(vocabulary_text, unk_cutoff=min_count)
    theirs.fit(ngram_text)
    return theirs, ours.fit(train, min_count=min_count)


def nltk_tokens(tokens):
    """nltk's names for lmcore's tokens: ``<UNK>`` for ``<unk>``."""
    return tuple("<UNK>" if token == "<unk>" else token for token in tokens)


def check_scores(theirs, ours, words, contexts):
    """``ours.prob(word, context)`` equals ``theirs.score(word, context)`` to 1e-12, for every word
    (the outcomes, and ``words``: markers, unknown words) after every context; the number of checks."""
    outcomes = ours.outcomes
    others = [w for w in words if w not in outcomes]
    checked = 0
    for context in contexts:
        context = list(context)
        expected = [theirs.score(w, context) for w in nltk_tokens(outcomes)]
        assert ours.distribution(context).tolist() == pytest.approx(expected, rel=1e-12, abs=0), context
        for word in others:
            assert ours.prob(word, context) == pytest.approx(theirs.score(word, context), rel=1e-12, abs=0), (
                word, context)
        checked += len(outcomes) + len(others)
    return checked


def nltk_counts(theirs, k):
    """nltk's count table of order k as {n-gram: count}, in lmcore's tokens."""
    table = theirs.counts[k]
    if k == 1:
        grams = {(w,): c for w, c in table.items()}
    else:
        grams = {(*h, w): c for h in table.conditions() for w, c in table[h].items()}
    return {tuple("<unk>" if t == "<UNK>" else t for t in g): c for g, c in grams.items() if c}


SMALL_TOKENS = SMALL_WORDS + ["<s>", "</s>", "e"]  # e: in the training text, outside the vocabulary


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("kind", ["mle", "laplace", "lidstone"])
def test_every_score_on_nltks_small_corpus_equals_nltk(kind, order):
    theirs, ours = fit_small(kind, order)
    assert len(ours.outcomes) == len(theirs.vocab)
    for k in range(1, order + 1):  # the same count tables: every everygram of the padded sentences
        assert ours.ngram_counts(k) == nltk_counts(theirs, k)
    # every context of 0 to n - 1 tokens over the known words, the markers and an unknown word
    contexts = [c for length in range(order) for c in itertools.product(SMALL_TOKENS, repeat=length)]
    checked = check_scores(theirs, ours, SMALL_TOKENS + ["<UNK>", "<unk>", "y"], contexts)
    assert checked >= len(contexts) * len(ours.outcomes)


def test_the_numbers_nltk_states():
    """The scores nltk's own tests state for its small corpus (to their 4 digits), which lmcore
    missed at contexts shorter than n - 1 before it counted the padding everygrams."""
    mle2, mle3 = fit_small("mle", 2)[1], fit_small("mle", 3)[1]
    assert mle2.prob("a") == 2 / 14 and mle2.prob("y") == 3 / 14 and mle2.prob("z") == 0  # 14 unigram tokens
    assert mle2.prob("d", ["c"]) == 1 and mle2.prob("d", ["e"]) == 0
    assert mle2.prob("<s>") == 2 / 14  # <s> is counted as a token: one per sentence
    assert mle3.prob("a") == 2 / 18 and mle3.prob("y") == 3 / 18 and mle3.prob("d", ["b", "c"]) == 1
    assert mle3.prob("<s>", ["<s>"]) == 0.5  # (<s>, <s>) and (<s>, a|<UNK>): 2 of the 4 bigrams after <s>
    lidstone, laplace = fit_small("lidstone", 2)[1], fit_small("laplace", 2)[1]
    assert lidstone.prob("a") == pytest.approx(2.1 / 14.8) and lidstone.prob("z") == pytest.approx(0.1 / 14.8)
    assert lidstone.prob("d", ["c"]) == pytest.approx(1.1 / 1.8) and lidstone.prob("y") == pytest.approx(3.1 / 14.8)
    assert fit_small("lidstone", 3)[1].prob("e", ["b", "c"]) == pytest.approx(0.1 / 1.8)
    assert laplace.prob("a") == 3 / 22 and laplace.prob("z") == 1 / 22 and laplace.prob("y") == 4 / 22
    assert laplace.prob("d", ["c"]) == pytest.approx(2 / 9)
    # entropy and perplexity over lists of n-grams, nltk's entropy(text_ngrams)
    unigrams = [("<s>",), ("a",), ("c",), ("-",), ("d",), ("c",), ("</s>",)]
    assert round(mle2.ngram_entropy(unigrams), 4) == 3.0095 and round(mle2.ngram_perplexity(unigrams), 4) == 8.0529
    seen = [("<s>", "a"), ("a", "b"), ("b", "<UNK>"), ("<UNK>", "a"), ("a", "d"), ("d", "</s>")]
    assert round(mle2.ngram_entropy(seen), 4) == 1.0975 and round(mle2.ngram_perplexity(seen), 4) == 2.1398
    unseen = [("<s>", "a"), ("a", "c"), ("c", "d"), ("d", "</s>")]
    assert mle2.ngram_entropy(unseen) == math.inf and mle2.ngram_perplexity(unseen) == math.inf
    novel = [("<s>", "a"), ("a", "c"), ("c", "<UNK>"), ("<UNK>", "d"), ("d", "c"), ("c", "</s>")]
    assert round(lidstone.ngram_entropy(novel), 4) == 4.0917 and round(lidstone.ngram_perplexity(novel), 4) == 17.0504
    assert round(laplace.ngram_entropy(novel), 4) == 3.1275 and round(laplace.ngram_perplexity(novel), 4) == 8.7393


@pytest.mark.parametrize("kind", ["mle", "laplace", "lidstone"])
def test_entropy_of_ngram_lists_on_nltks_small_corpus_equals_nltk(kind):
    for order in ORDERS:
        theirs, ours = fit_small(kind, order)
        text = [list("abcd"), list("ezad"), list("b")]
        grams = [g for s in text for g in everygrams(list(pad_both_ends(s, n=order)), max_len=order)]
        grams += [("<UNK>",), ("y", "</s>")[-order:], ("<s>",) * order]
        for subset in [grams] + [[g for g in grams if len(g) == m] for m in range(1, order + 1)]:
            assert ours.ngram_entropy(subset) == pytest.approx(theirs.entropy(subset), rel=1e-12, abs=0)
            assert ours.ngram_perplexity(subset) == pytest.approx(theirs.perplexity(subset), rel=1e-12, abs=0)


# Random corpora: each example fits every order 1..4, and checks every context length 0..n-1 of
# each (10 context lengths per corpus): 60 + 40 corpora, 1,000 (corpus, order, context length) cases.
WORDS = ["a", "b", "c", "d"]
TOKENS = WORDS + ["<s>", "</s>", "zz"]  # zz: never seen
train_corpora = st.lists(st.lists(st.sampled_from(WORDS), max_size=5), min_size=1, max_size=5)  # empty sentences too
kinds = st.sampled_from(["mle", "laplace", "lidstone"])


@settings(max_examples=60, deadline=None)
@given(train=train_corpora, kind=kinds, gamma=st.floats(0.01, 2.0), min_count=st.sampled_from([1, 1, 2]),
       data=st.data())
def test_every_score_on_random_corpora_equals_nltk_at_every_context_length(train, kind, gamma, min_count, data):
    assume(any(train) and len(train) >= min_count)  # nltk's cutoff keeps <s> and </s> (see the module's docstring)
    cases = 0
    for order in ORDERS:
        theirs, ours = fit_both(kind, order, train, gamma, min_count)
        assert len(ours.outcomes) == len(theirs.vocab)
        for length in range(order):
            k = length + 1
            assert ours.ngram_counts(k) == nltk_counts(theirs, k)
            seen = [g[:-1] for g in ours.ngram_counts(k)]  # every context seen, <s> and </s> included
            drawn = data.draw(st.lists(st.lists(st.sampled_from(TOKENS), min_size=length, max_size=length),
                                       max_size=3))
            for context in seen:  # c(h): how often h was followed by a token
                table = theirs.counts[k][nltk_tokens(context)] if context else theirs.counts.unigrams
                assert ours.context_count(list(context)) == table.N()
            check_scores(theirs, ours, TOKENS + ["<UNK>"], sorted(set(seen)) + drawn)
            cases += 1
    assert cases == 10


@settings(max_examples=40, deadline=None)
@given(train=train_corpora, test=st.lists(st.lists(st.sampled_from(WORDS + ["zz"]), min_size=1, max_size=5),
                                          min_size=1, max_size=3), kind=kinds, gamma=st.floats(0.01, 2.0))
def test_entropy_of_ngram_lists_on_random_corpora_equals_nltk(train, test, kind, gamma):
    assume(any(train))
    for order in ORDERS:
        theirs, ours = fit_both(kind, order, train, gamma)
        for text in (train, test):  # MLE: finite on the training text's own n-grams
            padded = [list(pad_both_ends(s, n=order)) for s in text]
            grams = [g for s in padded for g in everygrams(s, max_len=order)]
            for length in range(order):  # the n-grams of each length, then all of them at once
                subset = [g for g in grams if len(g) == length + 1]
                if subset:  # a short padded sentence may hold no n-gram of this length
                    assert ours.ngram_entropy(subset) == pytest.approx(theirs.entropy(subset), rel=1e-12, abs=0)
            assert ours.ngram_perplexity(grams) == pytest.approx(theirs.perplexity(grams), rel=1e-12, abs=0)
        # sentences, framed by the convention: nltk's entropy of every sentence's padded n-grams
        if all(test):
            expected = nltk_perplexity(theirs, test, order)
            assert evaluate(ours, test).perplexity == pytest.approx(expected, rel=1e-12, abs=0)


def test_kneser_ney_keeps_kenlms_counts_under_nltks_convention():
    """nltk's convention gives Kneser-Ney nltk's framing and |V| but not the padding everygrams, which
    KenLM drops: its counts and scores are those of the same framing without ``everygrams``."""
    framing = Convention(end_markers=None, bos_outcome=True)
    train = [["a", "b", "a"], ["b"], []]
    ours, without = (KneserNey(3, convention=c).fit(train) for c in ("nltk", framing))
    assert ours.count("<s>") == without.count("<s>") == 0 and ours.ngram_counts(2) == without.ngram_counts(2)
    assert ours.prob("a", ["<s>"]) == without.prob("a", ["<s>"]) and ours.prob("b") == without.prob("b")
    assert MLE(3, convention="nltk").fit(train).count("<s>") == 6  # two <s> before each of the 3 sentences
