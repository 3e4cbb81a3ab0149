"""Tests for lmcore.info.sources: exact entropy rates and their sampled estimates."""

import math

import numpy as np
import pytest

from lmcore.info import IIDSource, MarkovSource, MixtureSource


def binary_entropy(p):
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


P = [[0.9, 0.1], [0.5, 0.5]]
# Worked by hand: pi P = pi gives 0.1 pi_a = 0.5 pi_b, so pi = (5/6, 1/6), and
# H = 5/6 H(0.1) + 1/6 H(0.5) = 5/6 * 0.468996 + 1/6 * 1 = 0.557496 bits.
HAND_RATE = 5 / 6 * binary_entropy(0.1) + 1 / 6 * 1.0


# --- i.i.d. ------------------------------------------------------------------------------


def test_iid_entropy():
    assert IIDSource([0.5, 0.5]).entropy_rate() == 1.0
    assert IIDSource([1 / 6] * 6).entropy_rate() == pytest.approx(math.log2(6))
    assert IIDSource([0.5, 0.25, 0.25, 0.0]).entropy_rate() == pytest.approx(1.5)  # 0 log 0 = 0
    assert IIDSource([1.0]).entropy_rate() == 0.0
    assert IIDSource([0.5, 0.5]).entropy_rate(base=math.e) == pytest.approx(math.log(2))


def test_iid_sample_and_its_rate():
    source = IIDSource([0.5, 0.25, 0.25, 0.0], outcomes=["a", "b", "c", "d"])
    x = source.sample(100_000, seed=0)
    assert x.dtype == np.int64 and x.shape == (100_000,)
    assert np.array_equal(x, source.sample(100_000, seed=0))
    counts = np.bincount(x, minlength=4) / x.size
    np.testing.assert_allclose(counts, [0.5, 0.25, 0.25, 0.0], atol=0.01)
    assert abs(source.empirical_rate(x) - 1.5) < 0.01
    assert source.decode(x[:3]) == [source.outcomes[i] for i in x[:3]]
    np.testing.assert_array_equal(source.encode(source.decode(x[:50])), x[:50])


def test_iid_surprisal_of_an_impossible_outcome_is_infinite():
    source = IIDSource([0.5, 0.5, 0.0])
    assert source.empirical_rate([0, 2]) == math.inf
    assert source.log_probability([0, 1]) == pytest.approx(-2.0)


# --- Markov --------------------------------------------------------------------------------


def test_markov_stationary_distribution_and_rate_worked_by_hand():
    chain = MarkovSource(P, states=["a", "b"])
    np.testing.assert_allclose(chain.stationary_distribution(), [5 / 6, 1 / 6], atol=1e-12)
    assert chain.entropy_rate() == pytest.approx(HAND_RATE, abs=1e-12)
    assert round(chain.entropy_rate(), 6) == 0.557496
    assert chain.entropy_rate(base=math.e) == pytest.approx(HAND_RATE * math.log(2))


def test_markov_sampled_rate_is_within_two_hundredths_of_a_bit():
    chain = MarkovSource(P)
    x = chain.sample(100_000, seed=0)
    assert abs(chain.empirical_rate(x) - HAND_RATE) < 0.02
    # The chain spends about 1/6 of the time in state b.
    assert abs(x.mean() - 1 / 6) < 0.01


def test_markov_first_state_is_drawn_from_the_stationary_distribution():
    chain = MarkovSource(P)
    rng = np.random.default_rng(0)
    firsts = np.array([chain.sample(1, seed=rng)[0] for _ in range(6000)])
    assert abs(firsts.mean() - 1 / 6) < 0.02


def test_running_rate_and_log_probability():
    chain = MarkovSource(P)
    x = chain.sample(1000, seed=1)
    running = chain.running_rate(x)
    assert running.shape == (1000,)
    assert running[-1] == pytest.approx(chain.empirical_rate(x))
    assert running[0] == pytest.approx(-math.log2(chain.stationary_distribution()[x[0]]))
    assert chain.log_probability(x) == pytest.approx(-1000 * chain.empirical_rate(x))
    # By hand for a short run a, a, b: pi_a * P(a->a) * P(a->b).
    expected = math.log2(5 / 6) + math.log2(0.9) + math.log2(0.1)
    assert chain.log_probability([0, 0, 1]) == pytest.approx(expected)
    np.testing.assert_allclose(chain.surprisals([0, 0, 1]), [-math.log2(5 / 6), -math.log2(0.9), -math.log2(0.1)])


def test_sampling_is_reproducible():
    """(Its speed, 100,000 symbols well under a second, is benchmarks/bench_widgets.py's.)"""
    chain = MarkovSource(P)
    assert np.array_equal(chain.sample(500, seed=3), chain.sample(500, seed=3))
    assert not np.array_equal(chain.sample(500, seed=3), chain.sample(500, seed=4))
    long = chain.sample(100_000, seed=0)
    moves = np.zeros((len(P), len(P)))
    np.add.at(moves, (long[:-1], long[1:]), 1)
    np.testing.assert_allclose(moves / moves.sum(axis=1, keepdims=True), P, atol=0.01)  # each row's draws follow it


