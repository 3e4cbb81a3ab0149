"""lmcore.checks: one check per kind of argument, and the same mistake refused with the same
error type and wording by every public function that takes such an argument."""

import ast
import functools
import gc
import inspect
import math
import sys
from collections import UserList
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from lmcore import checks, coding, i18n, info, lm, ngram, shannon
from lmcore.bleu import BleuSignature
from lmcore.evaluate import texts
from lmcore.exercises import grade_number
from lmcore.info import IIDSource, MarkovSource, MixtureSource
from lmcore.neural import NeuralLM, TrainingConfig
from lmcore.ngram import MLE, AddK, Convention, Interpolated, KneserNey, write_arpa
from lmcore.text import Vocabulary, train_bpe


def raised(call) -> tuple[type, str]:
    """The type and message of the error ``call()`` raises (it must raise one)."""
    with pytest.raises((TypeError, ValueError)) as error:
        call()
    return type(error.value), str(error.value)


# --- the module itself ----------------------------------------------------------------------------


def test_checks_imports_only_numpy_and_the_standard_library():
    tree = ast.parse(Path(checks.__file__).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported - {"__future__"} <= set(sys.stdlib_module_names) | {"numpy"}


@pytest.mark.parametrize("name", [name for name in checks.__all__ if callable(getattr(checks, name))])
def test_every_check_has_an_example_and_annotations(name):
    function = getattr(checks, name)
    assert ">>>" in (function.__doc__ or ""), f"{name} has no doctest example"
    if name.startswith("check_"):
        signature = inspect.signature(function)
        assert signature.return_annotation is not inspect.Signature.empty
        assert all(p.annotation is not inspect.Parameter.empty for p in signature.parameters.values())


# --- one value ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, error, words", [
    (2.0, TypeError, "order must be an int, got float"),
    (True, TypeError, "order must be an int, got bool"),
    ("3", TypeError, "order must be an int, got str"),
    (None, TypeError, "order must be an int, got NoneType"),
    (0, ValueError, "order must be at least 1, got 0"),
    (-5, ValueError, "order must be at least 1, got -5"),
])
def test_check_int_refuses(value, error, words):
    assert raised(lambda: checks.check_int(value, "order")) == (error, words)


def test_check_int_bounds_and_labels():
    assert checks.check_int(np.int64(3), "order") == 3 and type(checks.check_int(np.int64(3), "order")) is int
    assert checks.check_int(0, "stride", minimum=0) == 0
    assert checks.check_int(-7, "offset", minimum=None) == -7
    assert raised(lambda: checks.check_int(5, "k", maximum=4)) == (ValueError, "k must be between 1 and 4, got 5")
    assert raised(lambda: checks.check_int(5, "k", minimum=None, maximum=4)) == (
        ValueError, "k must be at most 4, got 5")
    assert raised(lambda: checks.check_int(1, "k", minimum=2, maximum=30, maximum_label="max_k=30")) == (
        ValueError, "k must be between 2 and max_k=30, got 1")


@pytest.mark.parametrize("kwargs, value, words", [
    ({"low": 0, "high": 1}, 1.5, "x must be between 0 and 1, got 1.5"),
    ({"low": 0, "high": 1, "low_open": True, "high_open": True}, 0, "x must be strictly between 0 and 1, got 0"),
    ({"low": 0, "high": 1, "high_open": True}, 1, "x must be in [0, 1), got 1"),
    ({"low": 0, "high": 0.5, "low_open": True}, 0.7, "x must be in (0, 0.5], got 0.7"),
    ({"low": 0}, -1, "x must be at least 0, got -1"),
    ({"low": 0, "low_open": True}, 0.0, "x must be greater than 0, got 0.0"),
    ({"high": 1}, 2, "x must be at most 1, got 2"),
    ({"high": 1, "high_open": True}, 1, "x must be less than 1, got 1"),
    ({}, math.nan, "x must be a finite number, got nan"),
    ({"low": 0}, math.inf, "x must be a finite number, got inf"),
])
def test_check_number_says_the_range(kwargs, value, words):
    assert raised(lambda: checks.check_number(value, "x", **kwargs)) == (ValueError, words)


@pytest.mark.parametrize("value", ["0.5", True, None, [0.5], 1j])
def test_check_number_refuses_what_is_not_a_real_number(value):
    expected = (TypeError, f"x must be a number, got {type(value).__name__}")
    assert raised(lambda: checks.check_number(value, "x")) == expected


@given(st.floats(-10, 10), st.floats(-10, 10), st.floats(-20, 20), st.booleans(), st.booleans())
def test_check_number_accepts_exactly_the_interval(low, high, value, low_open, high_open):
    assume(low < high)
    inside = (value > low if low_open else value >= low) and (value < high if high_open else value <= high)
    call = lambda: checks.check_number(value, "x", low=low, high=high, low_open=low_open, high_open=high_open)  # noqa: E731
    if inside:
        assert call() == value
    else:
        assert raised(call)[0] is ValueError


def test_check_number_takes_numpy_numbers_and_fractions():
    assert checks.check_number(np.float32(0.5), "x") == 0.5 and checks.check_number(Fraction(1, 4), "x") == 0.25
    assert type(checks.check_number(np.int64(2), "x")) is float


