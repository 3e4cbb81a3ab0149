"""Tests for lmcore.info.estimators: entropy from samples, block entropies, the running rate of samples."""

import math
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import info
from lmcore.info import IIDSource, MarkovSource, estimators

counts_lists = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=12).filter(lambda c: sum(c) > 0)


# --- plug-in and Miller-Madow ----------------------------------------------------------------


@pytest.mark.parametrize("counts, bits", [
    ([1] * 8, 3.0),                              # eight teams
    ([1, 3], 0.8113),                            # rain one day in four
    ([32, 16, 8, 4, 1, 1, 1, 1], 2.0),           # the horse race, counted in 64 races
    ([7] * 8, 3.0),                              # eight equal horses
])
def test_plugin_entropy_of_the_course_examples(counts, bits):
    assert round(estimators.plugin_entropy(counts), 4) == bits
    assert estimators.plugin_entropy(counts) == pytest.approx(info.entropy(np.array(counts) / sum(counts)))


def test_plugin_entropy_takes_counters_arrays_and_bases():
    text = "abracadabra"
    counter = Counter(text)
    assert estimators.plugin_entropy(counter) == pytest.approx(estimators.plugin_entropy(estimators.type_counts(text)))
    assert estimators.plugin_entropy(np.array([2, 2])) == 1.0
    assert estimators.plugin_entropy([2, 2], base=math.e) == pytest.approx(math.log(2))
    assert estimators.plugin_entropy([5, 0, 5]) == 1.0  # an unseen type contributes nothing
    assert estimators.plugin_entropy([9]) == 0.0


def test_miller_madow_by_hand():
    counts = [50, 30, 20]                         # n = 100, K = 3
    correction = (3 - 1) / (2 * 100) / math.log(2)
    assert estimators.miller_madow_correction(counts) == pytest.approx(correction)
    assert estimators.miller_madow_entropy(counts) == pytest.approx(estimators.plugin_entropy(counts) + correction)
    assert estimators.miller_madow_correction(counts, base=math.e) == pytest.approx(0.01)
    assert estimators.miller_madow_correction([5, 0, 0, 5]) == pytest.approx(1 / 20 / math.log(2))  # K: types seen
    assert estimators.miller_madow_correction([10]) == 0.0  # one type: nothing to correct


@settings(max_examples=40)
@given(counts_lists)
def test_plugin_is_at_most_log_k_and_miller_madow_is_above_it(counts):
    k = sum(1 for c in counts if c > 0)
    plugin = estimators.plugin_entropy(counts)
    assert -1e-12 <= plugin <= math.log2(k) + 1e-12
    assert estimators.miller_madow_entropy(counts) >= plugin


@settings(max_examples=40)
@given(counts_lists, st.integers(min_value=2, max_value=5))
def test_plugin_depends_only_on_the_frequencies(counts, factor):
    assert estimators.plugin_entropy([c * factor for c in counts]) == pytest.approx(estimators.plugin_entropy(counts))


def test_plugin_is_biased_low_and_miller_madow_less_so():
    # 300 samples of 50 draws from 20 equally likely types: H = log2 20 = 4.3219 bits.
    source = IIDSource([1 / 20] * 20)
    rng = np.random.default_rng(0)
    estimates = np.array([[estimators.plugin_entropy(estimators.type_counts(sample)),
                           estimators.miller_madow_entropy(estimators.type_counts(sample))]
                          for sample in (source.sample(50, seed=rng) for _ in range(300))])
    plugin_bias, mm_bias = estimates.mean(axis=0) - math.log2(20)
    assert plugin_bias < -0.2          # far too low on average
    assert plugin_bias < mm_bias < 0   # corrected, but still low: 20 types in 50 draws
    assert abs(mm_bias) < abs(plugin_bias) / 2


def test_token_counts():
    assert estimators.type_counts(["a", "b", "a"]).tolist() == [2, 1]
    assert estimators.type_counts(np.array([3, 3, 0])).tolist() == [1, 2]