def test_periodic_chain_and_impossible_transitions():
    flip = MarkovSource([[0, 1], [1, 0]], states=["x", "y"])
    np.testing.assert_allclose(flip.stationary_distribution(), [0.5, 0.5])
    assert flip.entropy_rate() == 0.0
    assert "".join(flip.decode(flip.sample(6, seed=0))) in {"xyxyxy", "yxyxyx"}
    assert flip.empirical_rate([0, 0]) == math.inf


def test_transient_state_is_never_visited():
    chain = MarkovSource([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.3, 0.3, 0.4]])
    np.testing.assert_allclose(chain.stationary_distribution(), [2 / 3, 1 / 3, 0.0], atol=1e-12)
    assert 2 not in chain.sample(10_000, seed=0)
    assert chain.entropy_rate() == pytest.approx(2 / 3)


# --- validation ------------------------------------------------------------------------------


def test_probability_validation():
    with pytest.raises(ValueError, match="probabilities sum to 0.93, expected 1"):
        IIDSource([0.5, 0.43])
    with pytest.raises(ValueError, match=r"probabilities has negative probabilities: \[-0\.5\]"):
        IIDSource([1.5, -0.5])
    with pytest.raises(ValueError, match="outcomes has 3 labels for 2"):
        IIDSource([0.5, 0.5], outcomes=["a", "b", "c"])
    with pytest.raises(ValueError, match="distinct"):
        IIDSource([0.5, 0.5], outcomes=["a", "a"])
    with pytest.raises(TypeError, match="probabilities must contain only numbers"):
        IIDSource(["a", "b"])


def test_transition_validation():
    with pytest.raises(ValueError, match="row 1 of transition: probabilities sum to 0.95, expected 1"):
        MarkovSource([[0.5, 0.5], [0.5, 0.45]])
    with pytest.raises(ValueError, match="square"):
        MarkovSource([[0.5, 0.5]])
    with pytest.raises(ValueError, match="transition has negative probabilities"):
        MarkovSource([[1.2, -0.2], [0.5, 0.5]])
    with pytest.raises(ValueError, match="more than one stationary distribution"):
        MarkovSource(np.eye(2))
    MarkovSource([[0.5, 0.5 + 1e-12], [0.5, 0.5]])  # within the tolerance
    MarkovSource([[0.333333] * 3, [0.5, 0.5, 0], [0, 0, 1]])  # each row rounded to six decimals, as in lmcore.info


def test_argument_validation():
    chain = MarkovSource(P)
    with pytest.raises(ValueError, match="n must be at least 1"):
        chain.sample(0)
    with pytest.raises(TypeError, match="n must be an int"):
        chain.sample(10.0)
    with pytest.raises(TypeError, match="seed"):
        chain.sample(10, seed="abc")
    with pytest.raises(ValueError, match="indices 0..1"):
        chain.empirical_rate([0, 2])
    with pytest.raises(TypeError, match="integer outcome indices"):
        chain.empirical_rate([0.0, 1.0])
    with pytest.raises(ValueError, match="non-empty"):
        chain.running_rate([])
    with pytest.raises(ValueError, match="base"):
        chain.entropy_rate(base=1)
    with pytest.raises(ValueError, match="base must be a finite number > 1"):  # not -1 bits
        IIDSource([0.5, 0.5]).entropy_rate(base=0.5)
    with pytest.raises(ValueError, match="'z', which is not one of"):
        MarkovSource(P, states=["a", "b"]).encode(["a", "z"])


# --- block entropies of the exact sources ------------------------------------------------------


def test_block_entropy_of_iid_and_markov_sources_by_enumeration():
    import itertools

    chain = MarkovSource(P)
    for n in (1, 2, 3, 5):
        sequences = np.array(list(itertools.product([0, 1], repeat=n)))
        probabilities = np.array([2.0 ** chain.log_probability(x) for x in sequences])
        assert probabilities.sum() == pytest.approx(1.0)
        assert chain.block_entropy(n) == pytest.approx(-(probabilities * np.log2(probabilities)).sum())
    assert chain.block_entropy(1) == pytest.approx(binary_entropy(1 / 6))  # H(pi), the unigram entropy
    assert chain.block_entropy(1000) / 1000 == pytest.approx(HAND_RATE, abs=1e-3)
    assert IIDSource([0.25, 0.75]).block_entropy(4) == pytest.approx(4 * 0.8112781245)
    with pytest.raises(ValueError, match="n must be at least 1"):
        chain.block_entropy(0)


# --- the mixture: stationary, not ergodic ------------------------------------------------------

FAIR = IIDSource([0.5, 0.5], outcomes=["a", "b"])
BENT = IIDSource([0.9, 0.1], outcomes=["a", "b"])


