"""lmcore.bleu.BLEU: one set of settings, checked once, giving corpus_bleu's, sentence_bleu's and
paired_bootstrap's numbers, and sacrebleu's BLEU(...) numbers for the same settings."""

import dataclasses
import itertools
import sys
import warnings

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest

from lmcore import __version__
from lmcore.bleu import (
    BLEU,
    BleuSignature,
    BleuStats,
    corpus_bleu,
    paired_bootstrap,
    sentence_bleu,
    sentence_stats_matrix,
)
from lmcore.text import translations

# '我是一位老师。' is one token for 13a, intl and none, and lmcore says so; that warning is pinned below
pytestmark = pytest.mark.filterwarnings("ignore:.*has Chinese characters but no spaces:UserWarning")

HYPOTHESES = ["The cat sat on the mat.", "It's 3.5 km (about 2 miles) away, isn't it?", "我是一位老师。",
              "THE Dog barked at the Mailman, ÉMILE.", "a b"]
REFERENCES = [["The cat is sitting on the mat.", "A cat sat on the mat!"], ["It is 3.5 km away, is it not?"],
              ["我是一个学生。", "我是一位学生。"], ["The dog barked at the mailman, Émile!"], ["a b c"]]
SMOOTHINGS = ("none", "floor", "add-k", "exp")


def to_streams(references):
    """sacrebleu's layout: stream j holds reference j of every sentence, or None."""
    width = max(len(refs) for refs in references)
    return [[refs[j] if j < len(refs) else None for refs in references] for j in range(width)]


def settings_grid():
    for tokenize, smooth_method, lowercase, max_order in itertools.product(
            ("13a", "intl", "zh", "char", "none"), SMOOTHINGS, (False, True), (1, 2, 4)):
        yield {"tokenize": tokenize, "smooth_method": smooth_method, "lowercase": lowercase, "max_order": max_order}


@pytest.mark.parametrize("effective_order", [False, True])
def test_corpus_score_is_corpus_bleu_and_sacrebleus_for_every_tokenizer_smoothing_case_and_order(effective_order):
    for settings in settings_grid():
        settings = {**settings, "effective_order": effective_order}
        ours = BLEU(**settings).corpus_score(HYPOTHESES, REFERENCES)
        assert ours == corpus_bleu(HYPOTHESES, REFERENCES, **settings), settings  # every number and the signature
        theirs = SacreBLEU(tokenize=settings["tokenize"], smooth_method=settings["smooth_method"],
                           lowercase=settings["lowercase"], max_ngram_order=settings["max_order"],
                           effective_order=effective_order).corpus_score(HYPOTHESES, to_streams(REFERENCES))
        assert abs(ours.score100 - theirs.score) <= 1e-9, settings
        assert (ours.stats.hyp_len, ours.stats.ref_len) == (theirs.sys_len, theirs.ref_len), settings
        if settings["smooth_method"] != "add-k":  # sacrebleu adds k to its reported counts
            assert list(ours.stats.totals) == list(theirs.totals), settings


def test_weights_smooth_values_and_nltk_totals_give_corpus_bleus_numbers():
    tokens = [h.split() for h in HYPOTHESES], [[r.split() for r in refs] for refs in REFERENCES]
    for weights, (method, value), nltk_totals in itertools.product(
            (None, "uniform", "halving", (0.4, 0.3, 0.2, 0.1), [1, 0, 0, 0]),
            (("floor", 0.5), ("add-k", 2), ("floor", None), ("exp", None)), (False, True)):
        settings = {"weights": weights, "smooth_method": method, "smooth_value": value, "nltk_totals": nltk_totals}
        for hypotheses, references in ((HYPOTHESES, REFERENCES), tokens):
            assert BLEU(**settings).corpus_score(hypotheses, references) == \
                corpus_bleu(hypotheses, references, **settings), settings


@pytest.mark.parametrize("settings", [{}, {"max_order": 2}, {"smooth_method": "exp", "effective_order": True},
                                      {"tokenize": "zh", "lowercase": True, "smooth_method": "floor"},
                                      {"tokenize": "char", "smooth_method": "add-k", "smooth_value": 0.5},
                                      {"weights": "halving", "nltk_totals": True}])
