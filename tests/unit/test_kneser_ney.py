import math
from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore.evaluate import evaluate, perplexity_table
from lmcore.ngram import FALLBACK_DISCOUNTS, Interpolated, KneserNey, kneser_ney_discounts
from lmcore.text import Vocabulary, load_corpus, split_sentences

WORDS = list("abcde")
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7)
corpus = st.lists(sentence, min_size=1, max_size=8)
discount_rows = st.tuples(st.floats(0.05, 1.0), st.floats(0.05, 2.0), st.floats(0.05, 3.0))


def padded(sentence, n_start, n_end):
    return ["<s>"] * n_start + list(sentence) + ["</s>"] * n_end


def reference_kneser_ney(train, order, discounts, n_start, n_end, outcomes):
    """Interpolated modified Kneser-Ney with KenLM's adjusted counts, in plain Python dicts.

    Returns ``(prob(word, context), count-of-counts per order)``.
    """
    raw = {k: Counter() for k in range(1, order + 1)}
    without_left = {k: set() for k in range(1, order + 1)}  # k-grams seen with nothing before them
    for s in train:
        tokens = padded(s, n_start, n_end)
        for t in range(n_start, len(tokens)):
            for k in range(1, min(order, t + 1) + 1):
                gram = tuple(tokens[t - k + 1 : t + 1])
                if k >= 2 and gram[0] == gram[1] == "<s>":
                    continue  # padding artefacts: KenLM pads with one <s>
                raw[k][gram] += 1
                if t - k < 0:
                    without_left[k].add(gram)
    adjusted = {order: dict(raw[order])}
    for k in range(order - 1, 0, -1):
        left = defaultdict(set)
        for gram in raw[k + 1]:
            left[gram[1:]].add(gram[0])
        adjusted[k] = {
            g: c if g[0] == "<s>" else len(left[g]) + (g in without_left[k]) for g, c in raw[k].items()
        }
    by_history = {k: defaultdict(dict) for k in adjusted}
    for k, grams in adjusted.items():
        for g, a in grams.items():
            by_history[k][g[:-1]][g[-1]] = a
    count_of_counts = [[sum(a == j for a in adjusted[k].values()) for j in range(5)] for k in range(1, order + 1)]

    def discount(k, a):
        return discounts[k - 1][min(a, 3) - 1]

    def prob(word, context):
        if word not in outcomes:
            return 0.0
        p = 1.0 / len(outcomes)
        for k in range(1, len(context) + 2):
            history = tuple(context[len(context) - k + 1 :]) if k > 1 else ()
            seen = by_history[k].get(history)
            if not seen:
                continue  # a history never seen: P_k = P_{k-1}
            total = sum(seen.values())
            gamma = sum(discount(k, a) for a in seen.values()) / total
            own = (seen[word] - discount(k, seen[word])) / total if word in seen else 0.0
            p = own + gamma * p
        return p

    return prob, count_of_counts


def expected_logprobs(model, reference, test):
    n_start, n_end = model.convention.padding(model.order)
    out = []
    for s in test:
        tokens = [t if t in model.vocab else "<unk>" for t in padded(s, n_start, n_end)]
        for t in range(n_start, len(tokens)):
            out.append(math.log(reference(tokens[t], tokens[max(0, t - model.order + 1) : t])))
    return out


# --- the formula ---------------------------------------------------------------------------


def test_toy_numbers_by_hand():
    model = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
    assert model.adjusted_counts(1) == {("a",): 1, ("b",): 1, ("c",): 1, ("</s>",): 2}  # </s> after b and c
    assert model.adjusted_counts(2) == {("<s>", "a"): 2, ("a", "b"): 1, ("a", "c"): 1, ("b", "</s>"): 1,
                                        ("c", "</s>"): 1}
    # γ_1 = (0.5 * 3 + 1.0 * 1) / 5 = 0.5; |V| = a, b, c, <unk>, </s>
    assert model.prob("zzz") == pytest.approx(0.5 / 5)
    assert model.prob("</s>") == pytest.approx((2 - 1.0) / 5 + 0.5 / 5)
    assert model.prob("b") == pytest.approx((1 - 0.5) / 5 + 0.5 / 5)
    # after a: u = (1 - 0.5) / 2, γ(a) = 0.5 * 2 / 2
    assert model.prob("b", ["a"]) == pytest.approx(0.25 + 0.5 * 0.2)
    assert model.prob("</s>", ["a"]) == pytest.approx(0.5 * 0.3)
    assert model.prob("b", ["zzz"]) == pytest.approx(0.2)  # <unk> never a history: the unigram
    assert model.count_of_counts_.tolist() == [[0, 3, 1, 0, 0], [0, 4, 1, 0, 0]]