@pytest.mark.parametrize("bad, error, words", [
    ([], ValueError, "non-empty"),
    ([0, 0], ValueError, "all 0"),
    ([1, -1], ValueError, "non-negative whole numbers"),
    ([1.5, 2], ValueError, "non-negative whole numbers"),
    ([1, float("nan")], ValueError, "non-negative whole numbers"),
    ("abc", TypeError, "type_counts"),
    (["a", "b"], TypeError, "only numbers"),
    ([[1, 2], [3, 4]], ValueError, "1-d"),
])
def test_bad_counts_are_named(bad, error, words):
    with pytest.raises(error, match="counts") as raised:
        estimators.plugin_entropy(bad)
    assert words in str(raised.value)


def test_bad_base_and_tokens():
    with pytest.raises(ValueError, match="base"):
        estimators.plugin_entropy([1, 1], base=1)
    with pytest.raises(ValueError, match="tokens is empty"):
        estimators.type_counts([])
    with pytest.raises(TypeError, match="flatten sentences"):
        estimators.type_counts([["a"], ["b"]])


# --- estimates on growing samples ---------------------------------------------------------


def test_entropy_growth_rises_towards_the_whole_texts_estimate():
    tokens = IIDSource((1 / np.arange(1, 301)) / (1 / np.arange(1, 301)).sum()).sample(20_000, seed=1)
    growth = estimators.entropy_growth(tokens, seed=0)
    assert growth.sizes.tolist() == [10, 30, 100, 300, 1000, 3000, 10_000, 20_000]
    assert growth.plugin[-1] == pytest.approx(estimators.plugin_entropy(estimators.type_counts(tokens)))
    assert all(np.diff(growth.types) >= 0)
    assert growth.plugin[0] < growth.plugin[4] < growth.plugin[-1]
    assert all(growth.miller_madow >= growth.plugin)


def test_entropy_growth_of_counts_equals_that_of_the_tokens_they_count():
    counts = Counter({"x": 30, "y": 20, "z": 10})
    by_counts = estimators.entropy_growth(counts, sizes=[60])
    assert by_counts.plugin[0] == pytest.approx(estimators.plugin_entropy(counts))
    a, b = estimators.entropy_growth(counts, sizes=[5, 20], seed=3), estimators.entropy_growth(counts, sizes=[5, 20],
                                                                                                seed=3)
    assert a.plugin.tolist() == b.plugin.tolist()  # seeded: reproducible


def test_entropy_growth_keeps_order_without_seed_and_checks_its_arguments():
    growth = estimators.entropy_growth(list("aaaabbbb"), sizes=[4, 8], seed=None)
    assert growth.plugin.tolist() == [0.0, 1.0] and growth.types.tolist() == [1, 2]
    with pytest.raises(ValueError, match="sizes must be between 1 and the number of tokens"):
        estimators.entropy_growth(list("ab"), sizes=[3])
    with pytest.raises(ValueError, match="sizes must be a non-empty list of whole numbers"):
        estimators.entropy_growth(list("ab"), sizes=[1.5])
    with pytest.raises(TypeError, match="seed must be an int or None"):
        estimators.entropy_growth(list("ab"), seed="x")
    with pytest.raises(ValueError, match="seed must be an int when tokens is a dict"):
        estimators.entropy_growth({"a": 2}, seed=None)


# --- block entropies ---------------------------------------------------------------------


def test_block_entropy_by_hand():
    assert estimators.block_entropy("abab", 1) == 1.0
    # blocks of 2 in "abab": ab, ba, ab -> counts 2, 1
    assert estimators.block_entropy("abab", 2) == pytest.approx(info.entropy([2 / 3, 1 / 3]))
    assert estimators.block_entropy(["the", "cat", "the", "cat"], 2) == pytest.approx(info.entropy([2 / 3, 1 / 3]))
    assert estimators.block_entropy("aaaa", 3) == 0.0
    assert estimators.block_entropy_rates("abab", 2).tolist() == pytest.approx([1.0, info.entropy([2 / 3, 1 / 3]) / 2])


def test_block_entropy_of_a_markov_sample_approaches_the_exact_value():
    chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    sample = chain.sample(100_000, seed=0)
    for n in (1, 2, 4):
        assert estimators.block_entropy(sample, n) == pytest.approx(chain.block_entropy(n), abs=0.02)
    rates = estimators.block_entropy_rates(sample, 6)
    assert all(np.diff(rates) < 0)  # H_n / n falls as n grows


def brute_block_entropy(sequence, n):
    blocks = Counter(tuple(sequence[i:i + n]) for i in range(len(sequence) - n + 1))
    return estimators.plugin_entropy(blocks)