def test_sentence_score_is_sentence_bleu_on_strings_and_token_lists(settings):
    metric = BLEU(**settings)
    for hypothesis, references in zip(HYPOTHESES, REFERENCES):
        for h, refs in ((hypothesis, references), (hypothesis.split(), [r.split() for r in references])):
            assert metric.sentence_score(h, refs) == sentence_bleu(h, refs, **settings)
            assert metric.sentence_score(h, refs) == metric.corpus_score([h], [refs])


def test_sentence_score_with_exp_smoothing_and_effective_order_is_sacrebleus_sentence_score():
    ours, theirs = BLEU(smooth_method="exp", effective_order=True), SacreBLEU(effective_order=True)
    for hypothesis, references in zip(HYPOTHESES[:2], REFERENCES[:2]):
        assert abs(ours.sentence_score(hypothesis, references).score100 -
                   theirs.sentence_score(hypothesis, references).score) <= 1e-9


def test_the_course_numbers():
    metric = BLEU(max_order=2)
    assert f"{metric.sentence_score('我 是 一位 老师', ['我 是 一个 学生']).score:.4f}" == "0.4082"
    hypotheses = ["我 是 一位 老师", "跟我 学 深度学习"]
    references = [["我 是 一个 学生", "我 是 一位 学生 。"], ["跟我 一起 学 机器学习"]]
    assert f"{metric.corpus_score(hypotheses, references).score:.5f}" == "0.46337"


# ------------------------------------------------------------- signature ----

def test_the_results_signature_is_the_metrics_for_the_number_of_references_and_kind_of_input():
    metric = BLEU(max_order=2, smooth_method="floor", lowercase=True)
    assert metric.corpus_score(HYPOTHESES, REFERENCES).signature == metric.signature("var")
    assert metric.corpus_score(HYPOTHESES[:2], [[r[0]] for r in REFERENCES[:2]]).signature == metric.signature(1)
    tokens = metric.sentence_score("a b".split(), ["a b".split(), ["a"]])
    assert tokens.signature == metric.signature(2, pretokenized=True)
    assert str(metric.signature(2)) == (f"nrefs:2|case:lc|eff:no|tok:13a|smooth:floor[0.1]|max_order:2|"
                                        f"weights:uniform|version:lmcore-{__version__}")
    assert metric.signature(2).format(short=True).startswith("#:2|c:lc|e:no|tok:13a|s:floor[0.1]|N:2|")
    assert isinstance(metric.signature(), BleuSignature) and metric.signature().nrefs == 1


def test_the_signature_has_sacrebleus_fields_for_the_same_settings():
    ours, theirs = BLEU(tokenize="intl", smooth_method="add-k"), SacreBLEU(tokenize="intl", smooth_method="add-k")
    theirs.corpus_score(HYPOTHESES, to_streams(REFERENCES))
    mine = str(ours.signature("var")).split("|")
    sacre = str(theirs.get_signature()).replace("[1.00]", "[1]").split("|")
    assert mine[:len(sacre) - 1] == sacre[:-1]  # all of sacrebleu's fields but its version, in its order


# ------------------------------------------------------------- bootstrap ----

@pytest.fixture(scope="module")
def verses():
    sample = translations.sample_verses(["kjv", "web", "ylt"], 120, seed=5)
    return list(sample.texts["kjv"]), list(sample.texts["web"]), [[r] for r in sample.texts["ylt"]]


def same_bootstrap(one, two):
    return ((one.score_a, one.score_b, one.confidence, one.seed) == (two.score_a, two.score_b, two.confidence, two.seed)
            and np.array_equal(one.scores_a, two.scores_a) and np.array_equal(one.scores_b, two.scores_b))


@pytest.mark.parametrize("settings", [{}, {"max_order": 2, "smooth_method": "exp", "effective_order": True},
                                      {"weights": "halving", "smooth_method": "add-k", "smooth_value": 0.5}])
