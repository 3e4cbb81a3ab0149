"""The classic table of chapter 4 (``lmcore.evaluate.order_table``): every order's perplexity and EM
weights from one interpolated fit per corpus, equal to fitting and tuning each order on its own, and
the table as the chapter prints it."""

import math

import numpy as np
import pytest

from lmcore.evaluate import evaluate, order_name, order_table, perplexity_table
from lmcore.ngram import AddK, Interpolated
from lmcore.text import TOY_TEST, TOY_TRAIN, Vocabulary

TRAIN = [["a", "b", "a", "c"], ["b", "a", "b"], ["a", "c", "a"], ["c", "b", "a", "a"]] * 4
HELDOUT = [["a", "b", "c"], ["b", "a", "a"]]
TEST = [["a", "b", "a"], ["c", "a", "d"]]  # "d" is unknown: scored as <unk>
SPLIT = (TRAIN, HELDOUT, TEST)


def test_one_fit_gives_the_rows_of_separate_fits():
    table = order_table({"toy": (Interpolated(3).fit(TRAIN), SPLIT)})
    separate = perplexity_table(SPLIT, orders=(1, 2, 3), methods=["interpolation"]).perplexities[0]
    assert table.orders == (1, 2, 3) and table.names == ("toy",)
    np.testing.assert_allclose(table.column("toy"), separate, rtol=1e-6)
    for n, lambdas in enumerate(table.lambdas["toy"], start=1):
        assert lambdas.shape == (n,) and math.isclose(lambdas.sum(), 1.0) and (lambdas >= 0).all()
        model = Interpolated(n).fit(TRAIN)
        model.fit_lambdas(HELDOUT)
        np.testing.assert_allclose(lambdas, model.lambdas, atol=1e-12)  # the weights fit_lambdas sets


def test_the_top_row_is_the_models_own_perplexity():
    model = Interpolated(3).fit(TRAIN)
    model.fit_lambdas(HELDOUT)
    table = order_table({"toy": (model, SPLIT)})
    assert table.column("toy")[2] == pytest.approx(evaluate(model, TEST).perplexity, rel=1e-9)
    # the unigram row is the add-one unigram every interpolated model starts from
    unigram = AddK(1, k=1).fit(TRAIN, vocab=model.vocab)
    assert table.column("toy")[0] == pytest.approx(evaluate(unigram, TEST).perplexity, rel=1e-9)


def test_columns_and_counts_as_printed():
    toy = (list(map(list, TOY_TRAIN)), list(map(list, TOY_TRAIN)), list(map(list, TOY_TEST)))
    table = order_table({"English words": (Interpolated(2).fit(TRAIN), SPLIT),
                         "toy corpus": (Interpolated(2).fit(toy[0]), toy)})
    assert table.train_words == {"English words": 56, "toy corpus": 10}
    assert table.test_words == {"English words": 6, "toy corpus": 7}
    assert table.vocabulary == {"English words": 3, "toy corpus": Vocabulary.build(toy[0]).n_words}
    lines = table.format(reference={"WSJ": [962, 170]}).splitlines()
    assert lines[0].split() == ["WSJ", "English", "words", "toy", "corpus"]
    assert lines[1].split()[:2] == ["unigram", "962"] and lines[2].split()[:2] == ["bigram", "170"]
    assert lines[1].endswith(f"{table.column('toy corpus')[0]:.1f}")
    assert lines[3].split() == ["training", "words", "56", "10"] and lines[5].split()[0] == "vocabulary"
    assert table.format().splitlines()[0].split() == ["English", "words", "toy", "corpus"]


def test_order_names():
    assert [order_name(n) for n in (1, 2, 3, 4, 6)] == ["unigram", "bigram", "trigram", "4-gram", "6-gram"]


@pytest.mark.parametrize("columns, error, message", [
    ({}, TypeError, "non-empty dict"),
    ({"a": Interpolated(2).fit(TRAIN)}, TypeError, "must be \\(model, \\(train, heldout, test\\)\\)"),
    ({"a": (AddK(2).fit(TRAIN), SPLIT)}, TypeError, "must be an Interpolated model, got AddK"),
    ({"a": (Interpolated(2).fit(TRAIN), (TRAIN, TEST))}, TypeError, "the split must be \\(train, heldout, test\\)"),
    ({"a": (Interpolated(2).fit(TRAIN), (TRAIN, [], TEST))}, ValueError, "held-out part is empty"),
    ({"a": (Interpolated(2).fit(TRAIN), SPLIT), "b": (Interpolated(3).fit(TRAIN), SPLIT)}, ValueError,
     "same order, got orders \\[2, 3\\]"),
])
def test_odd_input_gets_a_named_error(columns, error, message):
    with pytest.raises(error, match=message):
        order_table(columns)


def test_a_reference_needs_one_value_per_order():
    table = order_table({"toy": (Interpolated(2).fit(TRAIN), SPLIT)})
    with pytest.raises(ValueError, match="one perplexity per order"):
        table.format(reference={"WSJ": [962, 170, 109]})
    with pytest.raises(KeyError, match="no column 'WSJ'"):
        table.column("WSJ")