def test_block_entropy_with_a_large_alphabet_uses_rows():
    # 2**70 possible blocks of 70 coin tosses, 7000**6 of six words: too many for one integer code per block
    sample = IIDSource([0.5, 0.5]).sample(500, seed=0)
    assert estimators.block_entropy(sample, 70) == pytest.approx(math.log2(431))  # all 431 blocks differ
    words = [f"w{i % 7000}" for i in range(20_000)]
    assert estimators.block_entropy(words, 6) == pytest.approx(brute_block_entropy(words, 6))


@settings(max_examples=40)
@given(st.lists(st.sampled_from("abc"), min_size=1, max_size=40), st.integers(min_value=1, max_value=5))
def test_block_entropy_equals_counting_tuples(sequence, n):
    n = min(n, len(sequence))
    assert estimators.block_entropy(sequence, n) == pytest.approx(brute_block_entropy(sequence, n))


def test_block_entropy_checks_its_arguments():
    with pytest.raises(ValueError, match="n must be between 1 and the sequence's length 4"):
        estimators.block_entropy("abab", 5)
    with pytest.raises(TypeError, match="n must be an int"):
        estimators.block_entropy("abab", 2.0)
    with pytest.raises(ValueError, match="sequence is empty"):
        estimators.block_entropy([], 1)
    with pytest.raises(ValueError, match="max_n must be between"):
        estimators.block_entropy_rates("ab", 0)
    with pytest.raises(ValueError, match="negative ids"):
        estimators.block_entropy(np.array([0, -1]), 1)


# --- the per-symbol log-probability of samples ---------------------------------------------


def test_log_spaced():
    assert estimators.log_spaced(1000, 4).tolist() == [1, 10, 100, 1000]
    assert estimators.log_spaced(1).tolist() == [1]
    points = estimators.log_spaced(100_000, 200)
    assert points[0] == 1 and points[-1] == 100_000 and all(np.diff(points) > 0)
    with pytest.raises(ValueError, match="points must be at least 2"):
        estimators.log_spaced(10, 1)
    with pytest.raises(ValueError, match="n must be at least 1"):
        estimators.log_spaced(0)


def test_sample_rates_follow_the_sources_running_rate():
    chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    samples = [chain.sample(5000, seed=s) for s in (1, 2)]
    result = estimators.sample_rates(chain, samples, points=50)
    assert result.rates.shape == (2, result.lengths.size)
    for row, sample in zip(result.rates, samples):
        np.testing.assert_allclose(row, chain.running_rate(sample)[result.lengths - 1])
    # the rate of the whole sample, by hand: -(1/n) log2 of pi(x1) * prod P(x_k | x_{k-1})
    x = samples[0]
    by_hand = -(np.log2(chain.stationary_distribution()[x[0]]) + np.log2(chain.transition[x[:-1], x[1:]]).sum())
    assert result.final[0] == pytest.approx(by_hand / x.size)
    assert result.gaps[0] == pytest.approx(result.final[0] - chain.entropy_rate())
    assert result.max_gap == pytest.approx(np.abs(result.gaps).max())


def test_rate_convergence_lands_near_the_rate_and_closer_with_more_symbols():
    chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    result = estimators.rate_convergence(chain, 100_000, n_samples=3, seed=0)
    assert result.entropy_rate == pytest.approx(0.557496, abs=1e-6)
    assert result.max_gap < 0.02
    early = np.abs(result.rates[:, np.searchsorted(result.lengths, 100)] - result.entropy_rate).max()
    assert result.max_gap < early
    again = estimators.rate_convergence(chain, 100_000, n_samples=3, seed=0)
    assert again.final.tolist() == result.final.tolist()


def test_sample_rates_check_their_arguments():
    coin = IIDSource([0.5, 0.5])
    with pytest.raises(ValueError, match="samples is empty"):
        estimators.sample_rates(coin, [])
    with pytest.raises(ValueError, match="samples must all have one length"):
        estimators.sample_rates(coin, [coin.sample(5, seed=0), coin.sample(6, seed=0)])
    with pytest.raises(ValueError, match="n_samples must be at least 1"):
        estimators.rate_convergence(coin, 10, n_samples=0)
    assert estimators.sample_rates(coin, coin.sample(4, seed=0), points=2).rates.shape == (1, 2)  # one bare sample