def test_check_bool_and_check_str():
    assert checks.check_bool(np.True_, "shuffle") is True
    assert raised(lambda: checks.check_bool("yes", "shuffle")) == (
        TypeError, "shuffle must be True or False, got 'yes'")
    assert checks.check_str("abc", "text") == "abc"
    assert raised(lambda: checks.check_str(b"abc", "text")) == (TypeError, "text must be a str, got bytes")


# --- log bases --------------------------------------------------------------------------------------


def test_check_base_accepts_the_usual_bases():
    assert checks.check_base(2) == 2.0 and checks.check_base(math.e) == math.e and checks.check_base(10) == 10.0
    assert checks.check_base(1.5) == 1.5 and checks.check_base(np.float64(2)) == 2.0


BAD_BASE_VALUES = st.one_of(st.floats(max_value=1.0), st.integers(max_value=1), st.sampled_from([math.inf, math.nan]))
BAD_BASE_TYPES = st.one_of(st.text(max_size=3), st.booleans(), st.none(), st.lists(st.integers(2, 3), max_size=2))

COIN, CHAIN = IIDSource([0.5, 0.5]), MarkovSource([[0.9, 0.1], [0.5, 0.5]])
BASE_TAKERS = {  # every public function that takes a log base, and the name it gives it
    "info.entropy": (lambda b: info.entropy([0.5, 0.5], base=b), "base"),
    "info.cross_entropy": (lambda b: info.cross_entropy([0.5, 0.5], [0.5, 0.5], base=b), "base"),
    "info.kl_divergence": (lambda b: info.kl_divergence([0.5, 0.5], [0.5, 0.5], base=b), "base"),
    "info.distribution_perplexity": (lambda b: info.distribution_perplexity([0.5, 0.5], base=b), "base"),
    "info.surprisal": (lambda b: info.surprisal(0.5, base=b), "base"),
    "info.perplexity_from_logprobs": (lambda b: info.perplexity_from_logprobs([-1.0], log_base=b), "log_base"),
    "info.convert (from)": (lambda b: info.convert(1.0, b, 2), "from_base"),
    "info.convert (to)": (lambda b: info.convert(1.0, 2, b), "to_base"),
    "info.plugin_entropy": (lambda b: info.plugin_entropy([1, 1], base=b), "base"),
    "info.miller_madow_correction": (lambda b: info.miller_madow_correction([1, 1], base=b), "base"),
    "info.block_entropy": (lambda b: info.block_entropy("abab", 2, base=b), "base"),
    "IIDSource.entropy_rate": (lambda b: COIN.entropy_rate(base=b), "base"),
    "IIDSource.empirical_rate": (lambda b: COIN.empirical_rate(np.array([0, 1]), base=b), "base"),
    "MarkovSource.entropy_rate": (lambda b: CHAIN.entropy_rate(base=b), "base"),
    "MarkovSource.block_entropy": (lambda b: CHAIN.block_entropy(3, base=b), "base"),
    "MixtureSource.entropy_rate": (lambda b: MixtureSource([COIN, COIN]).entropy_rate(base=b), "base"),
}


@given(st.one_of(BAD_BASE_VALUES, BAD_BASE_TYPES))
def test_a_bad_base_gets_the_same_error_from_every_function_that_takes_one(base):
    expected_type, expected = raised(lambda: checks.check_base(base))
    assert expected_type is (ValueError if isinstance(base, (int, float)) and not isinstance(base, bool) else TypeError)
    for where, (call, name) in BASE_TAKERS.items():
        error, message = raised(lambda: call(base))  # noqa: B023
        assert (error, message) == (expected_type, expected.replace("base", name, 1)), where


def test_a_base_below_one_is_no_longer_negative_information():
    assert raised(lambda: IIDSource([0.5, 0.5]).entropy_rate(base=0.5)) == raised(
        lambda: info.entropy([0.5, 0.5], base=0.5)) == (
        ValueError, "base must be a finite number > 1 (2: bits, e: nats, 10: bans), got 0.5")


# --- probabilities ------------------------------------------------------------------------------------


def test_the_tolerance_rule():
    assert checks.PROBABILITY_SUM_TOLERANCE == 1e-6
    assert checks.sum_tolerance(1) == checks.sum_tolerance(2) - 1e-12 == 1e-6
    assert checks.sum_tolerance(6) == pytest.approx(3e-6) and checks.sum_tolerance(1000) == pytest.approx(5e-4)
    for rounded in ([0.333333] * 3, [0.166667] * 6, [0.142857] * 7, [0.5, 0.5]):
        checks.check_distribution(rounded)
    for wrong in ([0.3333] * 3, [0.5, 0.4], [0.25] * 3, [0.333333, 0.333333]):
        with pytest.raises(ValueError, match="probabilities sum to"):
            checks.check_distribution(wrong)


