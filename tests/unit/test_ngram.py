import dataclasses
import math
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import text
from lmcore.evaluate import evaluate
from lmcore.lm import NotFittedError
from lmcore.ngram import (
    LAMBDA_SUM_TOLERANCE,
    MLE,
    AddK,
    Convention,
    Interpolated,
    KneserNey,
    NgramCounts,
    NgramModel,
    check_lambdas,
    fit_interpolation_weights,
    interpolated_perplexity,
    interpolated_probs,
)
from lmcore.text import Vocabulary

TOY_TRAIN = [list(s) for s in text.TOY_TRAIN]  # "i spent three years", "before the mast", "i spent money"
TOY_TEST = [list(s) for s in text.TOY_TEST]  # "i spent three years before the mast"

WORDS = list("abcde")
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7)
corpus = st.lists(sentence, min_size=1, max_size=6)


def padded(sentence, n_start, n_end):
    return ["<s>"] * n_start + list(sentence) + ["</s>"] * n_end


def reference_counts(sentences, order, n_start, n_end):
    """Plain-Python n-gram counts, history counts and unigram counts, for checking numpy's."""
    grams, histories = Counter(), Counter()
    for s in sentences:
        tokens = padded(s, n_start, n_end)
        for t in range(n_start, len(tokens)):
            if t - order + 1 >= 0:
                grams[tuple(tokens[t - order + 1 : t + 1])] += 1
                histories[tuple(tokens[t - order + 1 : t])] += 1
    return grams, histories


def reference_addk(sentences, order, k, n_start, n_end, n_outcomes):
    """P(w | h) by the textbook formula with dicts; the order falls to len(context) + 1 near a start."""
    tables = {m: reference_counts(sentences, m, n_start, n_end) for m in range(1, order + 1)}

    def prob(word, context):
        grams, histories = tables[len(context) + 1]
        return (grams[(*context, word)] + k) / (histories[tuple(context)] + k * n_outcomes)

    return prob


# --- counting -------------------------------------------------------------------------


def test_counts_match_plain_python_counting():
    model = MLE(3).fit(TOY_TRAIN)
    for k in (1, 2, 3):
        grams, histories = reference_counts(TOY_TRAIN, k, 2, 1)
        assert model.ngram_counts(k) == dict(grams)
        for gram, c in grams.items():
            assert model.count(gram[-1], gram[:-1]) == c
        for history, c in histories.items():
            assert model.context_count(history) == c
            after = {g[-1]: n for g, n in grams.items() if g[:-1] == history}
            assert model.continuations(history) == after
            assert list(model.continuations(history).values()) == sorted(after.values(), reverse=True)


def test_history_counts_differ_from_unigram_counts_at_sentence_ends():
    course = MLE(2, convention="course").fit(TOY_TRAIN)
    assert course.count("years") == 1
    assert course.context_count(["years"]) == 0  # "years" ends a sentence: never a history
    assert course.continuations(["years"]) == {}
    assert course.context_count(["spent"]) == 2
    standard = MLE(2).fit(TOY_TRAIN)  # with </s>, "years" is followed by something
    assert standard.context_count(["years"]) == 1
    assert standard.context_count(["<s>"]) == 3  # <s> starts 3 sentences
    assert standard.count("i", ["never-seen"]) == 0 and standard.context_count(["never-seen"]) == 0


def test_continuation_counts_and_count_of_counts():
    model = MLE(2).fit(TOY_TRAIN)
    table = model.counts.tables[1]  # N1+(• w): the bigrams whose suffix is w, by their suffix rows
    n_preceding = np.bincount(table.suffix_rows, minlength=model.counts.tables[0].keys.size)
    got = dict(zip(model.vocab.decode(model.counts.tables[0].keys), n_preceding.tolist()))
    assert got["spent"] == 1 and got["</s>"] == 3 and got["i"] == 1  # </s> follows years, mast, money
    assert model.counts.count_of_counts(2).tolist() == [0, 9, 2, 0, 0]  # (<s>, i) and (i, spent) are seen twice
    assert len(model.continuations(["<s>"])) == 2  # "i" and "before"


def test_token_counts_are_the_training_counts_of_each_test_token():
    model = MLE(2).fit(TOY_TRAIN)
    counts = model.token_counts(TOY_TEST)
    framed = padded(TOY_TEST[0], 1, 1)
    pairs = list(zip(framed, framed[1:]))
    assert counts.order == 2 and counts.ngram_counts.size == len(pairs) == model.token_logprobs(TOY_TEST).size
    assert counts.ngram_counts.tolist() == [model.count(w, [h]) for h, w in pairs]
    assert counts.history_counts.tolist() == [model.context_count([h]) for h, _ in pairs]
    assert counts.history_types.tolist() == [len(model.continuations([h])) for h, _ in pairs]
    assert counts.ngram_counts.tolist() == [2, 2, 1, 1, 0, 1, 1, 1]  # "years before" was never seen
    unigram = model.token_counts(TOY_TEST, order=1)
    assert unigram.ngram_counts.tolist() == [model.count(w) for _, w in pairs]
    assert set(unigram.history_counts.tolist()) == {model.context_count([])} == {13}  # 10 words + 3 </s>
    course = MLE(3, convention="course").fit(TOY_TRAIN)  # no <s>: the first words have shorter histories
    first_two = course.token_counts(TOY_TEST).ngram_counts[:2].tolist()
    assert first_two == [course.count("i"), course.count("spent", ["i"])]


