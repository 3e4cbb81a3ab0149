import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import checks, info

HORSES = [1 / 2, 1 / 4, 1 / 8, 1 / 16] + [1 / 64] * 4


# --- the course's numbers ------------------------------------------------------------


def test_eight_equally_likely_teams_need_three_bits():
    assert info.entropy([1 / 8] * 8) == 3.0


def test_rain_with_probability_one_quarter():
    assert info.entropy({"rain": 0.25, "dry": 0.75}) == pytest.approx(0.8113, abs=5e-5)


def test_horse_race_entropy_and_huffman_code():
    assert info.entropy(HORSES) == 2.0
    code = info.huffman_code(HORSES)
    assert [len(code[i]) for i in range(8)] == [1, 2, 3, 4, 6, 6, 6, 6]
    assert [code[i] for i in range(4)] == ["0", "10", "110", "1110"]
    assert info.expected_code_length(HORSES) == 2.0


def test_uniform_eight_horses():
    assert info.entropy([1 / 8] * 8) == 3.0
    assert info.expected_code_length([1 / 8] * 8) == 3.0


def test_fifty_random_digits_under_a_uniform_model_have_perplexity_ten():
    digits = np.random.default_rng(0).integers(0, 10, size=50)
    logprobs = np.log(np.full(digits.size, 0.1))
    perplexity, bits = info.perplexity_from_logprobs(logprobs)
    assert perplexity == pytest.approx(10.0, rel=1e-12)
    assert bits == pytest.approx(math.log2(10), rel=1e-12)


def test_the_a_b_exercise():
    model = {"A": 0.8, "B": 0.2}
    text = ["A", "B"]
    perplexity, bits = info.perplexity_from_logprobs([math.log(model[w]) for w in text])
    assert bits == pytest.approx(1.3219, abs=5e-5)
    assert perplexity == pytest.approx(2.5, rel=1e-12)
    # the same text as an empirical distribution against the model
    assert info.cross_entropy({"A": 0.5, "B": 0.5}, model) == pytest.approx(bits, rel=1e-12)


# --- conventions -----------------------------------------------------------------------


def test_zero_log_zero_is_zero():
    assert info.entropy([1.0, 0.0]) == 0.0
    assert info.cross_entropy([1.0, 0.0], [0.5, 0.5]) == 1.0