@pytest.mark.parametrize("values, error, words", [
    ("abc", TypeError, "p must be a sequence, array or dict of probabilities, got str"),
    (b"ab", TypeError, "p must be a sequence, array or dict of probabilities, got bytes"),
    ([0.5, "x"], TypeError, "p must contain only numbers"),
    (["0.5", "0.5"], TypeError, "p must contain only numbers"),
    ([True, False], TypeError, "p must contain only numbers"),
    ([0.5, None], TypeError, "p must contain only numbers"),
    ([[0.5], [0.25, 0.25]], TypeError, "p must contain only numbers"),
    ([[0.5, 0.5]], ValueError, "p must be one-dimensional, got shape (1, 2)"),
    (0.5, ValueError, "p must be one-dimensional, got shape ()"),
    ([], ValueError, "p is empty"),
    ({}, ValueError, "p is empty"),
    ([0.5, math.nan], ValueError, "p contains NaN"),
    ([1.5, -0.5], ValueError, "p has negative probabilities: [-0.5]"),
    ([-1, -2, -3, -4], ValueError, "p has negative probabilities: [-1.0, -2.0, -3.0, ...]"),
    ([0.5, math.inf], ValueError, "p contains an infinite value"),
    ([0.5, 1.5], ValueError, "p has probabilities above 1: [1.5]"),
])
def test_check_probabilities_refuses(values, error, words):
    assert raised(lambda: checks.check_probabilities(values)) == (error, words)


def test_check_probabilities_takes_dicts_fractions_and_two_dimensions():
    assert checks.check_probabilities({"a": 0.25, "b": 1}).tolist() == [0.25, 1.0]
    assert checks.check_probabilities([Fraction(1, 2), Fraction(1, 4)]).tolist() == [0.5, 0.25]
    assert checks.check_probabilities([[0.5, 1.0]], "order_probs", ndim=2).shape == (1, 2)
    assert checks.check_probabilities([1 + 1e-7]).tolist() == [1 + 1e-7]  # a rounding error above 1
    array = np.array([0.25, 0.75])
    assert checks.check_distribution(array) is array  # no copy when none is needed
    assert raised(lambda: checks.check_weights([1, -1], "m")) == (ValueError, "m has negative weights: [-1.0]")
    assert checks.check_weights([3, 7]).tolist() == [3.0, 7.0]


def rounded_distributions(max_size: int = 60):
    """Distributions of up to ``max_size`` outcomes, each probability rounded to six decimals."""
    weights = st.lists(st.floats(0.01, 100), min_size=1, max_size=max_size)
    return weights.map(lambda w: [round(x / sum(w), 6) for x in w]).filter(lambda p: sum(p) > 0)


@given(rounded_distributions())
def test_any_distribution_rounded_to_six_decimals_is_accepted_everywhere(p):
    assert checks.check_distribution(p).tolist() == p
    assert info.entropy(p) >= 0
    assert len(info.huffman_code(p)) == sum(x > 0 for x in p)
    assert IIDSource(p).entropy_rate() >= 0
    assert MixtureSource([IIDSource([1.0])] * len(p), weights=p).entropy_rate() == 0.0


@given(rounded_distributions(), st.data())
def test_a_forgotten_outcome_is_refused(p, data):
    assume(len(p) >= 2)
    i = data.draw(st.integers(0, len(p) - 1))
    assume(p[i] > 2 * checks.sum_tolerance(len(p)))
    with pytest.raises(ValueError, match="probabilities sum to"):
        checks.check_distribution(p[:i] + p[i + 1:])


def uniform_like(values) -> list[float] | dict:
    """A valid distribution of as many outcomes as ``values`` has (one if it has none), a dict for a dict."""
    if isinstance(values, dict):
        return {key: 1 / len(values) for key in values} if values else {"a": 1.0}
    return [1 / len(values)] * len(values) if len(values) else [1.0]


DISTRIBUTION_TAKERS = {  # every public function that takes a distribution, and the name it gives it
    "info.entropy": (lambda p: info.entropy(p), "p"),
    "info.distribution_perplexity": (lambda p: info.distribution_perplexity(p), "p"),
    "info.cross_entropy (p)": (lambda p: info.cross_entropy(p, uniform_like(p)), "p"),
    "info.kl_divergence (m)": (lambda m: info.kl_divergence(uniform_like(m), m), "m"),
    "info.huffman_code": (lambda p: info.huffman_code(p), "probs"),
    "info.expected_code_length": (lambda p: info.expected_code_length(p), "probs"),
    "IIDSource": (lambda p: IIDSource(p), "probabilities"),
    "MixtureSource": (lambda w: MixtureSource([COIN] * max(len(w), 1), weights=w), "weights"),
    "ngram.check_lambdas": (lambda w: ngram.check_lambdas(w, len(w)), "lambdas"),
}

BAD_DISTRIBUTIONS = st.one_of(
    st.lists(st.floats(0, 1), min_size=1, max_size=8),  # sums other than 1
    st.lists(st.floats(-1, 1), min_size=1, max_size=8),  # negative values
    st.lists(st.sampled_from([0.5, math.nan, math.inf, "0.5", None, True, 2]), min_size=1, max_size=4),
    st.sampled_from([[], "ab", b"ab", [[0.5, 0.5]], [0.5, 0.4], [0.333333, 0.333333], {"a": 0.5, "b": 0.4}]),
)


def refused(p) -> bool:
    try:
        checks.check_distribution(p)
    except (TypeError, ValueError):
        return True
    return False


@given(BAD_DISTRIBUTIONS.filter(refused))
def test_a_bad_distribution_gets_the_same_error_from_every_function_that_takes_one(p):
    for where, (call, name) in DISTRIBUTION_TAKERS.items():
        expected = raised(lambda: checks.check_distribution(p, name))  # noqa: B023
        assert raised(lambda: call(p)) == expected, where  # noqa: B023