# --- odd inputs: the right number or an error that names the argument -------------------------------


@pytest.mark.parametrize("bad, error, words", [
    ([True, True], TypeError, "counts must contain only numbers"),  # was 1.0: two bools counted as 1 each
    (["1", "2"], TypeError, "counts must contain only numbers"),  # was read as the numbers
    ([10**400], ValueError, "counts must be non-negative whole numbers"),  # was an OverflowError
])
def test_counts_are_numbers_not_bools_or_strings(bad, error, words):
    with pytest.raises(error, match=words):
        estimators.plugin_entropy(bad)


def test_huge_counts_give_the_right_frequencies():
    # int64 sums overflowed: 2**62 + 2**62, 1e19 as int64, ...; the frequencies are what matter
    assert estimators.plugin_entropy([2**62, 2**62]) == 1.0
    assert estimators.plugin_entropy([1e19, 1e19]) == 1.0
    assert estimators.plugin_entropy([1e300, 1e300]) == 1.0
    assert estimators.miller_madow_correction([1e19, 1e19]) == pytest.approx(1 / (2 * 2e19) / math.log(2))
    assert estimators.plugin_entropy({"a": 2**63, "b": 2**63}) == 1.0


def test_large_ids_are_counted_without_a_table_of_that_size():
    # an int array with the id 10**12 used to allocate 7 TiB for np.bincount
    assert estimators.type_counts(np.array([10**12, 7, 10**12])).tolist() == [1, 2]  # in the order of the ids
    growth = estimators.entropy_growth(np.array([0, 10**12] * 4), sizes=[8], seed=None)
    assert growth.plugin.tolist() == [1.0] and growth.types.tolist() == [2]
    assert estimators.block_entropy(np.array([0, 2**40, 0, 2**40]), 2) == pytest.approx(info.entropy([2 / 3, 1 / 3]))


def test_entropy_growth_checks_sizes_seeds_and_counts():
    with pytest.raises(TypeError, match=r"sizes must be a list of whole numbers \(sizes=\[100, 1000\]\), got int"):
        estimators.entropy_growth(list("ab"), sizes=2)
    with pytest.raises(TypeError, match="sizes must be a list of whole numbers.*got str"):
        estimators.entropy_growth(list("ab"), sizes="2")
    with pytest.raises(TypeError, match="sizes must be a list of whole numbers"):
        estimators.entropy_growth(list("ab"), sizes=[True])  # was the size 1
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        estimators.entropy_growth(list("ab"), seed=-1)  # was numpy's "expected non-negative integer"
    with pytest.raises(ValueError, match="tokens stands for 1,000,000,000,000 tokens"):
        estimators.entropy_growth({"a": 10**12})  # was a 7 TiB allocation
    assert estimators.entropy_growth(list("ab"), sizes=[2.0], seed=None).sizes.tolist() == [2]


def test_log_spaced_never_makes_more_points_than_there_are_numbers():
    assert estimators.log_spaced(5, 10**9).tolist() == [1, 2, 3, 4, 5]  # was 8 GB of points to round
    assert estimators.log_spaced(10, 1000).tolist() == list(range(1, 11))
    assert estimators.log_spaced(10**18, 3).tolist()[-1] == 10**18
    with pytest.raises(ValueError, match=r"n must be at most 10\*\*18"):
        estimators.log_spaced(10**30)  # was numpy's "loop of ufunc does not support argument 0"


def test_sample_rates_takes_one_plain_sample_and_names_bad_ones():
    coin = IIDSource([0.5, 0.5])
    assert estimators.sample_rates(coin, [0, 1, 1], points=2).rates.tolist() == [[1.0, 1.0]]  # was "int has no len()"
    with pytest.raises(TypeError, match="samples must be a list of samples .*got str"):
        estimators.sample_rates(coin, "ab")
    with pytest.raises(ValueError, match=r"samples\[0\] is empty"):
        estimators.sample_rates(coin, np.array([], dtype=int))  # was "n must be at least 1"
    with pytest.raises(TypeError, match="source must be a source of lmcore.info"):
        estimators.sample_rates("coin", [np.array([0])])  # was an AttributeError
    with pytest.raises(TypeError, match="source must be a source of lmcore.info"):
        estimators.rate_convergence("coin", 10)
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        estimators.rate_convergence(coin, 10, seed=-1)
    with pytest.raises(TypeError, match="seed must be an int, None or a numpy Generator, got True"):
        estimators.rate_convergence(coin, 10, seed=True)  # was taken as the seed 1


