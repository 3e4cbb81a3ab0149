"""lmcore.bleu's bootstrap: vectorized BLEU from statistics, and paired bootstrap resampling against sacrebleu's."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest, estimate_ci

from lmcore import bleu, i18n
from lmcore.bleu import (
    bleu_scores,
    order_statistic_interval,
    paired_bootstrap,
    resample_indices,
    resampled_sums,
    sentence_stats_matrix,
    stats_matrix,
)
from lmcore.text import translations

COURSE_CORPUS = [bleu.BleuStats((3, 2), (4, 3), 4, 4), bleu.BleuStats((2, 0), (3, 2), 3, 4)]


def test_stats_matrix_has_sacrebleus_columns():
    assert stats_matrix(COURSE_CORPUS).tolist() == [[4, 4, 3, 2, 4, 3], [3, 4, 2, 0, 3, 2]]


def test_the_course_numbers_from_statistics():
    rows = stats_matrix(COURSE_CORPUS)
    assert bleu_scores(rows.sum(axis=0)) == pytest.approx(math.sqrt(5 / 7 * 2 / 5) * math.exp(1 - 8 / 7), abs=1e-15)
    assert bleu_scores(rows).tolist() == pytest.approx([1 / math.sqrt(2), 0.0], abs=1e-15)  # one score per row
    assert float(bleu_scores([4, 4, 2, 1, 4, 3])) == pytest.approx(1 / math.sqrt(6), abs=1e-15)


@st.composite
def statistics_and_settings(draw):
    order = draw(st.integers(1, 4))
    hyp_len, ref_len = draw(st.integers(0, 12)), draw(st.integers(0, 12))
    totals = draw(st.lists(st.integers(0, 9), min_size=order, max_size=order))
    matches = [draw(st.integers(0, t)) for t in totals]
    method = draw(st.sampled_from(["none", "floor", "add-k", "exp"]))
    value = draw(st.sampled_from([None, 0.0, 0.5, 2.0])) if method in ("floor", "add-k") else None
    weights = draw(st.one_of(st.none(), st.just("halving"),
                             st.lists(st.sampled_from([0.0, 0.25, 1.0]), min_size=order, max_size=order)
                             .filter(any)))
    return (bleu.BleuStats(tuple(matches), tuple(totals), hyp_len, ref_len),
            {"weights": weights, "smooth_method": method, "smooth_value": value,
             "effective_order": draw(st.booleans())})


@given(statistics_and_settings())
def test_bleu_scores_equals_bleu_from_stats_for_every_setting(case):
    stats, settings = case
    expected = bleu.bleu_from_stats(stats, **settings).score
    assert float(bleu_scores(stats_matrix([stats])[0], **settings)) == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_sentence_rows_add_up_to_corpus_stats():
    hyps, refs = ["the cat sat on the mat", "a dog", ""], [["the cat is on the mat"], ["a dog barks"], ["x"]]
    rows = sentence_stats_matrix(hyps, refs)
    corpus = bleu.corpus_stats(hyps, refs)
    assert rows.sum(axis=0).tolist() == [corpus.hyp_len, corpus.ref_len, *corpus.matches, *corpus.totals]


def test_sentence_rows_are_each_sentences_stats_counted_with_the_settings_given_once():
    hyps, refs = ["The Cat sat", "a dog"], [["the cat sat"], ["a dog", "A DOG barks"]]
    settings = bleu.BleuSettings(max_order=2, lowercase=True, nltk_totals=True, tokenize="none")
    rows = sentence_stats_matrix(hyps, refs, settings)
    assert rows.dtype == np.int64 and rows.tolist() == [
        [*stats_matrix([bleu.sentence_stats(h, r, settings)])[0]] for h, r in zip(hyps, refs)]
    assert np.array_equal(rows, sentence_stats_matrix(hyps, refs, max_order=2, lowercase=True, nltk_totals=True,
                                                      tokenize="none"))
    assert rows[0].tolist() == [3, 3, 3, 2, 3, 2]  # lowercased: every n-gram matches


def test_scores_and_the_bootstrap_take_settings_or_build_them():
    rows = stats_matrix(COURSE_CORPUS)
    floor = bleu.BleuSettings(max_order=2, smooth_method="floor", weights="halving")
    assert np.array_equal(bleu_scores(rows, floor), bleu_scores(rows, smooth_method="floor", weights="halving"))
    assert np.array_equal(bleu_scores(rows, floor), bleu_scores(rows, bleu.BLEU(), max_order=2,
                                                                smooth_method="floor", weights="halving"))
    assert bleu_scores(rows, floor)[1] > 0 == bleu_scores(rows)[1]  # the floor smooths the order without a match
    with pytest.raises(ValueError, match="^the statistics are of max order 2 but max_order is 4; count rows with"):
        bleu_scores(rows, bleu.BleuSettings())
    with pytest.raises(ValueError, match="^the statistics are of max order 2 but max_order is 3; count them with"):
        paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, max_order=3)
    one = paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS[::-1], None, floor, n_resamples=50, seed=1)
    two = paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS[::-1], smooth_method="floor", weights="halving",
                           n_resamples=50, seed=1)
    assert (one.score_a, one.score_b) == (two.score_a, two.score_b) and np.array_equal(one.scores_b, two.scores_b)
    hyps_a, hyps_b, refs = ["the cat sat", "a dog"], ["the cat sat", "a cat"], [["the cat sat"], ["a dog"]]
    lowered = paired_bootstrap(["The cat sat", "a dog"], hyps_b, refs, lowercase=True, max_order=2, n_resamples=20)
    assert lowered.score_a == paired_bootstrap(hyps_a, hyps_b, refs, max_order=2, n_resamples=20).score_a == 1.0


def test_exp_smoothing_halves_again_for_each_further_order_without_a_match():
    stats = bleu.BleuStats((3, 0, 0, 0), (4, 3, 2, 1), 4, 4)  # p = 3/4, 1/(2*3), 1/(4*2), 1/(8*1)
    expected = math.exp((math.log(3 / 4) + math.log(1 / 6) + math.log(1 / 8) + math.log(1 / 8)) / 4)
    assert float(bleu_scores(stats_matrix([stats])[0], smooth_method="exp")) == pytest.approx(expected, rel=1e-14)
    assert bleu.bleu_from_stats(stats, smooth_method="exp").score == pytest.approx(expected, rel=1e-14)


def test_resampling_draws_1000_resamples_by_default_and_reads_in_one_line():
    assert resample_indices(3).shape == (1000, 3)
    result = bleu.PairedBootstrap(0.3, 0.32, np.array([0.3, 0.31]), np.array([0.33, 0.3]), 0.95, None)
    previous = i18n.language()
    i18n.set_language("en")
    try:
        assert str(result) == ("A = 0.3000, B = 0.3200, B - A = +0.0200, 95% interval [-0.0100, +0.0300], "
                               "B higher in 50.0% of 2 resamples")
    finally:
        i18n.set_language(previous)


def test_resamples_are_sacrebleus_and_their_sums_are_sums():
    draws = resample_indices(7, 5)  # sacrebleu's seed, 12345, by default
    assert np.array_equal(draws, np.random.default_rng(12345).choice(7, size=(5, 7), replace=True))
    matrix = np.random.default_rng(1).integers(0, 9, size=(7, 10))
    assert np.array_equal(resampled_sums(matrix, draws), matrix[draws].sum(axis=1))


def test_interval_is_sacrebleus_for_the_half_width():
    values = np.random.default_rng(2).normal(size=1000)
    low, high = order_statistic_interval(values)
    assert (high - low) / 2 == pytest.approx(estimate_ci(values)[1], abs=1e-12)
    assert order_statistic_interval(np.arange(100), confidence=0.9) == (5.0, 94.0)


@pytest.fixture(scope="module")
def verses():
    sample = translations.sample_verses(["kjv", "web", "ylt"], 120, seed=5)
    return list(sample.texts["kjv"]), list(sample.texts["web"]), list(sample.texts["ylt"])


def test_paired_bootstrap_equals_sacrebleus_with_the_same_seed(verses):
    kjv, web, ylt = verses
    refs = [[r] for r in ylt]
    ours = paired_bootstrap(sentence_stats_matrix(kjv, refs), sentence_stats_matrix(web, refs))
    test = PairedTest([("kjv", kjv), ("web", web)], {"BLEU": BLEU(smooth_method="none")}, [ylt],
                      test_type="bs", n_samples=1000)
    base, system = test()[1]["BLEU"]
    assert 100 * ours.score_a == pytest.approx(base.score, abs=1e-9)
    assert 100 * ours.score_b == pytest.approx(system.score, abs=1e-9)
    # sacrebleu sums the statistics in float32 (exact here) but divides in float32 too: agreement to ~1e-5.
    for lmcore_value, sacrebleu_value in [(ours.mean_a, base.mean), (ours.half_width_a, base.ci),
                                          (ours.mean_b, system.mean), (ours.half_width_b, system.ci)]:
        assert 100 * lmcore_value == pytest.approx(sacrebleu_value, abs=1e-4)
    assert ours.sacrebleu_p_value == pytest.approx(system.p_value, abs=1e-12)


def test_paired_bootstrap_is_seeded_and_reads_sensibly(verses):
    kjv, web, ylt = verses
    refs = [[r] for r in ylt]
    a, b = sentence_stats_matrix(kjv, refs), sentence_stats_matrix(web, refs)
    one, two, other = (paired_bootstrap(a, b, n_resamples=200, seed=s) for s in (3, 3, 4))
    assert np.array_equal(one.deltas, two.deltas) and not np.array_equal(one.deltas, other.deltas)
    low, high = one.interval
    assert low < high and low < float(np.median(one.deltas)) < high
    assert one.p_value == pytest.approx(1 - one.wins_b) and one.n_resamples == 200
    assert "B - A" in str(one) and "95% interval" in str(one)
    same = paired_bootstrap(a, a, n_resamples=100, seed=0)
    assert same.interval == (0.0, 0.0) and same.wins_b == 0.0 and same.p_value == 1.0
    listed = paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, n_resamples=10, seed=0, weights="halving")
    assert listed.score_a == pytest.approx(bleu.bleu_from_stats(sum(COURSE_CORPUS), weights="halving").score)


def test_the_two_p_values_answer_different_questions(verses):
    kjv, web, ylt = verses
    refs = [[r] for r in ylt]
    a, b = sentence_stats_matrix(kjv, refs), sentence_stats_matrix(web, refs)
    verdicts = set()
    for n_verses, n_resamples, seed in [(40, 1000, 12345), (40, 400, 1), (120, 1000, 12345), (120, 400, 1),
                                        (120, 999, 2)]:
        for x, y in ((a, b), (b, a)):
            result = paired_bootstrap(x[:n_verses], y[:n_verses], n_resamples=n_resamples, seed=seed)
            # Koehn's one-sided p is at most 2.5% exactly when the 95% interval of B - A lies above 0
            assert (result.p_value <= 0.025) == (result.interval[0] > 0), (n_verses, n_resamples, seed)
            verdicts.add(result.p_value <= 0.025)
            # sacrebleu's is two-sided: the same whichever system is called A
            swapped = paired_bootstrap(y[:n_verses], x[:n_verses], n_resamples=n_resamples, seed=seed)
            assert result.sacrebleu_p_value == swapped.sacrebleu_p_value
            assert result.p_value + swapped.p_value == pytest.approx(1.0)  # no resample is a tie here
            spread = np.abs(result.deltas)
            beyond = np.sum(spread - spread.mean() > abs(result.delta))
            assert result.sacrebleu_p_value == (beyond + 1) / (n_resamples + 1)
    assert verdicts == {True, False}  # both kinds of case were met
    # at the edge: 25 of 1,000 differences at or below 0 is p = 0.025 and an interval just above 0
    deltas = np.concatenate([np.zeros(25), np.linspace(0.01, 0.05, 975)])
    edge = bleu.PairedBootstrap(0.3, 0.33, np.zeros(1000), deltas, 0.95, None)
    assert edge.p_value == 0.025 and edge.interval[0] > 0


def test_sacrebleus_p_value_on_numbers_worked_by_hand():
    # deltas 0.03, -0.01, 0.02, 0.02: |delta*| has mean 0.02, shifted 0.01, -0.01, 0, 0; none above |delta| = 0.02
    result = bleu.PairedBootstrap(0.30, 0.32, np.array([0.30, 0.31, 0.29, 0.30]), np.array([0.33, 0.30, 0.31, 0.32]),
                                  0.95, None)
    assert result.wins_b == 0.75 and result.p_value == 0.25 and result.sacrebleu_p_value == pytest.approx(1 / 5)
    # one system against itself: every shifted |delta*| is 0 and none is strictly above 0, so p is at its floor
    same = paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, n_resamples=99, seed=0)
    assert same.sacrebleu_p_value == pytest.approx(1 / 100) and same.p_value == 1.0


@pytest.mark.parametrize("call, error, message", [
    (lambda: stats_matrix(COURSE_CORPUS[0]), TypeError, "list of BleuStats"),
    (lambda: stats_matrix([COURSE_CORPUS[0], (1, 2)]), TypeError, r"stats\[1\] must be a BleuStats"),
    (lambda: stats_matrix([COURSE_CORPUS[0], bleu.BleuStats((1,), (1,), 1, 1)]), ValueError, "mixes max orders"),
    (lambda: bleu_scores([1, 2, 3]), ValueError, "2 \\+ 2 \\* max_order columns"),
    (lambda: bleu_scores([4, 4, 5, 1, 4, 3]), ValueError, "matches <= totals"),
    (lambda: bleu_scores([4, -4, 2, 1, 4, 3]), ValueError, "counts >= 0"),
    (lambda: bleu_scores(["a", "b", "c", "d"]), TypeError, "rows must be numbers"),
    (lambda: bleu_scores([4, 4, 2, 1, 4, 3], weights=[1, 1, 1]), ValueError, "weights has 3 entries"),
    (lambda: bleu_scores([4, 4, 2, 1, 4, 3], smooth_method="magic"), ValueError, "smooth_method must be one of"),
    (lambda: resample_indices(0), ValueError, "n_items must be >= 1"),
    (lambda: resample_indices(5, 2.5), TypeError, "n_resamples must be an int"),
    (lambda: resampled_sums(np.ones((3, 4)), np.array([[0, 3]])), ValueError, "between 0 and 2"),
    (lambda: order_statistic_interval([1, 2], confidence=95), ValueError, "between 0 and 1"),
    (lambda: order_statistic_interval([]), ValueError, "values is empty"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS[:1]), ValueError, "same shape"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, confidence=1.5), ValueError, "confidence"),
    (lambda: sentence_stats_matrix(["a"], [["a"], ["b"]]), ValueError, "1 items but references has 2"),
    (lambda: sentence_stats_matrix("a", [["a"]]), TypeError, "hypotheses must be a list"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- odd inputs: the right number or an error that names the argument -------------------------------


@pytest.mark.parametrize("call, error, message", [
    # the known case: a str confidence failed inside a comparison ("'<' not supported ...")
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, confidence="0.95"), TypeError,
     "^confidence must be a number, got str$"),
    (lambda: bleu.BLEU(max_order=2).paired_bootstrap(["a b"], ["a c"], [["a b"]], confidence="0.9"), TypeError,
     "^confidence must be a number, got str$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, confidence=True), TypeError,
     "^confidence must be a number, got bool$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, confidence=math.nan), ValueError,
     r"^confidence must be a finite number, got nan \(0\.95 for 95%\)$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, confidence=1), ValueError,
     r"^confidence must be strictly between 0 and 1, got 1 \(0\.95 for 95%\)$"),
    (lambda: order_statistic_interval([1, 2], confidence="0.9"), TypeError, "^confidence must be a number, got str$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, seed=-1), ValueError, "^seed must be at least 0, got -1$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, seed=1.5), TypeError, "^seed must be an int, got float$"),
    (lambda: paired_bootstrap(COURSE_CORPUS, COURSE_CORPUS, seed=True), TypeError, "^seed must be an int, got bool$"),
    (lambda: resample_indices(5, 2, seed="x"), TypeError, "^seed must be an int, got str$"),
    (lambda: paired_bootstrap(np.zeros((0, 6)), np.zeros((0, 6))), ValueError,
     "system_a and system_b have no sentences"),
    (lambda: paired_bootstrap([], []), TypeError, "^system_a must be a non-empty list of BleuStats"),
    (lambda: paired_bootstrap(np.array([[4.5, 4, 3, 1, 4, 3]]), np.array([[4, 4, 3, 1, 4, 3]])), ValueError,
     r"^system_a must hold whole counts \(statistics from stats_matrix\), got \[4\.5\]$"),
    (lambda: bleu_scores([7, 8, 5.5, 2, 7, 5]), ValueError, "rows must hold whole counts"),
    (lambda: resampled_sums(np.ones((2, 2)), np.array([[0.5]])), TypeError, "^indices must be whole row numbers"),
    (lambda: resampled_sums(np.ones((2, 2)), np.array([[True]])), TypeError, "^indices must be whole row numbers"),
    (lambda: resampled_sums(np.array([["a"]]), np.array([[0]])), TypeError, "^matrix must hold numbers"),
    (lambda: order_statistic_interval([math.nan, 1, 2]), ValueError, "^values contains NaN$"),
    (lambda: order_statistic_interval(["1", "2"]), TypeError, "^values must be numbers"),
    (lambda: order_statistic_interval("ab"), TypeError, "^values must be numbers .*got str$"),
    (lambda: order_statistic_interval([True, False]), TypeError, "^values must be numbers"),
    (lambda: sentence_stats_matrix([], []), ValueError, "^hypotheses is empty$"),
    (lambda: bleu_scores([[4, 4]]), ValueError, r"^rows must have 2 \+ 2 \* max_order columns .*got shape \(1, 2\)$"),
    (lambda: bleu_scores(7), ValueError, r"^rows must have 2 \+ 2 \* max_order columns .*got shape \(\)$"),
    (lambda: bleu_scores([4, 4, 2, 1, 4]), ValueError, r"^rows must have 2 \+ 2 \* max_order columns"),
])
def test_odd_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_odd_input_with_a_right_number():
    # a confidence near 0 gives the middle of the values, never an interval turned round (was (5.0, 4.0))
    assert order_statistic_interval(np.arange(10), confidence=1e-12) == (4.0, 5.0)
    assert order_statistic_interval(np.arange(9), confidence=1e-12) == (4.0, 4.0)
    assert order_statistic_interval([3.0], confidence=0.5) == (3.0, 3.0)
    assert order_statistic_interval(np.arange(100), confidence=np.float32(0.9)) == (5.0, 94.0)  # was refused
    # one sentence, one resample: the interval is the one difference there is
    one = paired_bootstrap(COURSE_CORPUS[:1], COURSE_CORPUS[:1], n_resamples=1, seed=0)
    assert one.interval == (0.0, 0.0) and one.n_resamples == 1
    # whole counts as floats (sums of resampled rows) are counts
    assert float(bleu_scores([7.0, 8.0, 5.0, 2.0, 7.0, 5.0])) == pytest.approx(0.46337, abs=5e-6)


@pytest.mark.parametrize("value, words", [(math.nan, "matrix contains NaN"),
                                          (math.inf, "matrix contains an infinite value")])
def test_resampled_statistics_refuse_a_matrix_that_is_not_finite(value, words):
    matrix = stats_matrix(COURSE_CORPUS).astype(float)
    matrix[1, 2] = value  # spread to every resample that drew the row, with a RuntimeWarning for inf
    with pytest.raises(ValueError, match=f"^{words}$"):
        resampled_sums(matrix, resample_indices(2, 5, seed=0))


@pytest.mark.parametrize("change, error, words", [
    ({"score_a": math.nan}, ValueError, "^score_a must be a finite number, got nan$"),
    ({"score_b": None}, TypeError, "^score_b must be a number, got NoneType$"),
    ({"scores_a": np.array([0.3, math.nan])}, ValueError, "^scores_a contains NaN$"),
    ({"scores_b": np.array([0.3, math.inf])}, ValueError, "^scores_b contains an infinite value$"),
    ({"scores_b": np.array([0.3])}, ValueError, "^scores_a and scores_b must be one score per resample"),
    ({"confidence": math.nan}, ValueError, "^confidence must be a finite number, got nan"),
])
def test_a_paired_bootstrap_result_holds_finite_scores(change, error, words):
    fields = {"score_a": 0.3, "score_b": 0.32, "scores_a": np.array([0.3, 0.31]), "scores_b": np.array([0.33, 0.3]),
              "confidence": 0.95, "seed": None}
    with pytest.raises(error, match=words):
        bleu.PairedBootstrap(**{**fields, **change})  # gave nan p-values and intervals, silently