def test_the_same_bad_distribution_the_same_words():
    messages = {raised(functools.partial(call, [0.5, 0.4]))[1].split(": ", 1)[1]
                for call, _ in DISTRIBUTION_TAKERS.values()}
    assert messages == {"probabilities sum to 0.9, expected 1 (tolerance 1e-06)"}
    assert raised(lambda: IIDSource([0.5, 0.4])) == (
        ValueError, "probabilities: probabilities sum to 0.9, expected 1 (tolerance 1e-06)")
    assert raised(lambda: MarkovSource([[0.5, 0.5], [0.5, 0.4]])) == (
        ValueError, "row 1 of transition: probabilities sum to 0.9, expected 1 (tolerance 1e-06)")


def test_surprisal_checks_its_probability_as_the_arrays_are():
    assert raised(lambda: info.surprisal(-0.5)) == (ValueError, "prob has negative probabilities: [-0.5]")
    assert raised(lambda: info.surprisal(1.5)) == (ValueError, "prob has probabilities above 1: [1.5]")
    assert raised(lambda: info.surprisal("0.5")) == (TypeError, "prob must contain only numbers")


# --- counts of things ------------------------------------------------------------------------------------


INT_TAKERS = {  # public functions that take a number of symbols n (at least 1)
    "IIDSource.sample": lambda n: COIN.sample(n, seed=0),
    "MarkovSource.sample": lambda n: CHAIN.sample(n, seed=0),
    "MixtureSource.sample": lambda n: MixtureSource([COIN, COIN]).sample(n, seed=0),
    "IIDSource.block_entropy": lambda n: COIN.block_entropy(n),
    "MarkovSource.block_entropy": lambda n: CHAIN.block_entropy(n),
    "info.log_spaced": lambda n: info.log_spaced(n),
}


@given(st.one_of(st.integers(max_value=0), st.floats(allow_nan=False), st.booleans(), st.text(max_size=2), st.none()))
def test_a_bad_n_gets_the_same_error_from_every_function_that_takes_one(n):
    expected = raised(lambda: checks.check_int(n, "n"))
    for where, call in INT_TAKERS.items():
        assert raised(lambda: call(n)) == expected, where  # noqa: B023


def test_a_bad_count_of_samples_or_points():
    assert raised(lambda: info.rate_convergence(COIN, 10, n_samples=0)) == (
        ValueError, "n_samples must be at least 1, got 0")
    assert raised(lambda: info.rate_convergence(COIN, 10, n_samples=2.0)) == (
        TypeError, "n_samples must be an int, got float")
    assert raised(lambda: info.log_spaced(10, 1)) == (ValueError, "points must be at least 2, got 1")
    assert raised(lambda: info.block_entropy("abab", 5)) == (
        ValueError, "n must be between 1 and the sequence's length 4, got 5")


# --- tokens and sentences ----------------------------------------------------------------------------------


@pytest.mark.parametrize("tokens, error, words", [
    ("the cat", TypeError, "sentence must be a sequence of tokens (e.g. a list of str), got str"),
    (None, TypeError, "sentence must be a sequence of tokens (e.g. a list of str), got NoneType"),
    ({"the", "cat"}, TypeError, "sentence must be a sequence of tokens (e.g. a list of str), got set"),
    (["the", 3], TypeError, "sentence must contain only str tokens, got int 3"),
    (["the", ["cat"]], TypeError, "sentence must contain only str tokens, got list ['cat']"),
])
def test_check_tokens_and_the_vocabulary_refuse_alike(tokens, error, words):
    assert raised(lambda: checks.check_tokens(tokens, "sentence")) == (error, words)
    assert raised(lambda: Vocabulary.build([["the", "cat"]]).encode(tokens)) == (error, words)
    assert checks.check_tokens(("the", "cat"), "sentence") == ("the", "cat")


TOY = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
BIGRAM = MLE(2).fit(TOY)
NEURAL = NeuralLM(Vocabulary.build(TOY), context_length=1, dim=2, hidden=2)

SENTENCE_TAKERS = {  # public functions that take a list of token lists named sentences
    "Vocabulary.build": lambda s: Vocabulary.build(s),
    "Vocabulary.oov_rate": lambda s: Vocabulary.build([["a"]]).oov_rate(s),
    "evaluate.texts": lambda s: texts(s, "word"),
    "text.train_bpe": lambda s: train_bpe(s, 30),
    "ngram MLE.fit": lambda s: MLE(1).fit(s),
    "ngram KneserNey.fit (a vocabulary given)": lambda s: KneserNey(2).fit(s, vocab=BIGRAM.vocab),
    "ngram token_logprobs": lambda s: BIGRAM.token_logprobs(s),
    "ngram token_counts": lambda s: BIGRAM.token_counts(s),
    "NeuralLM.frame": lambda s: NEURAL.frame(s),
    "coding.surprisal_bits": lambda s: coding.surprisal_bits(KneserNey(2).fit(TOY), s),
    "coding.fit_speller": lambda s: coding.fit_speller(s),
    "coding.join_text": lambda s: coding.join_text(s),
    "shannon.context_profile": lambda s: shannon.context_profile([BIGRAM], s),
    "shannon.draw_sentence": lambda s: shannon.draw_sentence(s),
}