def test_padding_follows_kenlm():
    model = KneserNey(3).fit([["a", "b"], ["a", "c"], ["b"]])
    trigrams = model.adjusted_counts(3)
    assert all(g[:2] != ("<s>", "<s>") for g in trigrams)  # padding artefacts are dropped
    bigrams = model.adjusted_counts(2)
    assert bigrams[("<s>", "a")] == 2 and bigrams[("<s>", "b")] == 1  # <s> n-grams keep raw counts
    assert bigrams[("a", "b")] == 1  # a continuation count: only <s> precedes "a b"
    assert model.adjusted_counts(1)[("b",)] == 2  # after a and after <s>
    # so the first word of a sentence is the bigram model's P(w | <s>)
    assert model.prob("a", ["<s>", "<s>"]) == model.prob("a", ["<s>"])


@settings(max_examples=40, deadline=None)
@given(train=corpus, order=st.integers(1, 4), rows=st.lists(discount_rows, min_size=4, max_size=4),
       convention=st.sampled_from(["standard", "course", "nltk"]))
def test_matches_the_reference_implementation(train, order, rows, convention):
    model = KneserNey(order, discounts=rows[:order], convention=convention).fit(train)
    n_start, n_end = model.convention.padding(order)
    reference, count_of_counts = reference_kneser_ney(train, order, rows, n_start, n_end, set(model.outcomes))
    test = train[:3] + ([["a", "zz", "b"], ["e"]] if convention != "course" else [])
    np.testing.assert_allclose(model.token_logprobs(test), expected_logprobs(model, reference, test), rtol=1e-12)
    assert model.count_of_counts_.tolist() == count_of_counts


def test_closed_form_discounts():
    assert kneser_ney_discounts([0, 100, 40, 20, 10]).tolist() == pytest.approx(
        [1 - 2 * (100 / 180) * 40 / 100, 2 - 3 * (100 / 180) * 20 / 40, 3 - 4 * (100 / 180) * 10 / 20])
    assert kneser_ney_discounts([0, 10, 5, 2, 0])[2] == 3.0  # t4 = 0 is allowed (KenLM): D3+ = 3
    with pytest.raises(ValueError, match="t2 = 0"):
        kneser_ney_discounts([0, 10, 0, 2, 1])
    with pytest.raises(ValueError, match=r"D2 = -.* outside \(0, 2\]"):
        kneser_ney_discounts([0, 10, 1, 9, 1])
    with pytest.raises(ValueError, match="t0..t4"):
        kneser_ney_discounts([0, 1, 2])
    with pytest.raises(ValueError, match="t0..t4"):
        kneser_ney_discounts([0, 10, 4.5, 2, 1])
    with pytest.raises(ValueError, match=r"^count_of_counts has negative weights: \[-4.0\]$"):
        kneser_ney_discounts([0, 10, -4, 2, 1])
    with pytest.raises(TypeError, match="^count_of_counts must contain only numbers$"):
        kneser_ney_discounts([0, 10, "4", 2, 1])
    with pytest.raises(ValueError, match=r"^count_of_counts must be one-dimensional, got shape \(1, 5\)$"):
        kneser_ney_discounts([[0, 10, 4, 2, 1]])


@pytest.fixture(scope="module")
def english():
    split = split_sentences(load_corpus("english"), heldout=0.1, test=0.1, seed=0)
    return split.train[:3000], split.heldout[:300], split.test[:300]