# --- a missing value is no symbol ----------------------------------------------------------------


@pytest.mark.parametrize("call, sample, words", [
    (lambda s: estimators.block_entropy(s, 1), np.array([1.0, np.nan, 2.0]), "sequence contains NaN at position 1"),
    (lambda s: estimators.block_entropy(s, 1), [1.0, math.nan, 2.0], "sequence contains NaN at position 1"),
    (lambda s: estimators.block_entropy(s, 1), ["a", None, "b"], "sequence contains None at position 1"),
    (lambda s: estimators.block_entropy_rates(s, 2), np.array([1.0, 2.0, np.nan]),
     "sequence contains NaN at position 2"),
    (lambda s: estimators.entropy_growth(s, sizes=[2]), [1.0, math.nan], "tokens contains NaN at position 1"),
    (lambda s: estimators.entropy_growth(s, sizes=[2]), np.array([np.nan, 1.0]), "tokens contains NaN at position 0"),
    (estimators.type_counts, [1.0, math.nan, 1.0], "tokens contains NaN at position 1"),
    (estimators.type_counts, np.array([1.0, np.nan]), "tokens contains NaN at position 1"),
    (estimators.type_counts, np.array(["a", None], dtype=object), "tokens contains None at position 1"),
    (estimators.type_counts, iter([1.0, math.nan]), "tokens contains NaN:"),  # a generator: read, no position
])
def test_a_sample_holding_nan_or_none_is_refused_with_its_position(call, sample, words):
    # a float array was a bare KeyError; a list counted NaN (each NaN a type of its own) as a symbol
    with pytest.raises(ValueError, match=f"^{re.escape(words)}.*a missing value, not a symbol"):
        call(sample)


def test_infinity_is_a_symbol_but_nan_is_not():
    assert estimators.block_entropy([1.0, math.inf, math.inf, 1.0], 1) == 1.0  # equal to itself: one type
    assert estimators.type_counts(np.array([math.inf, 2.0, math.inf])).tolist() == [2, 1]
    with pytest.raises(ValueError, match="^sequence contains NaN at position 2: a missing value"):
        estimators.block_entropy([1.0, math.inf, math.nan, 1.0], 1)


# --- one seed, the same samples (chapter 2 shows the plug-in bias twice) ------------------------
# Chapter 2 shows the plug-in bias twice: on a few sample sizes in section 4 (core path) and on the
# full table of "Going further: correcting the plug-in bias". The two must be the same samples: with
# one seed, :func:`lmcore.info.entropy_growth` shuffles the text once, whatever sizes it is asked for.


@settings(max_examples=40, deadline=None)
@given(counts=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=30).filter(lambda c: sum(c) > 1),
       seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_the_same_seed_gives_the_same_samples_whatever_the_sizes(counts, seed, data):
    text = Counter({f"w{i}": c for i, c in enumerate(counts) if c})
    total = sum(counts)
    every = info.entropy_growth(text, sizes=np.arange(1, total + 1), seed=seed)
    sizes = sorted(data.draw(st.sets(st.integers(min_value=1, max_value=total), min_size=1, max_size=4)))
    some = info.entropy_growth(text, sizes=sizes, seed=seed)
    at = np.array(sizes) - 1
    assert some.plugin.tolist() == every.plugin[at].tolist()
    assert some.miller_madow.tolist() == every.miller_madow[at].tolist()
    assert some.types.tolist() == every.types[at].tolist()


def test_the_chapters_english_sample_of_1000_tokens_is_the_tables():
    """The default sizes (section "Going further") hold 1,000 and 100,000: the core's sizes pick those rows."""
    rng = np.random.default_rng(1)
    text = Counter(rng.zipf(1.5, 200_000).tolist())  # a Zipf-like text of 200,000 tokens
    table = info.entropy_growth(text, seed=0)
    core = info.entropy_growth(text, sizes=[1000, 100_000, 200_000], seed=0)
    rows = [list(table.sizes).index(n) for n in (1000, 100_000, 200_000)]
    assert core.plugin.tolist() == table.plugin[rows].tolist()
    assert core.types.tolist() == table.types[rows].tolist()