@pytest.mark.parametrize("sentences, error, words", [
    ("i spent money", TypeError, "sentences must be a list of token lists, got str"),
    (None, TypeError, "sentences must be a list of token lists, got NoneType"),
    (["i spent money"], TypeError,
     "sentences must be a list of token lists (split each sentence into tokens), got a str"),
    ([["i"], 3], TypeError, "sentences must be a list of token lists (split each sentence into tokens), got a int"),
    ([["i", "spent"], ["money", 3]], TypeError, "sentences[1] must contain only str tokens, got int 3"),
])
def test_a_bad_list_of_sentences_gets_the_same_error_everywhere(sentences, error, words):
    assert raised(lambda: checks.check_sentences(sentences)) == (error, words)
    for where, call in SENTENCE_TAKERS.items():  # a bad token named in its sentence, though models flatten them
        assert raised(lambda: call(sentences)) == (error, words), where  # noqa: B023


def test_check_sentences_empty_and_unchecked_tokens():
    assert raised(lambda: checks.check_sentences([])) == (ValueError, "sentences is empty")
    assert checks.check_sentences([], allow_empty=True) == []
    assert checks.check_sentences([["a", 1]], tokens=False) == [["a", 1]]
    assert raised(lambda: checks.check_sentences("a", "train")) == (
        TypeError, "train must be a list of token lists, got str")


@given(st.lists(st.lists(st.text(max_size=3), max_size=4), max_size=4))
def test_lists_of_str_tokens_pass_unchanged(sentences):
    assert checks.check_sentences(sentences, allow_empty=True) is sentences
    for sentence in sentences:
        assert checks.check_tokens(sentence, "sentence") is sentence


# --- models and the tools that measure them -------------------------------------------------------------


def outcome(call) -> tuple[type, str] | None:
    """The type and message of the error ``call()`` raises, or None if it raises none."""
    try:
        call()
    except (TypeError, ValueError) as error:
        return type(error), str(error)
    return None


BAD_INTS = st.one_of(st.integers(max_value=0), st.floats(allow_nan=False), st.booleans(), st.text(max_size=2),
                     st.none())

ORDER_TAKERS = {  # a model's order: an int from 1
    "ngram.check_order": lambda n: ngram.check_order(n),
    "MLE": lambda n: MLE(n),
    "AddK": lambda n: AddK(n),
    "KneserNey": lambda n: KneserNey(n),
    "Interpolated": lambda n: Interpolated(n),
}

COUNT_ORDER_TAKERS = {  # an order from 1 to the model's
    "ngram_counts": lambda n: BIGRAM.ngram_counts(n),
    "token_counts": lambda n: BIGRAM.token_counts(TOY, order=n),
    "KneserNey.adjusted_counts": lambda n: KneserNey(2).fit(TOY).adjusted_counts(n),
}

SIZE_TAKERS = {  # (call, the name it gives the argument, the least it allows)
    "generate (n_sentences)": (lambda n: BIGRAM.generate(n, seed=0), "n_sentences", 0),
    "generate (max_length)": (lambda n: BIGRAM.generate(1, seed=0, max_length=n), "max_length", 1),
    "fit_interpolation_weights": (lambda n: ngram.fit_interpolation_weights([[0.5, 0.5]], max_iterations=n),
                                  "max_iterations", 1),
    "TrainingConfig (epochs)": (lambda n: TrainingConfig(epochs=n), "epochs", 1),
    "TrainingConfig (seed)": (lambda n: TrainingConfig(seed=n), "seed", 0),
    "shannon.top_guesses": (lambda n: shannon.top_guesses(BIGRAM, ["i"], n), "n_guesses", 1),
    "shannon.predict": (lambda n: shannon.predict(BIGRAM, ["i"], "spent", n), "n_guesses", 1),
    "shannon.play_step": (lambda n: shannon.play_step(["i", "spent"], 0, None, {"b": BIGRAM}, n_guesses=n),
                          "n_guesses", 1),
    "shannon.context_profile": (lambda n: shannon.context_profile([BIGRAM], TOY, n_positions=n), "n_positions", 1),
    "shannon.draw_sentence (seed)": (lambda n: shannon.draw_sentence(TOY, n, 3, 4), "seed", 0),
    "shannon.draw_sentence (min_tokens)": (lambda n: shannon.draw_sentence(TOY, 0, n, 4), "min_tokens", 1),
    "shannon.guess_frequencies": (lambda n: shannon.guess_frequencies([1], n), "n_symbols", 1),
    "BleuSignature": (lambda n: BleuSignature(nrefs=n), "nrefs", 1),
    "exercises.grade_number": (lambda n: grade_number(1.0, 1.0, sig_digits=n), "sig_digits", 1),
}


@given(BAD_INTS)
def test_a_bad_order_or_size_gets_the_same_error_from_every_function_that_takes_one(n):
    expected = raised(lambda: checks.check_int(n, "order"))
    for where, call in ORDER_TAKERS.items():
        assert raised(lambda: call(n)) == expected, where  # noqa: B023
    expected = raised(lambda: checks.check_int(n, "order", maximum=2, maximum_label="the model's order 2"))
    for where, call in COUNT_ORDER_TAKERS.items():
        if not (where == "token_counts" and n is None):  # None: the model's order
            assert raised(lambda: call(n)) == expected, where  # noqa: B023
    for where, (call, name, minimum) in SIZE_TAKERS.items():
        expected = outcome(lambda: checks.check_int(n, name, minimum=minimum))  # noqa: B023
        if expected is not None and not (name == "sig_digits" and n is None):  # None: no precision asked
            assert outcome(lambda: call(n)) == expected, where  # noqa: B023