def test_the_metrics_bootstrap_is_paired_bootstraps_from_statistics_and_from_text(verses, settings):
    kjv, web, refs = verses
    metric = BLEU(**settings)
    counting = {"max_order": metric.max_order}
    a, b = sentence_stats_matrix(kjv, refs, **counting), sentence_stats_matrix(web, refs, **counting)
    scoring = {k: v for k, v in settings.items() if k != "max_order"}
    expected = paired_bootstrap(a, b, n_resamples=300, seed=3, confidence=0.9, **scoring)
    from_stats = metric.paired_bootstrap(a, b, n_resamples=300, seed=3, confidence=0.9)
    from_text = metric.paired_bootstrap(kjv, web, refs, n_resamples=300, seed=3, confidence=0.9)
    assert same_bootstrap(from_stats, expected) and same_bootstrap(from_text, expected)
    # vectorized (bleu_scores) against one corpus score (bleu_from_stats): equal to ~1e-15
    assert from_text.score_a == pytest.approx(metric.corpus_score(kjv, refs).score, rel=1e-14)
    assert from_text.score_b == pytest.approx(metric.corpus_score(web, refs).score, rel=1e-14)


def test_the_metrics_bootstrap_from_text_is_sacrebleus_paired_test(verses):
    kjv, web, refs = verses
    ours = BLEU().paired_bootstrap(kjv, web, refs)
    base, system = PairedTest([("kjv", kjv), ("web", web)], {"BLEU": SacreBLEU(smooth_method="none")},
                              [[r[0] for r in refs]], test_type="bs", n_samples=1000)()[1]["BLEU"]
    assert 100 * ours.score_a == pytest.approx(base.score, abs=1e-9)
    assert 100 * ours.score_b == pytest.approx(system.score, abs=1e-9)
    assert ours.sacrebleu_p_value == pytest.approx(system.p_value, abs=1e-12)


def test_the_bootstrap_counts_text_with_the_metrics_settings():
    hyps_a, hyps_b, refs = ["The Cat sat", "A dog"], ["the cat sat", "a dog"], [["the cat sat"], ["a dog"]]
    cased, lowered = BLEU(max_order=2), BLEU(max_order=2, lowercase=True)
    assert cased.paired_bootstrap(hyps_a, hyps_b, refs, n_resamples=20).delta > 0
    assert lowered.paired_bootstrap(hyps_a, hyps_b, refs, n_resamples=20).delta == 0
    nltk = BLEU(max_order=4, nltk_totals=True, smooth_method="floor")
    assert nltk.paired_bootstrap(hyps_a, hyps_b, refs, n_resamples=20).score_a == \
        pytest.approx(nltk.corpus_score(hyps_a, refs).score, rel=1e-14)


# ------------------------------------------------------------ the object ----

def test_a_metric_is_frozen_hashable_and_normalizes_what_is_spelled_differently():
    metric = BLEU(weights=[1, 0, 0, 0], lowercase=np.bool_(True))
    assert metric.weights == (1.0, 0.0, 0.0, 0.0) and metric.lowercase is True
    assert metric == BLEU(weights=(1.0, 0, 0, 0), lowercase=True) and len({metric, BLEU(weights=(1, 0, 0, 0),
                                                                                       lowercase=True)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        metric.max_order = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        metric.cache = {}  # no attribute of its own either
    assert dataclasses.replace(BLEU(), max_order=2) == BLEU(max_order=2)  # None weights follow the order
    assert BLEU() == BLEU(max_order=4, weights=None, smooth_method="none", smooth_value=None, effective_order=False,
                          tokenize="13a", lowercase=False, nltk_totals=False)
    assert repr(BLEU(max_order=2)).startswith("BLEU(max_order=2, weights=None, smooth_method='none'")


def test_scoring_never_changes_the_callers_lists():
    hypotheses, references = [["The", "cat"]], [[["the", "cat"]]]
    BLEU(lowercase=True).corpus_score(hypotheses, references)
    assert (hypotheses, references) == ([["The", "cat"]], [[["the", "cat"]]])


def test_the_unspaced_chinese_warning_points_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        BLEU().corpus_score(["我们是学生"], [["他们是学生"]])
        BLEU().sentence_score("我们是学生", ["他们是学生"])
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line), (__file__, line + 1)]