@pytest.mark.parametrize("call, message", [
    (lambda m: m.count("i", "spent"), "context must be a sequence of tokens"),
    (lambda m: m.count(3, ["i"]), "word must be a str"),
    (lambda m: m.context_count(["a", "b", "c"]), "context has 3 tokens; a model of order 2 uses at most 1"),
    (lambda m: m.ngram_counts(3), "order must be between 1 and the model's order 2, got 3"),
    (lambda m: m.token_counts(TOY_TEST, order=0), "order must be between 1 and the model's order 2, got 0"),
    (lambda m: m.ngram_counts(2.0), "order must be an int, got float"),
])
def test_count_lookups_name_bad_arguments(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call(MLE(2).fit(TOY_TRAIN))


@pytest.mark.parametrize("marker", ["<s>", "</s>"])
def test_markers_inside_sentences_are_refused_with_the_way_out(marker):
    wrong = [["i", "spent"], ["before", marker, "the", "mast"]]
    expected = rf"sentences\[1\] holds the marker '{marker}' at position 1: lmcore adds <s> and </s> itself"
    with pytest.raises(ValueError, match=expected) as refused:
        AddK(2).fit(wrong)
    assert "['before', 'the', 'mast']" in str(refused.value)  # the raw tokens to pass instead
    model = AddK(2).fit(TOY_TRAIN)
    with pytest.raises(ValueError, match=expected):
        evaluate(model, wrong)
    with pytest.raises(ValueError, match="holds the marker"):
        model.token_logprobs([[marker]])
    assert model.prob("i", ["<s>"]) > 0  # a context may hold <s>: it is how a sentence start is asked for


def test_a_model_without_its_core_method_fails_at_construction():
    class HalfMade(NgramModel):
        pass

    with pytest.raises(TypeError, match="abstract method '?id_probs"):
        HalfMade(2)


@settings(max_examples=30, deadline=None)
@given(train=corpus, min_count=st.integers(1, 3))
def test_fit_builds_the_same_vocabulary_as_vocabulary_build(train, min_count):
    if not any(c >= min_count for c in Counter(w for s in train for w in s).values()):
        min_count = 1
    model = AddK(2).fit(train, min_count=min_count)
    assert model.vocab.tokens == Vocabulary.build(train, min_count).tokens
    passed = Vocabulary.build(train[:1])
    assert AddK(2).fit(train, vocab=passed).vocab is passed


def test_any_order_with_any_vocabulary_fits():
    # n-gram keys are a trie's node numbers times |V| plus the last id: they grow with the number of
    # distinct n-grams, never with |V| ** order (which here is 300,003 ** 7, far beyond int64)
    vocab = Vocabulary([f"w{i}" for i in range(300_000)])
    train = [["w1", "w2", "w3", "w1", "w2", "w4"], ["w299999", "w2", "w3"]]
    model = MLE(7).fit(train, vocab=vocab)
    assert model.count("w4", ["w1", "w2", "w3", "w1", "w2"]) == 1
    assert model.count("w4", ["w3", "w1", "w2"]) == 1 and model.count("w3", ["w1", "w2"]) == 1
    assert model.prob("w4", ["<s>", "w1", "w2", "w3", "w1", "w2"]) == 1.0
    assert model.prob("w3", ["w299999", "w2"]) == 1.0 and model.prob("w3", ["w299999", "w4"]) == 0.0
    assert model.continuations(["w1", "w2"]) == {"w3": 1, "w4": 1}
    assert model.continuations(["w4", "w4"]) == {}  # a history never seen
    sevens = model.ngram_counts(7)  # one per predicted token (7 + 4 with </s>), listed in id order
    assert len(sevens) == 11 and set(sevens.values()) == {1}
    assert list(sevens) == sorted(sevens, key=lambda gram: model.vocab.encode(list(gram)).tolist())
    assert ("w1", "w2", "w3", "w1", "w2", "w4", "</s>") in sevens


def test_the_key_index_decodes_what_it_encodes():
    from lmcore.ngram.counting import NgramIndex

    rng = np.random.default_rng(0)
    base = 50_000
    rows = [rng.integers(0, base, size=(200, k)) for k in range(1, 7)]
    index = NgramIndex.from_rows(rows, base)
    for k, grams in enumerate(rows, start=1):
        keys = index.keys(grams, k)
        assert (keys >= 0).all() and (index.decode(keys, k) == grams).all()
        order = np.lexsort(grams.T[::-1])  # sorted keys list the n-grams in the order of their ids
        assert (np.diff(keys[order]) >= 0).all()
    unseen = np.array([[1, 2, 3, 4, 5, 6]])
    assert index.keys(unseen, 6).tolist() == [-1] and index.node_ids(unseen, 3).tolist() == [-1]


# --- the course's numbers -------------------------------------------------------------


def test_course_toy_unigram_and_bigram_perplexities():
    unigram = AddK(1, convention="course").fit(TOY_TRAIN)
    bigram = AddK(2, convention="course").fit(TOY_TRAIN)
    assert len(unigram.outcomes) == 8
    assert round(evaluate(unigram, TOY_TEST).perplexity, 4) == 8.0155
    assert round(evaluate(bigram, TOY_TEST).perplexity, 4) == 4.9508
    assert round(evaluate(unigram, TOY_TEST).cross_entropy, 4) == 3.0028
    assert round(evaluate(bigram, TOY_TEST).cross_entropy, 4) == 2.3077
    assert round(evaluate(bigram, TOY_TEST).total_logprob / math.log(2), 4) == -16.1536
    # the first word by the unigram model, "years before" with c(years) = 0 as a history
    assert bigram.prob("i") == pytest.approx(3 / 18)  # c(i) = 2
    assert bigram.prob("before", ["years"]) == pytest.approx(1 / 8)


def test_course_interpolation_example():
    p_three = AddK(1, convention="course").fit(TOY_TRAIN).prob("three")
    p_three_spent = AddK(2, convention="course").fit(TOY_TRAIN).prob("three", ["spent"])
    assert round(p_three, 6) == 0.111111 and p_three_spent == pytest.approx(0.2)
    mixed = interpolated_probs([[p_three, p_three_spent, 0.001]], [0.1, 0.3, 0.6])[0]
    assert round(float(mixed), 6) == 0.071711


def test_toy_corpus_under_other_conventions():
    # Standard framing: </s> is predicted (8 tokens, not 7) and |V| = 8 words + <unk> + </s> = 10,
    # so both models are spread thinner: higher perplexity than the course's.
    assert round(evaluate(AddK(1).fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 9.5290
    assert round(evaluate(AddK(2).fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 5.6557
    # The course's framing with an open vocabulary (|V| = 9, <unk> included): nltk's 8.4608 / 5.4547.
    open_course = Convention(start_padding=0, end_markers=0)
    assert round(evaluate(AddK(1, convention=open_course).fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 8.4608
    assert round(evaluate(AddK(2, convention=open_course).fit(TOY_TRAIN), TOY_TEST).perplexity, 4) == 5.4547
    # nltk's padded pipeline (|V| = 11 with <UNK>, <s>, </s>); KenLM agrees on the same ARPA numbers.
    assert round(evaluate(AddK(2, convention="nltk").fit(TOY_TRAIN), TOY_TEST).perplexity, 6) == 6.149164


# --- the models ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(train=corpus, order=st.integers(1, 3), k=st.sampled_from([0.01, 0.5, 1.0, 2.0]),
       convention=st.sampled_from(["standard", "course", "nltk"]))
def test_addk_matches_the_textbook_formula(train, order, k, convention):
    model = AddK(order, k, convention=convention).fit(train)
    n_start, n_end = model.convention.padding(order)
    reference = reference_addk(train, order, k, n_start, n_end, len(model.outcomes))
    test = train[:2] + [["a", "zz", "b"]] if convention != "course" else train[:2]
    expected = []
    for s in test:
        tokens = [t if t in model.vocab else "<unk>" for t in padded(s, n_start, n_end)]
        for t in range(n_start, len(tokens)):
            expected.append(math.log(reference(tokens[t], tokens[max(0, t - order + 1) : t])))
    np.testing.assert_allclose(model.token_logprobs(test), expected, rtol=1e-12)


def test_mle_probabilities_and_unseen_history():
    model = MLE(2).fit(TOY_TRAIN)
    assert model.prob("spent", ["i"]) == 1.0
    assert model.prob("three", ["spent"]) == 0.5
    assert model.prob("i", ["<s>"]) == pytest.approx(2 / 3)
    assert model.prob("the", ["spent"]) == 0.0
    assert model.logprob("the", ["spent"]) == -math.inf
    assert model.prob("i", ["unheard"]) == 0.0  # unseen history: 0, as nltk
    with pytest.raises(ValueError, match="never seen as a history"):
        model.next_word_distribution(["unheard"])


def test_vectorized_scores_equal_one_call_per_token():
    rng = np.random.default_rng(3)
    train = [list(rng.choice(WORDS, size=rng.integers(1, 8))) for _ in range(30)]
    test = [list(rng.choice(WORDS + ["zz"], size=rng.integers(0, 6))) for _ in range(10)]
    for model in (MLE(3).fit(train), AddK(3, 0.3).fit(train), Interpolated(3, [0.2, 0.3, 0.5]).fit(train)):
        expected = []
        for s in test:
            tokens = padded(s, 2, 1)
            expected += [model.logprob(tokens[t], tokens[t - 2 : t]) for t in range(2, len(tokens))]
        np.testing.assert_allclose(model.token_logprobs(test), expected, rtol=1e-12)


def test_interpolated_order_probs_and_unseen_histories():
    model = Interpolated(3, lambdas=[0.2, 0.3, 0.5]).fit(TOY_TRAIN)
    probs = model.order_probs([["i", "spent", "money"]])
    assert probs.shape == (4, 3)  # i, spent, money, </s>
    # "spent" after "<s> i": unigram add-one (2 + 1) / (13 + 10), bigram 2/2, trigram 2/2
    np.testing.assert_allclose(probs[1], [3 / 23, 1.0, 1.0])
    # "money" after "i spent": trigram 1/2, bigram 1/2
    np.testing.assert_allclose(probs[2], [2 / 23, 0.5, 0.5])
    unseen = model.order_probs([["mast", "i"]])  # history (<s>, mast) and (mast) unseen
    np.testing.assert_allclose(unseen[1], [3 / 23, 0.0, 0.0])  # (mast) seen as history: i never follows
    after_unknown = model.order_probs([["zz", "spent"]])[1]  # <unk> was never a history
    np.testing.assert_allclose(after_unknown, [3 / 23, 3 / 23, 3 / 23])
    assert model.prob("money", ["i", "spent"]) == pytest.approx(0.2 * 2 / 23 + 0.3 * 0.5 + 0.5 * 0.5)
    np.testing.assert_allclose(np.exp(model.token_logprobs([["i", "spent", "money"]])), probs @ [0.2, 0.3, 0.5])


def test_em_learns_weights_that_lower_heldout_perplexity():
    rng = np.random.default_rng(0)
    # a Markov source: the next letter is mostly the successor of the previous one
    def sample(n):
        out = []
        for _ in range(n):
            s = [str(rng.integers(5))]
            for _ in range(rng.integers(3, 9)):
                s.append(str((int(s[-1]) + 1) % 5) if rng.random() < 0.8 else str(rng.integers(5)))
            out.append(s)
        return out

    model = Interpolated(3).fit(sample(300))
    heldout = sample(100)
    trace = model.fit_lambdas(heldout)
    assert trace.converged and 1 < trace.iterations < 1000
    assert sum(trace.lambdas) == pytest.approx(1.0)
    assert all(b <= a + 1e-12 for a, b in zip(trace.perplexities, trace.perplexities[1:]))  # EM never worsens
    steps = np.abs(np.diff(np.array(trace.lambda_history), axis=0)).max(axis=1)
    assert steps[-1] <= 0.001 < steps[0]
    assert model.em_trace_ is trace and tuple(model.lambdas) == trace.lambdas
    assert evaluate(model, heldout).perplexity == pytest.approx(trace.perplexities[-1])
    uniform = interpolated_perplexity(model.order_probs(heldout), [1 / 3] * 3)
    assert trace.perplexities[0] == pytest.approx(uniform) and trace.perplexities[-1] < uniform


# --- normalisation: every distribution sums to 1 -------------------------------------


contexts = st.lists(st.sampled_from(WORDS + ["<s>", "never-seen"]), max_size=2)


@settings(max_examples=60, deadline=None)
@given(train=corpus, context=contexts, order=st.integers(1, 3), k=st.floats(0.01, 5),
       weights=st.lists(st.floats(0.01, 1), min_size=3, max_size=3),
       convention=st.sampled_from(["standard", "course", "nltk"]))
def test_every_distribution_sums_to_one(train, context, order, k, weights, convention):
    context = context[: order - 1]
    lambdas = np.array(weights[:order]) / sum(weights[:order])
    for model in (AddK(order, k, convention=convention), Interpolated(order, lambdas, convention=convention)):
        distribution = model.fit(train).next_word_distribution(context)
        assert set(distribution) == set(model.outcomes)
        assert math.fsum(distribution.values()) == pytest.approx(1.0, abs=1e-9)
        assert list(distribution.values()) == sorted(distribution.values(), reverse=True)
    mle = MLE(order, convention=convention).fit(train)
    if mle.context_count(context) > 0:
        assert math.fsum(mle.next_word_distribution(context).values()) == pytest.approx(1.0, abs=1e-9)


# --- generation -----------------------------------------------------------------------------


def test_generate_is_seeded_and_follows_the_training_transitions():
    model = MLE(2).fit(TOY_TRAIN)
    first = model.generate(20, seed=7)
    assert first == model.generate(20, seed=7)
    assert len(first) == 20
    seen_bigrams = {(a, b) for s in TOY_TRAIN for a, b in zip(["<s>"] + s, s + ["</s>"])}
    for s in first:
        assert all((a, b) in seen_bigrams for a, b in zip(["<s>"] + s, s + ["</s>"]))
    assert all(s == ["before", "the", "mast"] for s in first if s[0] == "before")  # the only path from "before"
    course = AddK(1, convention="course").fit(TOY_TRAIN).generate(2, seed=0, max_length=12)
    assert [len(s) for s in course] == [12, 12]  # no </s> in this convention: sentences stop at max_length


# --- bad input ---------------------------------------------------------------------------


def test_bad_input_gets_clear_errors():
    with pytest.raises(ValueError, match="order must be at least 1, got 0"):
        MLE(0)
    with pytest.raises(TypeError, match="order must be an int, got float"):
        MLE(2.0)
    with pytest.raises(ValueError, match=r"k must be greater than 0, got 0 \(k = 0 is the MLE model\)"):
        AddK(2, k=0)
    with pytest.raises(ValueError, match="k must be greater than 0, got -1"):
        AddK(2, k=-1)
    with pytest.raises(ValueError, match=r"lambdas has negative probabilities: \[-0.5\]"):
        Interpolated(2, lambdas=[1.5, -0.5])
    with pytest.raises(ValueError, match="sum to 0.9"):
        Interpolated(2, lambdas=[0.5, 0.4])
    with pytest.raises(ValueError, match="expected 3"):
        Interpolated(3, lambdas=[0.5, 0.5])
    with pytest.raises(ValueError, match="convention must be"):
        MLE(2, convention="kenlm")
    with pytest.raises(NotFittedError, match="not fitted"):
        AddK(2).token_logprobs(TOY_TEST)
    with pytest.raises(ValueError, match="not fitted"):
        MLE(2).prob("i", ["<s>"])
    with pytest.raises(NotFittedError, match="lambdas are not set"):
        Interpolated(2).fit(TOY_TRAIN).prob("i", ["<s>"])
    with pytest.raises(ValueError, match="sentences is empty"):
        MLE(2).fit([])
    with pytest.raises(ValueError, match="empty"):
        MLE(2).fit([[]])
    model = AddK(2).fit(TOY_TRAIN)
    with pytest.raises(ValueError, match="sentences is empty"):
        model.token_logprobs([])
    with pytest.raises(ValueError, match="context has 2 tokens"):
        model.prob("i", ["a", "b"])
    with pytest.raises(TypeError, match="only str tokens"):
        model.fit([["a", 3]])
    with pytest.raises(TypeError, match="only str tokens"):
        model.token_logprobs([["i", None]])
    with pytest.raises(TypeError, match="split each sentence"):
        model.fit(["i spent money"])
    with pytest.raises(TypeError, match="context must be a sequence"):
        model.prob("spent", "i")
    with pytest.raises(TypeError, match="context must contain only str tokens"):
        model.prob("spent", [3])
    with pytest.raises(TypeError, match="word must be a str"):
        model.prob(3, ["i"])
    with pytest.raises(ValueError, match="closed"):
        MLE(2, convention="course").fit(TOY_TRAIN, min_count=2)
    with pytest.raises(ValueError, match="no tokens to predict"):
        AddK(1, convention="course").fit(TOY_TRAIN).token_logprobs([[]])
    assert isinstance(MLE(1), NgramModel)


def test_a_bad_token_is_named_in_the_sentence_it_is_in():
    model = AddK(2).fit(TOY_TRAIN)
    for call in (lambda s: AddK(2).fit(s), lambda s: AddK(2).fit(s, vocab=model.vocab), model.token_logprobs,
                 lambda s: model.token_counts(s), lambda s: Interpolated(2, [0.5, 0.5]).fit(TOY_TRAIN).order_probs(s)):
        with pytest.raises(TypeError, match=r"^sentences\[2\] must contain only str tokens, got int 3$"):
            call([["i"], ["spent"], ["money", 3]])


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.generate(-1), ValueError, "n_sentences must be at least 0, got -1"),
    (lambda m: m.generate(2.0), TypeError, "n_sentences must be an int, got float"),
    (lambda m: m.generate(1, max_length=0), ValueError, "max_length must be at least 1, got 0"),
    (lambda m: m.generate(1, max_length=True), TypeError, "max_length must be an int, got bool"),
    (lambda m: AddK(2, k=math.inf), ValueError, "k must be a finite number, got inf"),
    (lambda m: AddK(2, k="1"), TypeError, "k must be a number, got str"),
    (lambda m: MLE(2, convention=Convention(start_padding=-1)), ValueError,
     "convention.start_padding must be at least 0, got -1"),
    (lambda m: MLE(2, convention=Convention(end_markers=1.0)), TypeError,
     "convention.end_markers must be an int, got float"),
    (lambda m: MLE(2, convention=Convention(open_vocabulary=1)), TypeError,
     "convention.open_vocabulary must be True or False, got 1"),
    (lambda m: MLE(2, convention=Convention(bos_outcome="no")), TypeError,
     "convention.bos_outcome must be True or False, got 'no'"),
])
def test_counts_sizes_and_conventions_get_the_checks_wording(call, error, message):
    with pytest.raises(error) as raised:
        call(AddK(2).fit(TOY_TRAIN))
    assert str(raised.value) == message


def test_numpy_numbers_pass_where_python_numbers_do():
    model = AddK(np.int64(2), k=np.float32(0.5), convention=Convention(np.int64(1), np.int64(1), np.True_))
    assert model.order == 2 and type(model.order) is int and model.k == 0.5
    assert len(model.fit(TOY_TRAIN).generate(np.int64(2), seed=0, max_length=np.int64(3))) == 2


# --- interpolation: edges that mutation testing found unpinned -------------------------------


def test_interpolation_weights_tolerate_slider_rounding_only():
    assert LAMBDA_SUM_TOLERANCE == 1e-6
    assert check_lambdas([0.5, 0.5 + 0.9e-6], 2).sum() == pytest.approx(1.0, abs=1e-6)
    with pytest.raises(ValueError, match="sum to"):
        check_lambdas([0.5, 0.5 + 1.1e-6], 2)


def test_em_stops_after_max_iterations_and_says_it_did_not_converge():
    # the second order is a shade better everywhere: λ_1 creeps towards 0 by a factor of ~0.9998 a step
    trace = fit_interpolation_weights([[0.5, 0.5001]] * 3, tolerance=1e-9)
    assert trace.iterations == 1000 and trace.converged is False  # the documented default cap
    assert fit_interpolation_weights([[0.1, 0.9], [0.2, 0.0]]).converged is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.lambdas = (0.5, 0.5)


def test_em_stops_when_every_weight_moved_by_at_most_the_tolerance():
    # order 1 alone predicts the token: the first update moves each weight by exactly 0.5, then by 0
    at_most = fit_interpolation_weights([[1.0, 0.0]], tolerance=0.5)
    assert at_most.iterations == 1 and at_most.converged and at_most.lambda_history == ((0.5, 0.5), (1.0, 0.0))
    assert fit_interpolation_weights([[1.0, 0.0]], tolerance=0.4999).iterations == 2


def test_fit_lambdas_has_the_same_default_cap_as_em():
    model = Interpolated(2).fit(TOY_TRAIN)
    model.order_probs = lambda heldout: np.array([[0.5, 0.5001]] * 3)  # λ_1 creeps towards 0, as above
    trace = model.fit_lambdas(TOY_TEST, tolerance=1e-9)
    assert trace.iterations == 1000 and not trace.converged and model.em_trace_ is trace


def test_order_probs_of_an_empty_table_are_refused():
    with pytest.raises(ValueError, match="order_probs is empty"):
        fit_interpolation_weights(np.zeros((0, 2)))


def test_a_short_context_falls_back_to_the_lower_orders():
    model = Interpolated(3, [0.2, 0.3, 0.5], convention="course").fit(TOY_TRAIN)  # no <s>: "i" has no history
    first, second = model.order_probs([["i", "spent"]])
    assert first[0] == first[1] == first[2]  # the unigram estimate in every column
    assert second[1] == second[2] == 1.0 and second[0] < 1  # "spent" always follows "i"; no trigram history


def test_a_token_the_model_cannot_predict_gets_zero_under_every_order():
    model = Interpolated(2, [0.5, 0.5], convention="course").fit(TOY_TRAIN)  # closed vocabulary
    assert model.order_probs([["zzz"]]).tolist() == [[0.0, 0.0]]


def test_an_interpolated_model_needs_its_weights_before_scoring():
    model = Interpolated(2).fit(TOY_TRAIN)
    assert model.lambdas is None and model.em_trace_ is None
    with pytest.raises(NotFittedError, match="lambdas are not set"):
        model.prob("i", ["<s>"])
    model.lambdas = [0.5, 0.5]
    assert model.prob("i", ["<s>"]) > 0


# --- counting: the trie's counts against a plain Counter, encoded input -------------------------

sentences_strategy = st.lists(st.lists(st.sampled_from("abcde"), min_size=0, max_size=7), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(sentences_strategy, st.integers(1, 5), st.integers(0, 3), st.integers(0, 2), st.sampled_from([2, 5, 1 << 20]))
def test_counts_equal_a_plain_counter_of_the_padded_sentences(sentences, order, n_start, n_end, chunk):
    from lmcore.ngram import counting

    vocab = Vocabulary(list("abcde"))
    ids = vocab.encode([w for s in sentences for w in s])
    lengths = np.array([len(s) for s in sentences])
    with mock.patch.object(counting, "_CHUNK", chunk):  # small pieces: sorts and loops cut mid-history
        counts = counting.NgramCounts.from_sentences(ids, lengths, order, n_start, n_end, len(vocab))
    for k in range(1, order + 1):
        expected = Counter()
        for s in sentences:
            padded = ["<s>"] * n_start + s + ["</s>"] * n_end
            for end in range(n_start, len(padded)):  # every predicted token with k - 1 tokens before it
                if end - k + 1 >= 0:
                    expected[tuple(padded[end - k + 1 : end + 1])] += 1
        table = counts.tables[k - 1]
        grams = [tuple(vocab.decode(row)) for row in counts.ngram_ids(k)]
        assert dict(zip(grams, table.counts.tolist())) == dict(expected)
        assert (np.diff(table.keys) > 0).all()
        assert table.counts.dtype == np.int32  # counts, suffix rows: 4 bytes, not 8
        # c(h) and N1+(h •) over the history numbers, a history's number being key // |V|
        for gram, key in zip(grams, table.keys):
            after = [c for other, c in expected.items() if other[:-1] == gram[:-1]]
            number = key // len(vocab)
            assert (table.history_counts[number], table.history_types[number]) == (sum(after), len(after))
        assert table.history_counts.sum() == sum(expected.values())
        if k >= 2:  # each n-gram's suffix, as a row of the table below
            shorter = [tuple(vocab.decode(row)) for row in counts.ngram_ids(k - 1)]
            assert table.suffix_rows.dtype == np.int32
            assert [shorter[row] for row in table.suffix_rows] == [gram[1:] for gram in grams]
            for prefix in {gram[:j] for gram in grams for j in range(1, k)}:  # consecutive rows, in id order
                rows = counts.prefix_rows(k, vocab.encode(list(prefix)).tolist())
                assert grams[rows] == [gram for gram in grams if gram[: len(prefix)] == prefix]


def test_fit_encoded_is_fit_without_the_strings():
    train = text.TOY_TRAIN
    vocab = Vocabulary.build(train)
    ids = vocab.encode([w for s in train for w in s]).astype(np.int32)
    lengths = [len(s) for s in train]
    for model_type in (MLE, AddK):
        from_strings = model_type(3).fit(train, vocab=vocab)
        from_ids = model_type(3).fit_encoded(ids, lengths, vocab)
        test = [["i", "spent", "three", "years"]]
        assert evaluate(from_ids, test).perplexity == evaluate(from_strings, test).perplexity
        assert from_ids.ngram_counts(3) == from_strings.ngram_counts(3)


@pytest.mark.parametrize("ids, lengths, vocab, error, message", [
    ([4, 5], [1], None, ValueError, "lengths add up to 1, but ids holds 2"),
    ([4, 99], [2], None, ValueError, "between 0 and"),
    ([3, 1, 4], [3], None, ValueError, r"sentences\[0\] holds the marker '<s>' at position 1"),
    (["i"], [1], None, TypeError, "integer vocabulary ids"),
    ([4], [-1], None, TypeError, "lengths must be"),
    ([4], [1], ["i"], TypeError, "must be an lmcore Vocabulary"),
])
def test_fit_encoded_names_bad_input(ids, lengths, vocab, error, message):
    with pytest.raises(error, match=message):
        MLE(2).fit_encoded(ids, lengths, Vocabulary(["i", "spent"]) if vocab is None else vocab)


# --- edges mutation testing found unpinned ------------------------------------------------------


def test_a_table_of_one_ngram_is_looked_up():
    # the course's framing of "a a a": one trigram, one bigram history, one unigram type
    model = MLE(3, convention="course").fit([["a", "a", "a"]])
    assert model.counts.tables[2].keys.size == 1 and model.counts.tables[0].history_counts.size == 1
    assert model.prob("a", ["a", "a"]) == 1.0 and model.prob("a", ["a"]) == 1.0 and model.prob("a") == 1.0
    assert model.count("a", ["a", "a"]) == 1 and model.context_count() == 3
    assert model.prob("a", ["b", "a"]) == 0.0  # an unknown word in the history: never seen


def test_ngram_entropy_is_nltks_entropy_of_a_list_of_ngrams():
    model = AddK(3, 0.5, convention="nltk").fit(TOY_TRAIN)
    grams = [("<s>", "<s>", "i"), ("i", "spent"), ("money",), ("zz", "</s>"), ("<s>",)]
    bits = [-math.log2(model.prob(g[-1], list(g[:-1]))) for g in grams]
    assert model.ngram_entropy(grams) == pytest.approx(sum(bits) / len(bits), rel=1e-12)
    assert model.ngram_entropy(iter(grams)) == model.ngram_entropy(grams)  # a generator, as nltk's ngrams gives
    assert model.ngram_perplexity([["i", "spent"]]) == pytest.approx(1 / model.prob("spent", ["i"]), rel=1e-12)
    mle = MLE(2, convention="nltk").fit(TOY_TRAIN)
    assert mle.ngram_entropy([("the", "i")]) == math.inf and mle.ngram_perplexity([("the", "i")]) == math.inf
    assert MLE(2).fit(TOY_TRAIN).ngram_entropy([("<s>", "i")]) == pytest.approx(-math.log2(2 / 3))  # any convention


@pytest.mark.parametrize("ngrams, error, message", [
    ([], ValueError, "^ngrams is empty$"),
    ([("i", "spent", "money", "x")], ValueError, r"^ngrams\[0\] has 4 tokens; a model of order 3 scores n-grams of "
                                                 "1 to 3$"),
    ([("i",), ()], ValueError, r"^ngrams\[1\] has 0 tokens; a model of order 3 scores n-grams of 1 to 3$"),
    ([("i", 3)], TypeError, r"^ngrams\[0\] must contain only str tokens, got int 3$"),
    ("i spent", TypeError, "^ngrams must be a list of token lists, got str$"),
])
def test_ngram_entropy_names_bad_ngrams(ngrams, error, message):
    model = AddK(3, convention="nltk").fit(TOY_TRAIN)
    with pytest.raises(error, match=message):
        model.ngram_entropy(ngrams)
    with pytest.raises(NotFittedError):
        AddK(3).ngram_entropy([("i",)])


def test_nltks_convention_counts_the_padding_and_scores_unused_markers_as_unknown():
    nltk_like = MLE(3, convention="nltk").fit(TOY_TRAIN)  # <s> <s> w .. </s> </s>: 10 words, 6 <s>, 6 </s>
    assert nltk_like.count("<s>") == 6 and nltk_like.context_count() == 22
    assert nltk_like.continuations(["<s>"]) == {"<s>": 3, "i": 2, "before": 1}
    assert nltk_like.prob("<s>", ["<s>"]) == 0.5 and nltk_like.prob("i", ["<s>", "<s>"]) == pytest.approx(2 / 3)
    standard = MLE(3).fit(TOY_TRAIN)  # unchanged: only what ends at a predicted token
    assert standard.count("<s>") == 0 and standard.context_count() == 13  # 10 words, 3 </s>
    unigram = AddK(1, convention="nltk").fit(TOY_TRAIN)  # nltk pads nothing at order 1: the markers are unknown words
    assert "<s>" not in unigram.outcomes and unigram.prob("<s>") == unigram.prob("</s>") == unigram.prob("zz") == 1 / 19
    assert AddK(1).fit(TOY_TRAIN).prob("<s>") == 0.0  # the standard convention never predicts <s>


def test_adopt_counts_fits_a_model_on_anothers_counts_without_copying():
    source = MLE(3).fit(TOY_TRAIN)
    addk = AddK(2, k=0.5).adopt_counts(source)
    assert addk.counts is source.counts and addk.vocab is source.vocab and addk.outcome_ids is source.outcome_ids
    fitted = AddK(2, k=0.5).fit(TOY_TRAIN)
    np.testing.assert_allclose(addk.token_logprobs(TOY_TEST), fitted.token_logprobs(TOY_TEST))
    assert MLE(3).adopt_counts(source).prob("spent", ["<s>", "i"]) == source.prob("spent", ["<s>", "i"])
    with pytest.raises(ValueError, match="order 3 or more, got order 2"):
        MLE(3).adopt_counts(MLE(2).fit(TOY_TRAIN))
    with pytest.raises(ValueError, match="this model's convention"):
        MLE(2, convention="course").adopt_counts(source)
    with pytest.raises(TypeError, match="fitted on counts, got str"):
        MLE(2).adopt_counts("model")
    with pytest.raises(NotFittedError):
        MLE(2).adopt_counts(MLE(3))


@pytest.mark.parametrize("fit, message", [
    (lambda m: m.fit([["a"], ["b", "</s>"]]), r"^sentences\[1\] holds the marker '</s>' at position 1"),
    (lambda m: m.fit_text(["a", "b </s>"]), r"^line 2 holds the marker '</s>'"),
    (lambda m: m.fit_encoded([3, 4, 2], [1, 2], Vocabulary(["a", "b"])),
     r"^sentences\[1\] holds the marker '</s>' at position 1"),
])
def test_every_way_to_fit_refuses_markers(fit, message):
    for model in (MLE(2), KneserNey(2), Interpolated(2, lambdas=[0.5, 0.5])):
        with pytest.raises(ValueError, match=message):
            fit(model)


def test_shared_counts_need_enough_start_padding_and_one_end_marker():
    vocab = Vocabulary.build(TOY_TRAIN)
    ids = vocab.encode([w for s in TOY_TRAIN for w in s])
    lengths = [len(s) for s in TOY_TRAIN]
    counts = NgramCounts.from_sentences(ids, np.array(lengths), 3, 2, 1, len(vocab))
    with pytest.raises(ValueError, match="frames sentences with 0 <s> and 1 </s>"):
        AddK(2, convention=Convention(start_padding=0)).fit_encoded(ids, lengths, vocab, counts)
    with pytest.raises(ValueError, match="frames sentences with 2 <s> and 2 </s>"):
        AddK(2, convention=Convention(start_padding=2, end_markers=2)).fit_encoded(ids, lengths, vocab, counts)
    more = AddK(2, convention=Convention(start_padding=2)).fit_encoded(ids, lengths, vocab, counts)
    assert more.counts.tables[1] is counts.tables[1]  # two <s> before each sentence: the counting at order 3