def test_an_order_above_the_models_is_named_with_it():
    assert raised(lambda: BIGRAM.ngram_counts(3)) == (
        ValueError, "order must be between 1 and the model's order 2, got 3")
    assert raised(lambda: shannon.play_step(["i", "spent"], 2, None, {"b": BIGRAM})) == (
        ValueError, "position must be between 0 and the sentence's last index 1, got 2")
    assert raised(lambda: shannon.draw_sentence(TOY, 0, 4, 3)) == (
        ValueError, "max_tokens must be at least min_tokens (4), got 3")


BAD_NUMBERS = st.one_of(st.floats(), st.integers(-3, 3), st.sampled_from(["0.5", True, None, [0.5]]))

NUMBER_TAKERS = {  # (call, name, the check's interval)
    "fit_interpolation_weights": (lambda x: ngram.fit_interpolation_weights([[0.5, 0.5]], tolerance=x),
                                  "tolerance", {"low": 0, "high": 1, "low_open": True, "high_open": True}),
    "TrainingConfig (learning_rate)": (lambda x: TrainingConfig(learning_rate=x), "learning_rate",
                                       {"low": 0, "low_open": True}),
    "TrainingConfig (decay)": (lambda x: TrainingConfig(decay=x), "decay", {"low": 0, "low_open": True}),
    "TrainingConfig (weight_decay)": (lambda x: TrainingConfig(weight_decay=x), "weight_decay",
                                      {"low": 0, "high": 1, "high_open": True}),
}


@given(BAD_NUMBERS)
def test_a_bad_number_gets_the_checks_error(x):
    for where, (call, name, interval) in NUMBER_TAKERS.items():
        expected = outcome(lambda: checks.check_number(x, name, **interval))  # noqa: B023
        if expected is not None:
            assert outcome(lambda: call(x)) == expected, where  # noqa: B023
    expected = outcome(lambda: checks.check_number(x, "k", low=0, low_open=True))
    if expected is not None:  # add-k's k: the checks' words, and what k = 0 would be
        hint = " (k = 0 is the MLE model)" if expected[0] is ValueError and x <= 0 else ""
        assert outcome(lambda: AddK(2, k=x)) == (expected[0], expected[1] + hint)


FLAG_TAKERS = {
    "write_arpa (exact)": (lambda b: write_arpa(KneserNey(2).fit(TOY), "/nonexistent/x.arpa", exact=b), "exact"),
    "TrainingConfig (unigram_start)": (lambda b: TrainingConfig(unigram_start=b), "unigram_start"),
    "Convention (open_vocabulary)": (lambda b: MLE(2, convention=Convention(open_vocabulary=b)),
                                     "convention.open_vocabulary"),
    "Convention (bos_outcome)": (lambda b: MLE(2, convention=Convention(bos_outcome=b)), "convention.bos_outcome"),
}


@pytest.mark.parametrize("flag", [1, 0, "yes", None, 1.0])
def test_a_flag_must_be_true_or_false_everywhere(flag):
    for where, (call, name) in FLAG_TAKERS.items():
        assert raised(lambda: call(flag)) == (TypeError, f"{name} must be True or False, got {flag!r}"), where  # noqa: B023


STR_TAKERS = {
    "LanguageModel.prob": (lambda w: BIGRAM.prob(w, ["i"]), "word"),
    "CountedNgramModel.count": (lambda w: BIGRAM.count(w, ["i"]), "word"),
    "NeuralLM.prob": (lambda w: NEURAL.prob(w, ["i"]), "word"),
    "shannon.predict": (lambda w: shannon.predict(BIGRAM, ["i"], w), "token"),
    "shannon.rank_of": (lambda w: shannon.rank_of(BIGRAM, ["i"], w), "token"),
    "shannon.check_guess": (lambda w: shannon.check_guess(w), "guess"),
    "coding.join_text": (lambda w: coding.join_text(TOY, separator=w), "separator"),
    "i18n.tr": (lambda w: i18n.tr(w), "text"),
}

TOKENS_TAKERS = {  # a context, a history, a sentence or the guesses: a list of str
    "LanguageModel.prob": (lambda c: BIGRAM.prob("spent", c), "context"),
    "LanguageModel.distribution": (lambda c: BIGRAM.distribution(c), "context"),
    "CountedNgramModel.continuations": (lambda c: BIGRAM.continuations(c), "context"),
    "NeuralLM.next_word_distribution": (lambda c: NEURAL.next_word_distribution(c), "context"),
    "shannon.top_guesses": (lambda c: shannon.top_guesses(BIGRAM, c), "context"),
    "lm.model_context": (lambda c: lm.model_context(BIGRAM, c), "prefix"),
    "shannon.check_sentence": (lambda c: shannon.check_sentence(c, {"b": BIGRAM}), "sentence"),
    "shannon.guess_counts": (lambda c: shannon.guess_counts("a", c), "guesses"),
}