def test_mixture_rate_is_the_weighted_average_of_its_sources():
    bag = MixtureSource([FAIR, BENT])
    assert bag.entropy_rate() == pytest.approx((1 + binary_entropy(0.1)) / 2)
    assert round(bag.entropy_rate(), 4) == 0.7345
    np.testing.assert_allclose(bag.stationary_distribution(), [0.7, 0.3])
    uneven = MixtureSource([FAIR, MarkovSource(P, states=["a", "b"])], weights=[0.25, 0.75])
    assert uneven.entropy_rate() == pytest.approx(0.25 + 0.75 * HAND_RATE)
    assert uneven.entropy_rate(base=math.e) == pytest.approx((0.25 + 0.75 * HAND_RATE) * math.log(2))
    assert bag.outcomes == ("a", "b") and bag.sources == (FAIR, BENT)
    assert bag.weights.tolist() == [0.5, 0.5] and "2 sources" in repr(bag)


def test_mixture_probability_is_the_weighted_sum_of_the_sources():
    bag = MixtureSource([FAIR, MarkovSource(P, states=["a", "b"])], weights=[0.3, 0.7])
    x = bag.sample(40, seed=2)
    for k in (1, 5, 40):
        direct = 0.3 * 2.0 ** FAIR.log_probability(x[:k]) + 0.7 * 2.0 ** bag.sources[1].log_probability(x[:k])
        assert bag.log_probability(x[:k]) == pytest.approx(math.log2(direct))
    assert bag.running_rate(x)[-1] == pytest.approx(bag.empirical_rate(x))


def test_one_mixture_sample_converges_to_its_own_sources_rate_not_the_mixtures():
    bag = MixtureSource([FAIR, BENT])
    rng = np.random.default_rng(0)
    picks = set()
    for _ in range(6):
        picked, x = bag.sample_with_choice(20_000, seed=rng)
        picks.add(picked)
        own = bag.sources[picked].entropy_rate()
        assert bag.empirical_rate(x) == pytest.approx(own, abs=0.02)
        assert abs(bag.empirical_rate(x) - bag.entropy_rate()) > 0.2
    assert picks == {0, 1}


def test_mixture_sampling_is_reproducible_and_impossible_symbols_are_infinite():
    bag = MixtureSource([FAIR, BENT])
    assert np.array_equal(bag.sample(100, seed=5), bag.sample_with_choice(100, seed=5)[1])
    sure = MixtureSource([IIDSource([1.0, 0.0]), IIDSource([1.0, 0.0])])
    assert sure.surprisals(np.array([0, 0, 1, 0])).tolist() == [0.0, 0.0, math.inf, math.inf]
    assert sure.empirical_rate(np.array([0, 0])) == 0.0


def test_mixture_validation():
    with pytest.raises(TypeError, match="sources must be a non-empty list"):
        MixtureSource([])
    with pytest.raises(TypeError, match="sources must be a non-empty list"):
        MixtureSource(FAIR)
    with pytest.raises(TypeError, match=r"sources\[1\] must be an IIDSource or MarkovSource"):
        MixtureSource([FAIR, "coin"])
    with pytest.raises(ValueError, match=r"sources\[1\] has outcomes"):
        MixtureSource([FAIR, IIDSource([0.5, 0.5], outcomes=["x", "y"])])
    with pytest.raises(ValueError, match="weights has 3 entries for 2 sources"):
        MixtureSource([FAIR, BENT], weights=[0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="weights: probabilities sum to"):
        MixtureSource([FAIR, BENT], weights=[0.2, 0.3])
    with pytest.raises(ValueError, match="n must be at least 1"):
        MixtureSource([FAIR, BENT]).sample(0)


def test_odd_arguments_are_named():
    coin = IIDSource([0.5, 0.5], outcomes=["H", "T"])
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        coin.sample(3, seed=-1)  # was numpy's "expected non-negative integer"
    with pytest.raises(ValueError, match="seed must be at least 0"):
        MixtureSource([coin, coin]).sample_with_choice(3, seed=-1)
    with pytest.raises(TypeError, match=r"outcomes must be hashable labels .*got \[\[1\], \[2\]\]"):
        IIDSource([0.5, 0.5], outcomes=[[1], [2]])  # was "unhashable type: 'list'"
    with pytest.raises(TypeError, match="labels must be a sequence of outcome labels, got int"):
        coin.encode(5)
    with pytest.raises(ValueError, match=r"labels contains \['H'\], which is not one of \['H', 'T'\]"):
        coin.encode([["H"]])
    assert coin.decode([]) == [] and coin.decode(np.array([], dtype=int)) == []  # an empty sample
    assert coin.encode("HT").tolist() == [0, 1]  # a str is the sequence of its characters


def test_block_entropy_of_any_length():
    # n * H with n beyond a float's range was an OverflowError
    assert IIDSource([0.5, 0.5]).block_entropy(10**400) == math.inf
    assert MarkovSource(P).block_entropy(10**400) == math.inf
    assert IIDSource([1.0]).block_entropy(10**400) == 0.0  # a certain outcome tells nothing, however often
    assert IIDSource([0.5, 0.5]).block_entropy(10**30) == 1e30