def test_closed_form_on_real_text_and_kneser_ney_beats_interpolation(english):
    train, heldout, test = english
    model = KneserNey(3).fit(train)
    assert model.fallback_orders_ == ()
    for row, t in zip(model.discounts_, model.count_of_counts_):
        assert row.tolist() == pytest.approx(kneser_ney_discounts(t).tolist())
    assert model.count_of_counts_[:, 1:].tolist() == [[2441, 865, 463, 272], [22550, 3492, 1271, 646],
                                                      [45427, 3939, 1142, 492]]
    np.testing.assert_allclose(model.discounts_, [[0.5852, 1.0602, 1.6248], [0.7635, 1.1663, 1.4477],
                                                  [0.8522, 1.2588, 1.5314]], atol=1e-4)
    result = evaluate(model, test)
    assert result.n_oov > 0 and result.zero_probability_tokens == ()
    interpolated = Interpolated(3).fit(train)
    interpolated.fit_lambdas(heldout)
    assert result.perplexity < evaluate(interpolated, test).perplexity
    assert round(result.perplexity, 2) == 128.78


def test_a_fitted_model_shares_the_count_tables_and_keeps_narrow_arrays(english):
    """Memory: each order's keys are held once (by the count table), counts and suffix rows in 4
    bytes, probabilities in 8 (float32 would miss KenLM's scores by more than 1e-6)."""
    model = KneserNey(4).fit(english[0])
    for k, (table, level) in enumerate(zip(model.counts.tables, model._levels), start=1):
        assert level.keys is table.keys
        assert (level.adjusted is table.counts) == (k == model.order)  # the top order's a: its raw counts
        assert table.counts.dtype == level.adjusted.dtype == np.int32
        assert level.u.dtype == level.gamma.dtype == np.float64 and level.gamma.size == table.n_histories
        assert k == 1 or table.suffix_rows.dtype == np.int32
        assert "history_counts" not in vars(table)  # built on first use, which Kneser-Ney never makes
    assert model.context_count(["the"]) > 0 and "history_counts" in vars(model.counts.tables[1])


def test_perplexity_table_same_test_set_throughout(english):
    table = perplexity_table(english, orders=(1, 2, 3))
    assert table.methods == ("add-one", "interpolation", "kneser-ney") and table.orders == (1, 2, 3)
    add_one, interpolation, kneser_ney = table.perplexities
    assert kneser_ney[2] < interpolation[2] < add_one[2]
    assert add_one[2] > add_one[1]  # add-one gets worse with the order: it spreads mass over |V|**n
    assert kneser_ney[2] == pytest.approx(evaluate(KneserNey(3).fit(english[0]), english[2]).perplexity)
    assert table.n_oov > 0 and table.n_tokens == sum(len(s) + 1 for s in english[2])
    lines = table.format("English").splitlines()
    assert lines[0] == "English" and lines[1].split() == ["unigram", "bigram", "trigram"]
    assert lines[4].startswith("kneser-ney") and f"{kneser_ney[2]:.2f}" in lines[4]


# --- fallback and explicit discounts ---------------------------------------------------------


def test_tiny_data_falls_back_to_kenlm_discounts_or_raises():
    toy = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
    model = KneserNey(3).fit(toy)
    assert model.fallback_orders_ == (1, 2, 3)
    assert model.discounts_.tolist() == [list(FALLBACK_DISCOUNTS)] * 3
    with pytest.raises(ValueError, match=r"order 1: no n-gram has adjusted count 2 \(t2 = 0\).*discounts="):
        KneserNey(3, fallback=None).fit(toy)
    given = KneserNey(2, discounts=[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]).fit(toy)
    assert given.discounts_.tolist() == [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]] and given.fallback_orders_ == ()
    custom = KneserNey(2, fallback=(0.7, 0.8, 0.9)).fit(toy)
    assert custom.discounts_.tolist() == [[0.7, 0.8, 0.9]] * 2