@pytest.mark.parametrize("value", [3, None, b"i", ["i"]])
def test_a_word_that_is_no_str_gets_the_same_error_everywhere(value):
    for where, (call, name) in STR_TAKERS.items():
        assert raised(lambda: call(value)) == raised(lambda: checks.check_str(value, name)), where  # noqa: B023


@pytest.mark.parametrize("context", ["i", None, 3, {"i"}, [3], ["i", None], [b"i"]])
def test_a_bad_context_gets_the_same_error_everywhere(context):
    for where, (call, name) in TOKENS_TAKERS.items():
        assert raised(lambda: call(context)) == raised(lambda: checks.check_tokens(context, name)), where  # noqa: B023


BAD_TABLES = st.one_of(
    st.lists(st.lists(st.floats(-1, 2), min_size=2, max_size=2), max_size=3),
    st.sampled_from([[[0.5, math.nan]], [[0.5, math.inf]], [0.5, 0.5], [[0.5, "x"]], "ab", [], [[]], 0.5]),
)


@given(BAD_TABLES.filter(lambda t: outcome(lambda: checks.check_probabilities(t, "order_probs", ndim=2))))
def test_a_bad_table_of_order_probabilities_gets_the_same_error_everywhere(table):
    expected = raised(lambda: checks.check_probabilities(table, "order_probs", ndim=2))
    for call in (ngram.check_order_probs, ngram.fit_interpolation_weights,
                 lambda t: ngram.interpolated_probs(t, [0.5, 0.5]), lambda t: ngram.interpolated_perplexity(t, [1.0])):
        assert raised(lambda: call(table)) == expected  # noqa: B023


@given(BAD_DISTRIBUTIONS.filter(refused))
def test_shannons_bounds_refuse_as_a_distribution_is_refused_but_name_counts(frequencies):
    expected = raised(lambda: checks.check_distribution(frequencies, "frequencies"))
    error, message = raised(lambda: shannon.shannon_bounds(frequencies))
    try:
        weights = checks.check_weights(frequencies)
    except (TypeError, ValueError):
        weights = np.zeros(1)
    if weights.sum() > 1 and (weights == np.round(weights)).all():  # whole numbers: counts, not frequencies
        total = f"{weights.sum():g}"
        assert (error, message) == (ValueError, f"frequencies: probabilities sum to {total}, expected 1: these look "
                                                f"like counts; divide them by their total ({total})")
    else:
        assert (error, message) == expected


@given(st.lists(st.one_of(st.floats(-1, 2), st.sampled_from([math.nan, math.inf, "0.5", None])), min_size=1,
                max_size=5).map(lambda values: dict(enumerate(values))).filter(refused))
def test_arithmetic_coding_by_hand_refuses_a_distribution_as_the_checks_do(distribution):
    expected = raised(lambda: checks.check_distribution(distribution, "distributions[0]"))
    assert raised(lambda: coding.narrow_interval([0], distribution)) == expected
    assert raised(lambda: coding.narrow_interval([0, 0], [{0: 1.0}, distribution])) == (
        expected[0], expected[1].replace("distributions[0]", "distributions[1]", 1))


def test_an_int_beyond_a_floats_range_is_an_infinite_value_not_an_overflow():
    with pytest.raises(ValueError, match="p contains an infinite value"):
        info.entropy([10**400, 1])
    with pytest.raises(ValueError, match="weights contains an infinite value"):
        checks.check_weights([10**400], "weights")


@pytest.mark.parametrize("code", [None, 3, b"zh"])
def test_a_language_code_that_is_no_str_is_named(code):  # a list is unhashable to the catalogs' cache first
    assert raised(lambda: i18n.catalog(code)) == raised(lambda: checks.check_str(code, "code"))


# --- finite numbers, samples without missing values, file names -------------------------------------


def test_check_finite_refuses_nan_and_infinity_but_not_negative_numbers():
    assert checks.check_finite([[-1, 0.5]], "matrix").tolist() == [[-1.0, 0.5]]
    assert raised(lambda: checks.check_finite([0.5, math.nan], "scores")) == (ValueError, "scores contains NaN")
    assert raised(lambda: checks.check_finite(np.array([-math.inf]), "scores")) == (
        ValueError, "scores contains an infinite value")
    assert raised(lambda: checks.check_finite([0.5, None], "scores")) == (TypeError, "scores must contain only numbers")
    assert raised(lambda: checks.check_finite("0.5", "scores")) == (
        TypeError, "scores must be numbers (a sequence or an array), got str")


@pytest.mark.parametrize("sample, words", [
    ([1.0, math.nan], "sequence contains NaN at position 1"),
    (np.array([[1.0, 2.0], [np.nan, 3.0]]), "sequence contains NaN at position 2"),  # in the flattened array
    (["a", None, "b"], "sequence contains None at position 1"),
    (np.array(["a", math.nan], dtype=object), "sequence contains NaN at position 1"),
    ((x for x in [1.0, None]), "sequence contains None:"),  # read once: no position
])
def test_check_no_missing_names_the_missing_value_and_where_it_is(sample, words):
    error, message = raised(lambda: checks.check_no_missing(sample, "sequence"))
    assert error is ValueError and message.startswith(words) and "a missing value, not a symbol" in message