# ------------------------------------------------------------- bad input ----

@pytest.mark.parametrize("settings, error, message", [
    ({"max_order": 0}, ValueError, r"max_order must be between 1 and 1000 \(BLEU's standard is 4\), got 0"),
    ({"max_order": 2.0}, TypeError, "max_order must be an int"),
    ({"weights": [0.5, 0.5]}, ValueError, "weights has 2 entries but max_order is 4"),
    ({"weights": "geometric"}, ValueError, "weights must be 'uniform', 'halving'"),
    ({"weights": 0.25}, TypeError, "weights must be"),
    ({"max_order": 2, "weights": [1, -1]}, ValueError, r"weights has negative weights: \[-1.0\]"),
    ({"max_order": 2, "weights": [0, 0]}, ValueError, "weights are all zero"),
    ({"smooth_method": "laplace"}, ValueError, "smooth_method must be one of"),
    ({"smooth_value": 0.1}, ValueError, "smooth_value is only used by 'floor' and 'add-k', not 'none'"),
    ({"smooth_method": "floor", "smooth_value": -1}, ValueError, "smooth_value must be at least 0, got -1"),
    ({"tokenize": "moses"}, ValueError, "tokenize must be one of"),
    ({"tokenize": "pretokenized"}, ValueError, "tokenize must be one of"),
    ({"lowercase": "yes"}, TypeError, "lowercase must be True or False, got 'yes'"),
    ({"effective_order": None}, TypeError, "effective_order must be True or False"),
    ({"nltk_totals": 1.5}, TypeError, "nltk_totals must be True or False"),
    ({"lowercase": 1}, TypeError, "lowercase must be True or False, got 1"),  # checks.check_bool's one rule
    ({"effective_order": np.int64(0)}, TypeError, r"effective_order must be True or False, got np.int64\(0\)"),
])
def test_bad_settings_are_named_when_the_metric_is_made(settings, error, message):
    with pytest.raises(error, match=message):
        BLEU(**settings)
    for one_call in (lambda: corpus_bleu(["a"], [["a"]], **settings), lambda: sentence_bleu("a", ["a"], **settings)):
        with pytest.raises(error, match=message):
            one_call()


STATS = [BleuStats((3, 1), (4, 3), 4, 4), BleuStats((2, 0), (3, 2), 3, 4)]


@pytest.mark.parametrize("call, error, message", [
    (lambda: BLEU(4), TypeError, "positional"),
    (lambda: BLEU().signature(0), ValueError, "nrefs must be at least 1, got 0"),
    (lambda: BLEU().signature(pretokenized="yes"), TypeError, "pretokenized must be True or False"),
    (lambda: BLEU().corpus_score(["a"], [["a"], ["b"]]), ValueError, "hypotheses has 1 items but references has 2"),
    (lambda: BLEU().corpus_score("a b", [["a b"]]), TypeError, "hypotheses must be a list"),
    (lambda: BLEU().sentence_score("a b", "a b"), TypeError, "wrap a single one"),
    (lambda: BLEU().paired_bootstrap(["a b"], ["a c"]), TypeError, "system_a holds hypotheses.*references="),
    (lambda: BLEU().paired_bootstrap(STATS, [["a", "c"]] * 2), TypeError, "system_b holds hypotheses"),
    (lambda: BLEU().paired_bootstrap(STATS, STATS), ValueError, "max order 2 but max_order is 4"),
    (lambda: BLEU(max_order=2).paired_bootstrap(STATS, STATS[:1]), ValueError, "system_a and system_b must be"),
    (lambda: BLEU(max_order=2).paired_bootstrap(STATS, STATS, confidence=95), ValueError, "confidence"),
    (lambda: BLEU().paired_bootstrap(["a"], ["a"], [["a"], ["b"]]), ValueError, "1 items but references has 2"),
])
def test_bad_calls_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