def test_model_zero_where_data_happens_gives_inf():
    assert info.cross_entropy([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert info.kl_divergence([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert info.surprisal(0.0) == math.inf
    assert info.perplexity_from_logprobs([math.log(0.5), -math.inf]) == (math.inf, math.inf)


def test_dicts_are_aligned_by_outcome_not_position():
    p = {"a": 0.5, "b": 0.5}
    q = {"b": 0.9, "a": 0.1}
    assert info.cross_entropy(p, q) == pytest.approx(-(0.5 * math.log2(0.1) + 0.5 * math.log2(0.9)))
    assert info.kl_divergence({"a": 1.0}, {"a": 0.5, "b": 0.5}) == pytest.approx(1.0)


def test_the_same_values_whatever_log_base_the_logprobs_use():
    probs = np.array([0.5, 0.1, 0.25, 0.9])
    natural = info.perplexity_from_logprobs(np.log(probs))
    for base, logs in [(2, np.log2(probs)), (10, np.log10(probs))]:
        assert info.perplexity_from_logprobs(logs, log_base=base) == pytest.approx(natural, rel=1e-12)


def test_bases_and_conversion():
    assert info.entropy([0.5, 0.5], base=math.e) == pytest.approx(math.log(2))
    assert info.convert(1.0, 2, math.e) == pytest.approx(math.log(2))
    assert info.convert(1.0, 2, 10) == pytest.approx(0.30103, abs=5e-6)  # one bit in bans
    assert info.convert(1.0, math.e, 2) == pytest.approx(1 / math.log(2))  # one nat in bits
    assert info.convert(3.0, 2, 2) == 3.0
    assert info.surprisal(0.01, base=10) == pytest.approx(2.0)


def test_a_certain_outcome_tells_nothing():
    assert info.surprisal(1.0) == 0.0
    assert info.surprisal(1.0 + 1e-12) == 0.0  # rounding above 1 is still certainty
    assert info.entropy([1.0]) == 0.0 and info.distribution_perplexity([1.0]) == 1.0


def test_a_model_missing_an_outcome_that_happens_gives_inf():
    assert info.cross_entropy({"a": 0.5, "b": 0.5}, {"a": 1.0}) == math.inf
    assert info.kl_divergence({"a": 0.5, "b": 0.5}, {"a": 1.0}) == math.inf
    assert info.cross_entropy({"a": 1.0}, {"a": 0.5, "b": 0.5}) == 1.0  # the model's extra outcome costs bits only


def test_huffman_ties_are_deterministic_and_dict_keys_are_kept():
    code = info.huffman_code({"x": 0.25, "y": 0.25, "z": 0.25, "w": 0.25})
    assert code == {"x": "00", "y": "01", "z": "10", "w": "11"}
    assert info.huffman_code([1.0]) == {0: ""}
    assert info.huffman_code([0.5, 0.0, 0.5]) == {0: "0", 2: "1"}


# --- properties ------------------------------------------------------------------------


def distributions(min_size=1, max_size=12):
    weights = st.lists(st.floats(0, 1, allow_nan=False), min_size=min_size, max_size=max_size)
    return weights.filter(lambda w: sum(w) > 1e-3).map(lambda w: np.array(w) / sum(w))


def distribution_pairs():
    return st.integers(1, 10).flatmap(
        lambda k: st.tuples(distributions(k, k), distributions(k, k))
    )


@given(distributions())
def test_entropy_lies_between_zero_and_log_of_outcomes(p):
    h = info.entropy(p)
    assert -1e-12 <= h <= math.log2(len(p)) + 1e-9


@given(distribution_pairs())
def test_gibbs_inequality_and_non_negative_kl(pq):
    p, q = pq
    assert info.cross_entropy(p, q) >= info.entropy(p) - 1e-9
    assert info.kl_divergence(p, q) >= 0
    assert info.cross_entropy(p, p) == pytest.approx(info.entropy(p), abs=1e-9)
    assert info.kl_divergence(p, p) == pytest.approx(0.0, abs=1e-9)


@given(st.integers(1, 500))
def test_uniform_over_k_outcomes_has_perplexity_k(k):
    assert info.distribution_perplexity([1 / k] * k) == pytest.approx(k, rel=1e-9)


@given(distributions())
def test_perplexity_is_the_same_in_bits_and_nats(p):
    in_bits, in_nats = info.distribution_perplexity(p, base=2), info.distribution_perplexity(p, base=math.e)
    assert in_bits == pytest.approx(in_nats, rel=1e-9)


@settings(max_examples=200)
@given(distributions(1, 30))
def test_huffman_expected_length_is_within_one_bit_of_entropy(p):
    h = info.entropy(p)
    length = info.expected_code_length(p)
    assert h - 1e-9 <= length < h + 1 + 1e-9  # strict in exact arithmetic
    code = info.huffman_code(p)
    words = list(code.values())
    assert not any(a != b and b.startswith(a) for a in words for b in words), "not a prefix code"


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: info.entropy([0.5, -0.1, 0.6]), ValueError, "negative"),
        (lambda: info.entropy([0.5, float("nan")]), ValueError, "NaN"),
        (lambda: info.entropy([0.5, 0.43]), ValueError, "sum to 0.93"),
        (lambda: info.entropy([]), ValueError, "empty"),
        (lambda: info.entropy({}), ValueError, "empty"),
        (lambda: info.entropy("abc"), TypeError, "p must be"),
        (lambda: info.entropy([0.5, "x"]), TypeError, "numbers"),
        (lambda: info.entropy([[0.5, 0.5]]), ValueError, "one-dimensional"),
        (lambda: info.cross_entropy([0.5, 0.5], [1 / 3] * 3), ValueError, "different lengths"),
        (lambda: info.cross_entropy({"a": 1.0}, [1.0]), TypeError, "both be dicts"),
        (lambda: info.cross_entropy([0.5, 0.5], [0.9, 0.3]), ValueError, "m: probabilities sum to 1.2"),
        (lambda: info.entropy([0.5, 0.5], base=1), ValueError, "base"),
        (lambda: info.entropy([0.5, 0.5], base=0), ValueError, "base"),
        (lambda: info.entropy([0.5, 0.5], base=-2), ValueError, "base"),
        (lambda: info.entropy([0.5, 0.5], base="2"), TypeError, "base"),
        (lambda: info.surprisal(1.5), ValueError, "prob has probabilities above 1"),
        (lambda: info.surprisal(-0.5), ValueError, "negative"),
        (lambda: info.perplexity_from_logprobs([]), ValueError, "empty"),
        (lambda: info.perplexity_from_logprobs([0.5]), ValueError, "<= 0"),
        (lambda: info.perplexity_from_logprobs([float("nan")]), ValueError, "NaN"),
        (lambda: info.perplexity_from_logprobs([-1.0], log_base=1), ValueError, "base"),
        (lambda: info.huffman_code([0.2, 0.2]), ValueError, "sum to 0.4"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_sum_tolerance_is_documented_and_applied():
    assert checks.PROBABILITY_SUM_TOLERANCE == 1e-6
    info.entropy([0.333333, 0.333333, 0.333334])
    info.entropy([0.333333] * 3)  # six-decimal textbook numbers pass: the sum is 0.999999
    info.entropy([0.166667] * 6)  # 1.000002
    with pytest.raises(ValueError):
        info.entropy([0.3333, 0.3333, 0.3333])


# --- edges that mutation testing found unpinned ----------------------------------------


def test_a_log_base_must_be_above_one():
    for base in (0.5, 1, 0, -2, math.inf):
        with pytest.raises(ValueError, match="base must be a finite number > 1"):
            info.entropy([0.5, 0.5], base=base)
    assert info.entropy([0.5, 0.5], base=1.5) == pytest.approx(1 / math.log2(1.5))


def test_errors_name_the_argument_by_default():
    with pytest.raises(ValueError, match=r"^p: probabilities sum to 0\.9"):
        checks.check_distribution([0.5, 0.4])
    with pytest.raises(ValueError, match=r"^p has negative probabilities"):
        checks.check_probabilities([0.5, -0.1])
    with pytest.raises(ValueError, match=r"^p: probabilities sum"):
        info.cross_entropy([0.5, 0.4], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"^prob has negative"):
        info.surprisal(-0.5)
    with pytest.raises(ValueError, match=r"^probs: probabilities sum"):
        info.huffman_code([0.2, 0.2])
    with pytest.raises(ValueError, match=r"^probs: probabilities sum"):
        info.expected_code_length([0.2, 0.2])


def test_the_tolerance_above_one_is_inclusive():
    assert info.surprisal(1 + checks.PROBABILITY_SUM_TOLERANCE) == 0.0
    with pytest.raises(ValueError, match="above 1"):
        info.surprisal(1 + 2 * checks.PROBABILITY_SUM_TOLERANCE)


def test_zero_information_is_plus_zero_never_minus_zero():
    for value in (info.entropy([1.0]), info.surprisal(1.0), info.cross_entropy([1.0, 0.0], [1.0, 0.0])):
        assert value == 0.0 and math.copysign(1.0, value) == 1.0


def test_log_probabilities_may_round_a_hair_above_zero():
    perplexity, bits = info.perplexity_from_logprobs([1e-12])  # log(1) computed a hair high
    assert perplexity == pytest.approx(1.0, abs=1e-9) and bits == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="logprobs must be <= 0"):
        info.perplexity_from_logprobs([1.5e-12])


# --- odd inputs: the right number or an error that names the argument -------------------------------


@pytest.mark.parametrize("call, error, words", [
    (lambda: info.surprisal(True), TypeError, "^prob must contain only numbers$"),
    (lambda: info.surprisal("0.5"), TypeError, "^prob must contain only numbers$"),
    (lambda: info.surprisal([0.5]), TypeError, "^prob must be a number, got list$"),  # was "shape (1, 1)"
    (lambda: info.surprisal(10**400), ValueError, "^prob contains an infinite value$"),
    (lambda: info.perplexity_from_logprobs(["-1"]), TypeError, "^logprobs must contain only numbers$"),
    (lambda: info.perplexity_from_logprobs([True]), TypeError, "^logprobs must contain only numbers$"),
    (lambda: info.perplexity_from_logprobs([False, False]), TypeError, "^logprobs must contain only numbers$"),
    (lambda: info.perplexity_from_logprobs("-1"), TypeError, "^logprobs must be a sequence .*, got str$"),
    (lambda: info.perplexity_from_logprobs(-1.0), TypeError, "^logprobs must be a sequence or array of numbers"),
    (lambda: info.perplexity_from_logprobs({"a": -1.0}), TypeError, "got dict$"),
    (lambda: info.convert("1", 2, math.e), TypeError, "^value must be a number, got str$"),
    (lambda: info.convert(True, 2, math.e), TypeError, "^value must be a number, got bool$"),
    (lambda: info.convert([1], 2, math.e), TypeError, "^value must be a number, got list$"),
    (lambda: info.convert(math.nan, 2, math.e), ValueError, "^value is NaN"),
])
def test_odd_inputs_are_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_odd_inputs_that_have_a_right_number():
    assert info.surprisal(np.float32(0.5)) == 1.0 and info.surprisal(np.array(0.25)) == 2.0
    # a perplexity beyond the largest float is infinite, never an OverflowError (the bits are finite)
    perplexity, bits = info.perplexity_from_logprobs([-800.0])
    assert perplexity == math.inf and bits == pytest.approx(800 / math.log(2))
    assert info.perplexity_from_logprobs([-700.0], log_base=10)[0] == math.inf
    assert info.perplexity_from_logprobs([-10**400]) == (math.inf, math.inf)  # an int beyond a float: -inf
    # a log-probability a hair above 0 is log 1 rounded: perplexity exactly 1, never below, and +0.0 bits
    perplexity, bits = info.perplexity_from_logprobs([1e-13, 5e-13, 0.0])
    assert perplexity == 1.0 and bits == 0.0 and math.copysign(1.0, bits) == 1.0
    assert info.convert(math.inf, 2, math.e) == math.inf and info.convert(-1.0, 2, 2) == -1.0
    assert info.convert(10**400, 2, 10) == math.inf


def test_expected_code_length_aligns_a_code_as_the_probabilities_are_aligned():
    # a dict of probabilities: a code keyed by the same outcomes (extra code words are not used)
    assert info.expected_code_length({"a": 0.5, "b": 0.5}, {"b": "1", "a": "0", "z": "111"}) == 1.0
    # a sequence: a code keyed by position, or a list of code words in the same order
    assert info.expected_code_length([0.5, 0.25, 0.25], {0: "0", 1: "10", 2: "11"}) == 1.5
    assert info.expected_code_length([0.5, 0.25, 0.25], ["0", "10", "11"]) == 1.5
    assert info.expected_code_length([0.5, 0.5, 0.0], {0: "0", 1: "1"}) == 1.0  # probability 0: no word needed
    assert info.expected_code_length([1.0], [""]) == 0.0
    code = info.huffman_code({"x": 0.5, "y": 0.25, "z": 0.25})
    assert info.expected_code_length({"x": 0.5, "y": 0.25, "z": 0.25}, code) == 1.5


@pytest.mark.parametrize("probs, code, error, words", [
    # the known case: a list of probabilities with a code keyed by symbols was KeyError: 0
    ([0.5, 0.5], {"a": "0", "b": "1"}, ValueError,
     r"^code is keyed by 'a', 'b' but probs is a sequence, whose outcomes are the positions 0\.\.1: key the code by "
     r"position, or give probs as a dict \{outcome: probability\}$"),
    ([0.5, 0.5], {0: "0", 1: "1", 2: "11"}, ValueError, "code is keyed by 2 but probs is a sequence"),
    ([0.5, 0.5], {0: "0", True: "1"}, ValueError, "code is keyed by True"),
    ({"a": 0.5, "b": 0.5}, {"a": "0"}, ValueError, r"^code has no code word for 'b', an outcome of probability 0\.5$"),
    ({"a": 0.5, "b": 0.5}, {0: "0", 1: "1"}, ValueError, "code has no code word for 'a'"),
    ({"a": 0.5, "b": 0.5}, ["0", "1"], TypeError, "code must be a dict keyed by the outcomes of probs"),
    ([0.5, 0.5], ["0"], ValueError, "code has 1 code words for 2 probabilities"),
    ([0.5, 0.5], "01", TypeError, "code must be a dict .* got str"),
    ([0.5, 0.5], 5, TypeError, "code must be a dict .* got int"),
    ([0.5, 0.5], {0: 0, 1: 1}, TypeError, r"^code\[0\] must be a str of 0s and 1s, got int$"),
    ([0.5, 0.5], {0: "ab", 1: "1"}, ValueError, r"^code\[0\] is 'ab', not a binary code word"),
])
def test_expected_code_length_refuses_a_code_it_cannot_align(probs, code, error, words):
    with pytest.raises(error, match=words):
        info.expected_code_length(probs, code)