def test_a_high_order_fits_any_vocabulary():
    # keys grow with the number of distinct n-grams, not with |V| ** order (55,108 ** 6 overflows int64)
    model = KneserNey(6, fallback=(0.5, 1.0, 1.5)).fit([["w1", "w2"], ["w2"]],
                                                       vocab=Vocabulary([f"w{i}" for i in range(55_105)]))
    assert model.counts.base == 55_108 and 0 < model.prob("w2", ["<s>", "<s>", "<s>", "<s>", "w1"]) < 1


def test_bad_discounts_get_clear_errors():
    with pytest.raises(ValueError, match=r"shape \(3,\) or \(2, 3\)"):
        KneserNey(2, discounts=[0.5, 1.0])
    with pytest.raises(ValueError, match=r"D2 of order 2 is 2.5, expected 0 < D2 <= 2"):
        KneserNey(2, discounts=[[0.5, 1.0, 1.5], [0.5, 2.5, 1.5]])
    with pytest.raises(ValueError, match=r"D1 of order 1 is 0.0"):
        KneserNey(1, discounts=[0, 1, 1])
    with pytest.raises(ValueError, match=r"D3\+ of order 1 is nan"):
        KneserNey(1, discounts=[0.5, 1, math.nan])
    with pytest.raises(TypeError, match="discounts must contain only numbers"):
        KneserNey(2, discounts=["a", "b", "c"])
    with pytest.raises(TypeError, match="got a str"):
        KneserNey(2, discounts="0.5")
    with pytest.raises(ValueError, match="fallback must be 3 numbers"):
        KneserNey(2, fallback=(0.5, 1.0))
    with pytest.raises(ValueError, match="order must be between 1 and the model's order 2, got 3"):
        KneserNey(2).fit([["a"]]).adjusted_counts(3)
    with pytest.raises(TypeError, match="order must be an int, got str"):
        KneserNey(2).fit([["a"]]).adjusted_counts("2")


# --- the shared interface ------------------------------------------------------------------------


contexts = st.lists(st.sampled_from(WORDS + ["<s>", "never-seen"]), max_size=3)


@settings(max_examples=60, deadline=None)
@given(train=corpus, context=contexts, order=st.integers(1, 4), rows=st.none() | st.lists(discount_rows, min_size=4,
       max_size=4), convention=st.sampled_from(["standard", "course", "nltk"]))
def test_every_distribution_sums_to_one(train, context, order, rows, convention):
    context = context[: order - 1]
    model = KneserNey(order, None if rows is None else rows[:order], convention=convention).fit(train)
    distribution = model.next_word_distribution(context)
    assert set(distribution) == set(model.outcomes)
    assert math.fsum(distribution.values()) == pytest.approx(1.0, abs=1e-9)
    assert min(distribution.values()) > 0  # <unk> and unseen words too
    assert list(distribution.values()) == sorted(distribution.values(), reverse=True)


def test_vectorized_scores_equal_one_call_per_token_and_generation_is_seeded():
    rng = np.random.default_rng(3)
    train = [list(rng.choice(WORDS, size=rng.integers(1, 8))) for _ in range(40)]
    test = [list(rng.choice(WORDS + ["zz"], size=rng.integers(0, 6))) for _ in range(10)]
    model = KneserNey(3).fit(train)
    expected = []
    for s in test:
        tokens = padded(s, 2, 1)
        expected += [model.logprob(tokens[t], tokens[t - 2 : t]) for t in range(2, len(tokens))]
    np.testing.assert_allclose(model.token_logprobs(test), expected, rtol=1e-12)
    assert np.isfinite(model.token_logprobs(test)).all()
    sample = model.generate(5, seed=1)
    assert sample == model.generate(5, seed=1) and all(set(s) <= set(WORDS) | {"<unk>"} for s in sample)