def test_the_perplexity_table_is_each_model_fitted_on_its_own():
    """perplexity_table encodes the training text once for all its models: each entry is still,
    to the last bit, the perplexity of that model fitted on the sentences by itself."""
    from lmcore.ngram import KneserNey

    vocab = Vocabulary.build(TRAIN)
    for given in (None, vocab):
        table = perplexity_table(SPLIT, orders=(1, 2, 3), vocab=given)
        for i, method in enumerate(table.methods):
            for j, order in enumerate(table.orders):
                if method == "add-one":
                    model = AddK(order, 1.0).fit(TRAIN, vocab)
                elif method == "interpolation":
                    model = Interpolated(order).fit(TRAIN, vocab)
                    model.fit_lambdas(HELDOUT)
                else:
                    model = KneserNey(order).fit(TRAIN, vocab)
                assert table.perplexities[i, j] == evaluate(model, TEST).perplexity, (method, order)
    with pytest.raises(TypeError, match="^vocab must be an lmcore Vocabulary, got list$"):
        perplexity_table(SPLIT, vocab=["a", "b"])
    with pytest.raises(ValueError, match="holds the marker '<s>' at position 0"):
        perplexity_table(([["<s>", "a"]], HELDOUT, TEST), methods=["add-one"])


@pytest.mark.parametrize("sentences", [TRAIN, [list(s) for s in TOY_TRAIN], [["a"], ["b", "a"], ["a", "a", "a", "b"]]])
def test_counts_at_a_higher_order_hold_every_lower_orders_counts(sentences):
    """lower_orders(counts, k) of a counting at order 5 is, array for array, the counting at order k:
    what lets perplexity_table count a text once for all its models (fit_encoded's counts)."""
    from lmcore.lm import flatten_sentences
    from lmcore.ngram.counted import lower_orders
    from lmcore.ngram.counting import NgramCounts

    vocab = Vocabulary.build(sentences)
    tokens, lengths = flatten_sentences(sentences, "sentences")
    ids = vocab.encode(tokens)
    top = NgramCounts.from_sentences(ids, lengths, 5, 4, 1, len(vocab))
    for k in range(1, 6):
        direct, shared = NgramCounts.from_sentences(ids, lengths, k, k - 1, 1, len(vocab)), lower_orders(top, k)
        assert len(direct.index.nodes) == len(shared.index.nodes)
        for a, b in zip(direct.index.nodes, shared.index.nodes):
            np.testing.assert_array_equal(a, b)
        assert len(direct.tables) == len(shared.tables) == k
        for a, b in zip(direct.tables, shared.tables):
            assert (a.order, a.base, a.n_histories) == (b.order, b.base, b.n_histories)
            np.testing.assert_array_equal(a.keys, b.keys)
            np.testing.assert_array_equal(a.counts, b.counts)
            assert (a.suffix_rows is None) == (b.suffix_rows is None)
            if a.suffix_rows is not None:
                np.testing.assert_array_equal(a.suffix_rows, b.suffix_rows)
    with pytest.raises(ValueError, match="go up to order 5, not 6"):
        lower_orders(top, 6)


def test_shared_counts_serve_only_the_standard_framing():
    from lmcore.lm import flatten_sentences
    from lmcore.ngram import MLE, KneserNey, NgramCounts

    vocab = Vocabulary.build(TRAIN)
    tokens, lengths = flatten_sentences(TRAIN, "sentences")
    ids = vocab.encode(tokens)
    counts = NgramCounts.from_sentences(ids, lengths, 3, 2, 1, len(vocab))
    shared = KneserNey(3).fit_encoded(ids, lengths, vocab, counts)
    add_one = AddK(2, 1.0).fit_encoded(ids, lengths, vocab, counts)  # the same counting, orders 1 and 2
    assert add_one.counts.tables[0] is counts.tables[0] and add_one.counts.tables[1] is counts.tables[1]
    alone = KneserNey(3).fit_encoded(ids, lengths, vocab)
    assert shared.token_logprobs(TEST).tolist() == alone.token_logprobs(TEST).tolist()
    weights = (0.2, 0.3, 0.5)
    interpolated = Interpolated(3, lambdas=weights).fit_encoded(ids, lengths, vocab, counts)
    own = Interpolated(3, lambdas=weights).fit(TRAIN, vocab)
    assert interpolated.token_logprobs(TEST).tolist() == own.token_logprobs(TEST).tolist()
    with pytest.raises(ValueError, match="frames sentences with 0 <s> and 0 </s>: fit it without shared counts"):
        AddK(2, convention="course").fit_encoded(ids, lengths, vocab, counts)
    with pytest.raises(ValueError, match="counts the padding"):
        MLE(2, convention="nltk").fit_encoded(ids, lengths, vocab, counts)
    with pytest.raises(ValueError, match="up to order 4 or more, got .* up to order 3"):
        KneserNey(4).fit_encoded(ids, lengths, vocab, counts)
    with pytest.raises(ValueError, match="of this vocabulary"):
        KneserNey(2).fit_encoded(ids, lengths, Vocabulary.build(TRAIN + [["zebra"]]), counts)
    with pytest.raises(TypeError, match="counts must be NgramCounts, got dict"):
        KneserNey(2).fit_encoded(ids, lengths, vocab, {})
