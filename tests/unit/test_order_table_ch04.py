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