@pytest.mark.parametrize("fallback, error, message", [
    ([[0.5, 1.0, 1.5]], ValueError,  # one row per order is for discounts; the fallback is one row for all
     "fallback must be 3 numbers (D1, D2, D3+), used by every order that falls back; got shape (1, 3)"),
    ([[0.5, 1.0, 1.5]] * 2, ValueError,
     "fallback must be 3 numbers (D1, D2, D3+), used by every order that falls back; got shape (2, 3)"),
    ((0.5, 1.0, 1.5, 2.0), ValueError,
     "fallback must be 3 numbers (D1, D2, D3+), used by every order that falls back; got shape (4,)"),
    ((0.5, 2.5, 1.5), ValueError, "fallback: D2 is 2.5, expected 0 < D2 <= 2"),
    ((0.5, 1.0, 3.5), ValueError, "fallback: D3+ is 3.5, expected 0 < D3+ <= 3"),
    ("0.5", TypeError, "fallback must be 3 numbers (D1, D2, D3+), got a str"),
    (("a", 1, 1), TypeError, "fallback must contain only numbers"),
])
def test_a_fallback_is_three_numbers_and_nothing_else(fallback, error, message):
    with pytest.raises(error) as raised:
        KneserNey(2, fallback=fallback)
    assert str(raised.value) == message


def test_the_fallback_edges_are_kenlms_bounds():
    toy = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
    edge = KneserNey(3, fallback=(1.0, 2.0, 3.0)).fit(toy)  # D(j) = j is allowed, as KenLM allows it
    assert edge.fallback == (1.0, 2.0, 3.0) and edge.discounts_.tolist() == [[1.0, 2.0, 3.0]] * 3
    assert KneserNey(3, discounts=[1.0, 2.0, 3.0]).discounts_ is None  # not fitted yet
    assert KneserNey(2, fallback=None).fallback is None
    with pytest.raises(TypeError, match=r"^discounts must be 3 numbers \(D1, D2, D3\+\) or one such row per order"):
        KneserNey(2, discounts=b"1")


@settings(max_examples=40, deadline=None)
@given(train=corpus, order=st.integers(2, 4), history=st.lists(st.sampled_from(WORDS + ["<s>", "zz"]), min_size=1,
                                                               max_size=3))
def test_backoff_form_holds_after_every_history_seen_or_not(train, order, history):
    """P(w | h) = α(h) Q(w | h') for every w never seen after h: with α(h) = γ(h), and 1 for a
    history never seen (P_k = P_{k-1}), as the ARPA form needs it."""
    model = KneserNey(order).fit(train)
    history = history[: order - 1]
    j = len(history)
    after = model.continuations(history)
    rows = np.array([[*model.vocab.encode(history).tolist(), w] for w in model.outcome_ids])
    alpha = model.backoff_weights(rows[:, :-1], j)
    assert alpha.shape == (rows.shape[0],) and (alpha > 0).all()
    if not after:  # a history never seen (or seen only at the end of a sentence): weight 1
        assert alpha.tolist() == [1.0] * rows.shape[0]
    lower = model.lower_order_probs(rows[:, 1:], j)  # Q_j(w | h'), h' = h without its first token
    for row, a, q in zip(rows, alpha, lower):
        word = model.vocab.tokens[row[-1]]
        if word not in after:
            assert model.prob(word, history) == pytest.approx(a * q, rel=1e-12)


def test_the_closed_form_says_why_it_is_undefined():
    assert FALLBACK_DISCOUNTS == (0.5, 1.0, 1.5)  # KenLM's --discount_fallback
    # t1 = t2 = 1, t3 = 2: Y = 1/3, D2 = 2 - 3 * (1/3) * 2 / 1 = 0 exactly, which is outside (0, 2]
    with pytest.raises(ValueError) as raised:
        kneser_ney_discounts([0, 1, 1, 2, 1])
    assert str(raised.value) == "the closed-form discounts are undefined: D2 = 0.0000 is outside (0, 2]"
    with pytest.raises(ValueError) as raised:
        kneser_ney_discounts([0, 3, 0, 1, 1])
    assert str(raised.value) == "the closed-form discounts are undefined: no n-gram has adjusted count 2 (t2 = 0)"
    longer = kneser_ney_discounts([0, 100, 40, 20, 10, 99])  # counts beyond t4 are ignored
    assert longer.tolist() == kneser_ney_discounts([0, 100, 40, 20, 10]).tolist()