def test_check_no_missing_scans_the_distinct_values_it_is_given():
    tokens = ["a", "b"] * 1000
    assert checks.check_no_missing(tokens, "tokens", distinct={"a": 0, "b": 1}) is tokens
    assert checks.check_no_missing(np.arange(3), "ids") is not None  # ints hold no NaN
    assert raised(lambda: checks.check_no_missing(["a", None], "tokens", distinct={"a": 0, None: 1}))[1].startswith(
        "tokens contains None at position 1")


@pytest.mark.parametrize("path, error, words", [
    (3, TypeError, "path must be a file name (a str or a pathlib.Path), got int"),  # open(3) is file descriptor 3
    (None, TypeError, "path must be a file name (a str or a pathlib.Path), got NoneType"),
    ("", ValueError, "path is empty: give a file name"),
])
def test_check_path_refuses_what_is_no_file_name(path, error, words):
    assert raised(lambda: checks.check_path(path)) == (error, words)
    assert checks.check_path(Path("model.arpa")) == Path("model.arpa")


@pytest.mark.parametrize("n", [None, math.nan, 2.5, "3"])
def test_sum_tolerance_takes_a_number_of_outcomes(n):
    assert raised(lambda: checks.sum_tolerance(n)) == raised(lambda: checks.check_int(n, "n", minimum=0))


# --- gaps a mutation run found -----------------------------------------------------------------------


def test_any_sequence_but_text_holds_tokens_or_sentences():
    """Not only lists and tuples: any Sequence (a UserList, a range of no tokens) is taken; str, bytes,
    sets, iterators and arrays are not sequences of tokens."""
    assert checks.check_tokens(UserList(["a"])) == ["a"] and checks.check_tokens(("a",)) == ("a",)
    assert checks.check_tokens(range(0)) == range(0)
    sentences = UserList([("a",), UserList(["b"]), []])
    assert checks.check_sentences(sentences) is sentences
    for value, kind in [(b"ab", "bytes"), ({"a"}, "set"), (iter(["a"]), "list_iterator"), (np.array(["a"]), "ndarray"),
                        ("ab", "str"), (None, "NoneType")]:
        assert raised(lambda: checks.check_tokens(value)) == (  # noqa: B023
            TypeError, f"tokens must be a sequence of tokens (e.g. a list of str), got {kind}")
        assert raised(lambda: checks.check_sentences([["a"], value])) == (  # noqa: B023
            TypeError, f"sentences must be a list of token lists (split each sentence into tokens), got a {kind}")
        assert raised(lambda: checks.check_sentences(value))[0] is TypeError  # noqa: B023


def test_a_weight_beyond_a_float_keeps_its_sign():
    """-10**400 is a negative weight (it was reported as an infinite one), 10**400 an infinite one."""
    assert raised(lambda: checks.check_weights([1, -(10**400)])) == (ValueError, "weights has negative weights: [-inf]")
    assert raised(lambda: checks.check_weights([1, 10**400])) == (ValueError, "weights contains an infinite value")
    assert raised(lambda: checks.check_number(-(10**400), "x"))[1].startswith("x must be a finite number, got -1000")


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_paused_restores_the_collector_as_it_was_even_after_an_error(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(KeyError), checks.gc_paused():
            assert not gc.isenabled()
            raise KeyError("inside")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_arrays_name_their_dimensions_and_show_at_most_three_bad_values():
    assert raised(lambda: checks.check_weights([1.0], ndim=2)) == (
        ValueError, "weights must be two-dimensional, got shape (1,)")
    assert raised(lambda: checks.check_weights([[1.0]], ndim=3)) == (
        ValueError, "weights must be 3-dimensional, got shape (1, 1)")
    assert raised(lambda: checks.check_weights([-1, -2, -3])) == (
        ValueError, "weights has negative weights: [-1.0, -2.0, -3.0]")
    assert raised(lambda: checks.check_weights(np.zeros((0, 2)), ndim=2)) == (ValueError, "weights is empty")


def test_a_sum_exactly_at_the_tolerance_passes():
    assert checks.sum_tolerance(0) == checks.PROBABILITY_SUM_TOLERANCE == 1e-6
    # a million outcomes are allowed 0.500000000001; one of 1 - that and the rest 0 sum to exactly that far from 1
    p = np.zeros(1_000_000)
    p[0] = 1 - checks.sum_tolerance(p.size)
    assert 1 - p.sum() == checks.sum_tolerance(p.size) and checks.check_distribution(p) is not None
    p[0] = np.nextafter(p[0], 0)
    assert raised(lambda: checks.check_distribution(p)) == (
        ValueError, "p: probabilities sum to 0.5, expected 1 (tolerance 0.5)")
    assert raised(lambda: checks.check_distribution([0.5, 0.5 + 1.01e-6])) == (
        ValueError, "p: probabilities sum to 1, expected 1 (tolerance 1e-06)")


@pytest.mark.parametrize("base, shown", [(1, "1"), (1.0, "1.0"), (np.float64(1.0), "1.0")])
def test_a_base_of_1_is_refused(base, shown):
    assert raised(lambda: checks.check_base(base)) == (
        ValueError, f"base must be a finite number > 1 (2: bits, e: nats, 10: bans), got {shown}")