def test_a_model_before_and_after_fitting():
    model = KneserNey(2)
    assert model.discounts_ is None and model.count_of_counts_ is None and model.fallback_orders_ == ()
    model.fit([["a", "b", "a"], ["b", "b", "a", "c"]])
    assert model.count_of_counts_.shape == (2, 5) and model.count_of_counts_[:, 0].tolist() == [0, 0]
    with pytest.raises(AttributeError):  # a level is frozen, as the count tables it shares arrays with
        model._levels[0].u = None


def test_count_of_counts_count_each_adjusted_count_up_to_four():
    # "a" ten times in a row: the bigram (a, a) has raw count 9 (above 4: in no t_j), (<s>, a) 1, (a, </s>) 1
    model = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a"] * 10, ["b", "a", "a", "a", "a", "b"]])
    adjusted = model.adjusted_counts(2)
    assert adjusted[("a", "a")] == 12 and adjusted[("b", "a")] == 1 and adjusted[("a", "b")] == 1
    expected = [[0] + [sum(a == j for a in model.adjusted_counts(k).values()) for j in (1, 2, 3, 4)] for k in (1, 2)]
    assert model.count_of_counts_.tolist() == expected
    four = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["c", "d"]] * 4)  # (c, d), (<s>, c), (d, </s>) seen 4 times
    assert four.count_of_counts_[1].tolist() == [0, 0, 0, 0, 3]


# --- plain_continuation: the textbook lowest order, N1+(• w) / N1+(• •) ------------------------


@pytest.mark.parametrize("d", [0.3, 0.75, 1.0])
def test_plain_continuation_is_the_textbook_bigram_formula(d):
    # P(w | h) = max(c(h, w) - d, 0) / c(h) + d N1+(h •) / c(h) · N1+(• w) / N1+(• •), <s> before each sentence
    sentences = [s.split() for s in ("a b c a b", "b c c a", "c a b b", "a c")]
    model = KneserNey(2, discounts=[d, d, d], plain_continuation=True).fit(sentences)
    bigrams = Counter(pair for s in sentences for pair in zip(["<s>", *s], [*s, "</s>"]))
    words_before = Counter(w for _, w in bigrams)
    for history in ("<s>", "a", "b", "c"):
        c_h = sum(n for (h, _), n in bigrams.items() if h == history)
        backoff_weight = d * sum(h == history for h, _ in bigrams) / c_h
        for word in model.outcomes:
            by_hand = max(bigrams[history, word] - d, 0) / c_h + backoff_weight * words_before[word] / len(bigrams)
            assert model.prob(word, [history]) == pytest.approx(by_hand, rel=1e-12, abs=1e-15), (history, word)
        assert math.fsum(model.next_word_distribution([history]).values()) == pytest.approx(1.0)
    assert model.prob("<unk>", ["a"]) == 0.0 and model.prob("a") == pytest.approx(words_before["a"] / len(bigrams))
    assert model.discounts_.tolist() == [[0.0] * 3, [d] * 3]


def test_plain_continuation_changes_only_the_lowest_order():
    toy = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
    plain = KneserNey(2, discounts=[0.75] * 3, plain_continuation=True).fit(toy)
    default = KneserNey(2, discounts=[0.75] * 3).fit(toy)
    assert round(plain.prob("three", ["spent"]), 4) == 0.1932 and round(default.prob("three", ["spent"]), 4) == 0.1881
    assert plain.prob("<unk>", ["spent"]) == 0.0 < default.prob("<unk>", ["spent"])
    # the seen bigram's discounted term is the same; only λ(h) P_1(w) differs
    gamma = 0.75 * 2 / 2
    assert (plain.prob("three", ["spent"]) - gamma * plain.prob("three")
            == pytest.approx(default.prob("three", ["spent"]) - gamma * default.prob("three")))
    # nothing to estimate at the lowest order: its closed form, undefined here, is never asked for
    estimated = KneserNey(2, plain_continuation=True).fit(toy)
    assert estimated.fallback_orders_ == (2,) and estimated.discounts_[0].tolist() == [0.0] * 3
    with pytest.raises(TypeError, match="plain_continuation must be True or False"):
        KneserNey(2, plain_continuation="yes")
