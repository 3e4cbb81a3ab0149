"""Unit and property tests for lmcore.bleu, starting with the course's worked examples."""

import dataclasses
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import __version__, bleu
from lmcore.bleu import (
    BLEU,
    BleuSettings,
    BleuSignature,
    BleuStats,
    NgramRow,
    bleu_from_stats,
    bleu_tokens,
    brevity_penalty,
    corpus_bleu,
    corpus_stats,
    ngram_matches,
    references_from_streams,
    sentence_bleu,
    sentence_stats,
)
from lmcore.bleu import signature as bleu_signature

# The course's example (section 9.8.2), with N = 2 and uniform weights.
TEACHER = ["我", "是", "一位", "老师"]
STUDENT = ["我", "是", "一个", "学生"]
STUDENT_2 = ["我", "是", "一位", "学生", "。"]
FOLLOW_ME = ["跟我", "学", "深度学习"]
FOLLOW_ME_REF = ["跟我", "一起", "学", "机器学习"]


# ------------------------------------------------------- course numbers ----

def test_one_reference_gives_0_4082():
    result = sentence_bleu(TEACHER, [STUDENT], max_order=2)
    assert result.stats == BleuStats((2, 1), (4, 3), hyp_len=4, ref_len=4)
    assert result.precisions == (2 / 4, 1 / 3)
    assert result.brevity_penalty == 1.0
    assert result.score == pytest.approx(1 / math.sqrt(6), rel=1e-15)
    assert f"{result.score:.4f}" == "0.4082"


def test_a_second_reference_gives_0_7071():
    result = sentence_bleu(TEACHER, [STUDENT, STUDENT_2], max_order=2)
    assert result.precisions == (3 / 4, 2 / 3)
    assert result.stats.ref_len == 4  # 4 and 5 are the reference lengths; 4 is closest
    assert result.score == pytest.approx(1 / math.sqrt(2), rel=1e-15)
    assert f"{result.score:.4f}" == "0.7071"


def test_two_sentence_corpus_gives_0_46337_not_the_mean_of_sentence_scores():
    hypotheses = [TEACHER, FOLLOW_ME]
    references = [[STUDENT, STUDENT_2], [FOLLOW_ME_REF]]
    result = corpus_bleu(hypotheses, references, max_order=2)
    assert result.stats == BleuStats((5, 2), (7, 5), hyp_len=7, ref_len=8)
    assert result.brevity_penalty == pytest.approx(math.exp(1 - 8 / 7), rel=1e-15)
    exact = math.sqrt(5 / 7 * 2 / 5) * math.exp(1 - 8 / 7)
    assert result.score == pytest.approx(exact, rel=1e-15)
    assert f"{result.score:.5f}" == "0.46337"
    sentence_scores = [sentence_bleu(h, refs, max_order=2).score for h, refs in zip(hypotheses, references)]
    assert sentence_scores[1] == 0.0  # "跟我 学 深度学习" has no bigram match
    mean = sum(sentence_scores) / 2
    assert f"{mean:.4f}" == "0.3536"
    assert abs(mean - result.score) > 0.1


def test_course_examples_from_strings_with_every_whitespace_respecting_tokenizer():
    for tokenize in ("13a", "intl", "none"):
        result = corpus_bleu(["我 是 一位 老师", "跟我 学 深度学习"],
                             [["我 是 一个 学生", "我 是 一位 学生 。"], ["跟我 一起 学 机器学习"]],
                             max_order=2, tokenize=tokenize)
        assert f"{result.score:.5f}" == "0.46337"


def test_a_short_prediction_is_penalised_by_the_brevity_penalty():
    # Section 9.8.2: prediction A B against A B C D E F, p1 = p2 = 1 but BP = exp(1 - 6/2).
    result = sentence_bleu(list("AB"), [list("ABCDEF")], max_order=2)
    assert result.precisions == (1.0, 1.0)
    assert result.score == pytest.approx(math.exp(-2), rel=1e-15)
    assert f"{result.brevity_penalty:.2f}" == "0.14"


def d2l_bleu(prediction, label, k):
    """The textbook's reference [2] (Dive into Deep Learning): weights 1/2^n, one reference."""
    score = math.exp(min(0, 1 - len(label) / len(prediction)))
    for n in range(1, min(k, len(prediction)) + 1):
        available = {}
        for i in range(len(label) - n + 1):
            key = tuple(label[i:i + n])
            available[key] = available.get(key, 0) + 1
        matches = 0
        for i in range(len(prediction) - n + 1):
            key = tuple(prediction[i:i + n])
            if available.get(key, 0) > 0:
                matches += 1
                available[key] -= 1
        score *= (matches / (len(prediction) - n + 1)) ** (0.5 ** n)
    return score


def test_halving_weights_reproduce_the_textbook_variant():
    result = sentence_bleu(TEACHER, [STUDENT], max_order=2, weights="halving")
    assert result.weights == (0.5, 0.25)
    assert result.score == pytest.approx((1 / 2) ** 0.5 * (1 / 3) ** 0.25, rel=1e-15)
    assert result.score == pytest.approx(d2l_bleu(TEACHER, STUDENT, 2), rel=1e-15)
    long_prediction = "the cat sat on the mat and the dog sat on the log".split()
    label = "the cat sat on a mat while the dog lay on the log".split()
    assert sentence_bleu(long_prediction, [label], weights="halving").score == \
        pytest.approx(d2l_bleu(long_prediction, label, 4), rel=1e-14)
    assert "|weights:halving|" in str(result.signature)


# ----------------------------------------------------- showing the work ----

def test_ngram_matches_shows_counts_clips_and_the_reference_that_set_the_clip():
    rows = ngram_matches(TEACHER, [STUDENT, STUDENT_2], max_order=2)
    assert rows[2] == NgramRow(1, ("一位",), 1, (0, 1), 1, 1)
    assert rows[3] == NgramRow(1, ("老师",), 1, (0, 0), 0, None)
    assert [row.ngram for row in rows if row.order == 2] == [("我", "是"), ("是", "一位"), ("一位", "老师")]
    stats = sentence_stats(TEACHER, [STUDENT, STUDENT_2], max_order=2)
    for n in (1, 2):
        assert sum(row.clipped_count for row in rows if row.order == n) == stats.matches[n - 1]
        assert sum(row.count for row in rows if row.order == n) == stats.totals[n - 1]


def test_clipping_by_the_largest_count_in_any_single_reference():
    # Papineni et al.: "the the the the the the the" gets 2/7, not 7/7.
    rows = ngram_matches("the the the the the the the".split(),
                       ["the cat is on the mat".split(), "there is a cat on the mat".split()], max_order=1)
    assert rows == [NgramRow(1, ("the",), 7, (2, 1), 2, 0)]
    counts = ngram_matches(["a", "a", "a"], [["a", "b"], ["a", "a", "b"]], max_order=1)[0]
    assert (counts.clipped_count, counts.clip_ref) == (2, 1)


def test_effective_reference_length_is_the_closest_with_ties_to_the_shorter():
    five = ["x"] * 5
    assert sentence_stats(five, [["y"] * 4, ["y"] * 6]).ref_len == 4
    assert sentence_stats(five, [["y"] * 6, ["y"] * 4]).ref_len == 4
    assert sentence_stats(five, [["y"] * 9, ["y"] * 7, ["y"] * 2]).ref_len == 7


def test_stats_add_up_and_corpus_stats_are_the_sum_of_sentence_stats():
    hypotheses = [TEACHER, FOLLOW_ME, []]
    references = [[STUDENT, STUDENT_2], [FOLLOW_ME_REF], [["x"]]]
    each = [sentence_stats(h, refs, max_order=3) for h, refs in zip(hypotheses, references)]
    assert sum(each) == each[0] + each[1] + each[2] == corpus_stats(hypotheses, references, max_order=3)
    with pytest.raises(ValueError, match="max order"):
        each[0] + sentence_stats(TEACHER, [STUDENT], max_order=2)
    with pytest.raises(ValueError, match="matches <= totals"):
        BleuStats((3,), (2,), 2, 2)


def test_bleu_from_stats_equals_corpus_bleu():
    stats = BleuStats((5, 2), (7, 5), 7, 8)
    assert bleu_from_stats(stats).score == corpus_bleu(
        [TEACHER, FOLLOW_ME], [[STUDENT, STUDENT_2], [FOLLOW_ME_REF]], max_order=2).score


def test_result_carries_its_parts_and_its_signature():
    result = corpus_bleu(["a b c d"], [["a b c e"]], smooth_method="floor", effective_order=True)
    assert result.score100 == 100 * result.score
    assert isinstance(result.score, float) and isinstance(result.brevity_penalty, float)
    assert isinstance(result.signature, BleuSignature)
    assert str(result).startswith("BLEU = 0.3976 (p_n = 0.7500/0.6667/0.5000/0.1000, BP = 1.0000, c = 4, r = 4) ")
    assert str(result).endswith(" " + str(result.signature))


# ------------------------------------------------------------ signature ----

V = __version__


@pytest.mark.parametrize("call, full, short", [
    (lambda: corpus_bleu(["a b"], [["a b"]]),
     f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:none|max_order:4|weights:uniform|version:lmcore-{V}",
     f"#:1|c:mixed|e:no|tok:13a|s:none|N:4|w:uniform|v:lmcore-{V}"),
    (lambda: sentence_bleu(["a"], [["a"]], smooth_method="floor", smooth_value=0.5, effective_order=True),
     f"nrefs:1|case:mixed|eff:yes|tok:pretokenized|smooth:floor[0.5]|max_order:4|weights:uniform|version:lmcore-{V}",
     f"#:1|c:mixed|e:yes|tok:pretokenized|s:floor[0.5]|N:4|w:uniform|v:lmcore-{V}"),
    (lambda: sentence_bleu("a", ["a", "b"], tokenize="none", smooth_method="add-k", max_order=2),
     f"nrefs:2|case:mixed|eff:no|tok:none|smooth:add-k[1]|max_order:2|weights:uniform|version:lmcore-{V}",
     f"#:2|c:mixed|e:no|tok:none|s:add-k[1]|N:2|w:uniform|v:lmcore-{V}"),
    (lambda: corpus_bleu(["A b", "c"], [["a b"], ["c", "d"]], lowercase=True, tokenize="intl", smooth_method="exp"),
     f"nrefs:var|case:lc|eff:no|tok:intl|smooth:exp|max_order:4|weights:uniform|version:lmcore-{V}",
     f"#:var|c:lc|e:no|tok:intl|s:exp|N:4|w:uniform|v:lmcore-{V}"),
    (lambda: sentence_bleu("我是", ["我是"], tokenize="zh", max_order=3, weights=[0.5, 0.3, 0.2]),
     f"nrefs:1|case:mixed|eff:no|tok:zh|smooth:none|max_order:3|weights:0.5,0.3,0.2|version:lmcore-{V}",
     f"#:1|c:mixed|e:no|tok:zh|s:none|N:3|w:0.5,0.3,0.2|v:lmcore-{V}"),
    (lambda: sentence_bleu("ab", ["ab"], tokenize="char", max_order=2, weights=[1 / 3, 2 / 3], nltk_totals=True),
     "nrefs:1|case:mixed|eff:no|tok:char|smooth:none|max_order:2|weights:0.3333333333333333,0.6666666666666666|"
     f"totals:nltk|version:lmcore-{V}",
     f"#:1|c:mixed|e:no|tok:char|s:none|N:2|w:0.3333333333333333,0.6666666666666666|tot:nltk|v:lmcore-{V}"),
    (lambda: sentence_bleu(["a"], [["a"]], weights="halving", max_order=2),
     f"nrefs:1|case:mixed|eff:no|tok:pretokenized|smooth:none|max_order:2|weights:halving|version:lmcore-{V}",
     f"#:1|c:mixed|e:no|tok:pretokenized|s:none|N:2|w:halving|v:lmcore-{V}"),
])
def test_signature_full_and_short_forms_are_pinned(call, full, short):
    signature = call().signature
    assert str(signature) == signature.format() == signature.format(short=False) == full
    assert signature.format(short=True) == short


def test_signature_is_immutable_and_equal_settings_give_equal_signatures():
    signature = sentence_bleu("a b", ["a b"]).signature
    with pytest.raises(dataclasses.FrozenInstanceError):
        signature.nrefs = 2
    assert signature.version == __version__
    same = [BleuSignature(), sig(weights="uniform"), sig(weights=[0.25] * 4), BLEU().signature(),
            BleuSignature(settings=BleuSettings(max_order=4, weights=None, smooth_method="none", smooth_value=None,
                                                effective_order=False, tokenize="13a", lowercase=False,
                                                nltk_totals=False), nrefs=1, pretokenized=False), signature]
    assert all(other == same[0] for other in same) and len(set(same)) == 1
    assert sig(smooth_method="floor") == sig(smooth_method="floor", smooth_value=0.1)
    assert sig(weights="halving", max_order=2) == sig(weights=(0.5, 0.25), max_order=2)
    different = [BleuSignature(nrefs=2), BleuSignature(nrefs="var"), sig(tokenize="none"),
                 BleuSignature(pretokenized=True), sig(lowercase=True), sig(smooth_method="exp"),
                 sig(effective_order=True), sig(max_order=3), sig(weights=[0.4, 0.3, 0.2, 0.1]), sig(nltk_totals=True),
                 sig(smooth_method="floor"), sig(smooth_method="add-k"), sig(smooth_method="add-k", smooth_value=0.5)]
    assert len({str(s) for s in same + different}) == len(set(same + different)) == 1 + len(different)
    assert signature != str(signature) and signature.__eq__(str(signature)) is NotImplemented
    numpy = BleuSignature(nrefs=np.int64(2), pretokenized=np.bool_(True))
    assert type(numpy.nrefs) is int and numpy.pretokenized is True
    assert numpy == BleuSignature(nrefs=2, pretokenized=True)


def sig(nrefs=1, pretokenized=False, **settings):
    """The signature of a score with ``settings`` on ``nrefs`` references."""
    return BleuSettings(**settings).signature(nrefs, pretokenized=pretokenized)


def test_settings_are_checked_once_and_one_signature_is_built_per_computation(monkeypatch):
    checked, built, flags = [], [], []

    def counted(method, log):
        def wrapper(self):
            log.append(self)
            method(self)
        return wrapper

    monkeypatch.setattr(BleuSettings, "__post_init__", counted(BleuSettings.__post_init__, checked))
    monkeypatch.setattr(BleuSignature, "__post_init__", counted(BleuSignature.__post_init__, built))
    monkeypatch.setattr(bleu_signature, "check_bool", lambda value, name: flags.append(name) or bool(value))
    for call in (lambda: sentence_bleu("a b", ["a b"]), lambda: corpus_bleu(["a", "b"], [["a"], ["b"]]),
                 lambda: bleu_from_stats(BleuStats((1,), (1,), 1, 1)),
                 lambda: BLEU(max_order=2).corpus_score(["a b"], [["a b"]])):
        checked.clear(), built.clear(), flags.clear()
        result = call()
        assert len(checked) == 1 and built == [result.signature] and built[0] is result.signature
        assert sorted(flags) == ["effective_order", "lowercase", "nltk_totals", "pretokenized"]
    metric = BLEU(smooth_method="floor")
    checked.clear()
    assert corpus_bleu(["a b"], [["a b"]], metric) == metric.corpus_score(["a b"], [["a b"]])
    assert corpus_bleu(["a b"], [["a b"]], metric).signature.settings is metric and checked == []


def test_the_one_call_functions_take_settings_or_build_them():
    settings = BleuSettings(max_order=2, smooth_method="floor", lowercase=True)
    options = dataclasses.asdict(settings)
    hypotheses, references = [TEACHER, FOLLOW_ME], [[STUDENT, STUDENT_2], [FOLLOW_ME_REF]]
    assert corpus_bleu(hypotheses, references, settings) == corpus_bleu(hypotheses, references, **options)
    assert sentence_bleu(TEACHER, [STUDENT], settings) == sentence_bleu(TEACHER, [STUDENT], **options)
    assert corpus_stats(hypotheses, references, settings) == corpus_stats(hypotheses, references, **options)
    assert ngram_matches(TEACHER, [STUDENT], settings) == ngram_matches(TEACHER, [STUDENT], max_order=2)
    # settings with some changed: a new object, checked
    assert corpus_bleu(hypotheses, references, settings, max_order=1) == \
        corpus_bleu(hypotheses, references, **{**options, "max_order": 1})
    assert BleuSettings.of(settings) is settings and BleuSettings.of(None, max_order=2) == BleuSettings(max_order=2)
    assert BleuSettings.of(BLEU(), max_order=2) == BLEU(max_order=2)
    stats = corpus_stats(hypotheses, references, settings)
    assert bleu_from_stats(stats, settings, nrefs="var").score == corpus_bleu(hypotheses, references, settings).score
    assert bleu_from_stats(stats, max_order=2).score == bleu_from_stats(stats).score
    with pytest.raises(ValueError, match="^stats are of max order 2 but max_order is 4$"):
        bleu_from_stats(stats, BleuSettings())
    with pytest.raises(ValueError, match="^stats are of max order 2 but max_order is 3$"):
        bleu_from_stats(stats, max_order=3)
    with pytest.raises(TypeError, match="^settings must be a BleuSettings .a BLEU is one., got dict$"):
        corpus_bleu(hypotheses, references, options)
    with pytest.raises(TypeError, match="^settings must be a BleuSettings, got str$"):
        BleuSignature(settings="13a")
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_ngram_order'"):
        corpus_bleu(hypotheses, references, max_ngram_order=2)


def test_settings_keep_their_spelling_and_give_the_numbers_used():
    assert BleuSettings(weights="uniform").weights == "uniform" and BleuSettings().weights is None
    assert BleuSettings(weights=np.array([1, 3]), max_order=2).weights == (1.0, 3.0)
    assert BleuSettings(max_order=3).weight_values == (1 / 3,) * 3
    assert BleuSettings(max_order=3, weights="uniform").weight_values == (1 / 3,) * 3
    assert BleuSettings(max_order=3, weights="halving").weight_values == (0.5, 0.25, 0.125)
    assert BleuSettings(smooth_method="add-k", smooth_value=2).smooth_value == 2
    assert [BleuSettings(smooth_method=m).smooth_value_used for m in ("none", "floor", "add-k", "exp")] == \
        [None, 0.1, 1.0, None]
    assert BleuSettings(smooth_method="floor", smooth_value=0).smooth_value_used == 0.0
    assert type(BleuSettings(max_order=np.int64(2)).max_order) is int
    assert BleuSettings(max_order=1000).max_order == 1000 and BleuSettings(max_order=1).weight_values == (1.0,)
    flags = BleuSettings(lowercase=np.bool_(True), effective_order=np.bool_(False), nltk_totals=True)
    assert (flags.lowercase, flags.effective_order, flags.nltk_totals) == (True, False, True)
    assert all(type(value) is bool for value in (flags.lowercase, flags.effective_order, flags.nltk_totals))


def test_bleu_from_stats_states_how_the_stats_were_counted():
    stats = BleuStats((5, 2), (7, 5), 7, 8)
    assert str(bleu_from_stats(stats).signature) == \
        f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:none|max_order:2|weights:uniform|version:lmcore-{V}"
    hypotheses, references = [TEACHER, FOLLOW_ME], [[STUDENT, STUDENT_2], [FOLLOW_ME_REF]]
    direct = corpus_bleu(hypotheses, references, max_order=2, lowercase=True, nltk_totals=True)
    from_stats = bleu_from_stats(corpus_stats(hypotheses, references, max_order=2, lowercase=True, nltk_totals=True),
                                 nrefs="var", tokenize="pretokenized", lowercase=True, nltk_totals=True)
    assert from_stats == direct  # the score, its parts and every field of the signature
    assert from_stats.signature.format(short=True).startswith("#:var|c:lc|e:no|tok:pretokenized|")
    three_refs = bleu_from_stats(stats, nrefs=3, tokenize="zh").signature
    assert three_refs.format(short=True).startswith("#:3|c:mixed|e:no|tok:zh|")


def test_lowercase_folds_case_of_strings_and_tokens_without_touching_the_caller_s_lists():
    assert sentence_bleu("The Cat", ["the cat"], max_order=2).score == 0.0
    assert sentence_bleu("The Cat", ["the cat"], max_order=2, lowercase=True).score == 1.0
    hypothesis, reference = ["The", "CAT"], ["the", "cat"]
    assert sentence_bleu(hypothesis, [reference], max_order=2, lowercase=True).score == 1.0
    assert hypothesis == ["The", "CAT"]
    assert ngram_matches(hypothesis, [reference], max_order=1, lowercase=True)[1] == \
        NgramRow(1, ("cat",), 1, (1,), 1, 0)
    assert sentence_stats("A a", ["a"], max_order=1, lowercase=True).matches == (1,)


# ------------------------------------------------------------ smoothing ----

# Hypothesis "a b c d" against "a b x d": matches 3/4, 1/3, 0/2 and 0/1.
SMOOTH_STATS = BleuStats((3, 1, 0, 0), (4, 3, 2, 1), 4, 4)


def test_no_smoothing_gives_zero_when_an_order_has_no_match():
    assert sentence_stats("a b c d".split(), [["a", "b", "x", "d"]]) == SMOOTH_STATS
    assert bleu_from_stats(SMOOTH_STATS).score == 0.0


@pytest.mark.parametrize("method, value, precisions", [
    ("floor", None, (3 / 4, 1 / 3, 0.1 / 2, 0.1 / 1)),
    ("floor", 0.5, (3 / 4, 1 / 3, 0.5 / 2, 0.5 / 1)),
    ("add-k", None, (3 / 4, 2 / 4, 1 / 3, 1 / 2)),
    ("add-k", 2, (3 / 4, 3 / 5, 2 / 4, 2 / 3)),
    ("exp", None, (3 / 4, 1 / 3, 1 / (2 * 2), 1 / (4 * 1))),
])
def test_smoothing_methods_follow_sacrebleu(method, value, precisions):
    result = bleu_from_stats(SMOOTH_STATS, smooth_method=method, smooth_value=value)
    assert result.precisions == pytest.approx(precisions, rel=1e-15)
    expected = math.exp(sum(math.log(p) for p in precisions) / 4)
    assert result.score == pytest.approx(expected, rel=1e-14)


def test_no_unigram_match_scores_zero_whatever_the_smoothing():
    for method in bleu.SMOOTHING_DEFAULTS:
        assert sentence_bleu(["a", "b"], [["c", "d"]], smooth_method=method).score == 0.0


def test_effective_order_drops_orders_the_hypothesis_is_too_short_for():
    short = sentence_bleu(["a", "b"], [["a", "b"]])
    assert short.score == 0.0  # no trigram at all: p_3 = 0/0, taken as 0
    effective = sentence_bleu(["a", "b"], [["a", "b"]], effective_order=True)
    assert effective.score == 1.0 and effective.weights == (0.5, 0.5, 0.0, 0.0)
    halving = sentence_bleu(["a", "b"], [["a", "b", "c"]], weights="halving", effective_order=True)
    assert sum(halving.weights) == pytest.approx(sum(0.5 ** n for n in range(1, 5)))
    # An order with weight 0 never counts, so it cannot zero the score.
    assert sentence_bleu(["a", "b"], [["a", "b"]], weights=[0.5, 0.5, 0, 0]).score == 1.0


def test_effective_order_stops_at_the_first_order_with_no_ngrams():
    # statistics from elsewhere may have an empty order below a full one: as sacrebleu's compute_bleu
    # (BLEU.compute_bleu([2, 0, 1], [3, 0, 2], 3, 3, effective_order=True) is 66.67), only p_1 = 2/3 counts
    result = bleu_from_stats(BleuStats((2, 0, 1), (3, 0, 2), 3, 3), effective_order=True)
    assert result.score == pytest.approx(2 / 3) and result.weights == (1.0, 0.0, 0.0)


# ---------------------------------------------------------- tokenization ----

def test_strings_and_token_lists_give_the_same_score():
    as_text = sentence_bleu("The cat, the hat.", ["The cat in the hat."])
    as_tokens = sentence_bleu(["The", "cat", ",", "the", "hat", "."], [["The", "cat", "in", "the", "hat", "."]])
    assert as_text.stats == as_tokens.stats and as_text.score == as_tokens.score
    assert bleu_tokens("我是一位老师。", "zh") == ["我", "是", "一", "位", "老", "师", "。"]
    assert bleu_tokens("a b  c ", "none") == ["a", "b", "c"]


@pytest.mark.parametrize("tokenize", ["13a", "intl", "none"])
def test_unspaced_chinese_warns_that_it_is_one_token(tokenize):
    with pytest.warns(UserWarning, match="single token.*'zh' or 'char'"):
        result = sentence_bleu("我是一位老师", ["我是一个学生"], tokenize=tokenize)
    assert result.stats.hyp_len == 1 and result.score == 0.0
    with pytest.warns(UserWarning, match="single token"):
        bleu_tokens("我是一位老师", tokenize)


@pytest.mark.parametrize("tokenize", ["zh", "char"])
def test_character_tokenizers_do_not_warn_on_chinese(tokenize):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = sentence_bleu("我是一位老师", ["我是一个学生"], tokenize=tokenize, max_order=2)
        sentence_bleu("我 是 一位 老师", ["我 是 一个 学生"], tokenize="13a")  # spaced: fine
    assert result.stats.hyp_len == 6


def test_missing_sacrebleu_gives_an_import_error_that_says_how_to_install(monkeypatch):
    for name in [name for name in sys.modules if name.startswith("sacrebleu")] + ["sacrebleu"]:
        monkeypatch.setitem(sys.modules, name, None)  # an import of it now fails
    bleu_signature._tokenizer.cache_clear()
    try:
        with pytest.raises(ImportError, match="pip install sacrebleu"):
            sentence_bleu("a b", ["a b"], tokenize="intl")
        assert sentence_bleu("a b", ["a b"], tokenize="none", max_order=2).score == 1.0
    finally:
        bleu_signature._tokenizer.cache_clear()


def test_module_imports_and_scores_token_lists_without_sacrebleu():
    code = ("import sys; sys.modules['sacrebleu'] = None; import lmcore.bleu as b; "
            "print(round(b.sentence_bleu(['a', 'b'], [['a', 'b']], max_order=2).score, 3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1.0"


def test_reference_streams_convert_to_one_list_per_hypothesis():
    streams = [["r1 a", "r1 b", "r1 c"], ["r2 a", None, "r2 c"]]
    assert references_from_streams(streams) == [["r1 a", "r2 a"], ["r1 b"], ["r1 c", "r2 c"]]
    with pytest.raises(ValueError, match="streams have different lengths"):
        references_from_streams([["a", "b"], ["c"]])
    with pytest.raises(TypeError, match="streams"):
        references_from_streams("a b")


# ------------------------------------------------------------- bad input ----

@pytest.mark.parametrize("call, error, message", [
    (lambda: corpus_bleu(["a"], [["a"], ["b"]]), ValueError, "hypotheses has 1 items but references has 2"),
    (lambda: corpus_bleu([], []), ValueError, "hypotheses is empty"),
    (lambda: corpus_bleu("a b", [["a b"]]), TypeError, "hypotheses must be a list"),
    (lambda: corpus_bleu(["a b"], "a b"), TypeError, "references must be a list"),
    (lambda: corpus_bleu(["a b"], ["a b"]), TypeError, r"references\[0\] must be a list of references"),
    (lambda: corpus_bleu(["a b"], [[]]), ValueError, r"references\[0\] is empty"),
    (lambda: sentence_bleu("a b", []), ValueError, r"references\[0\] is empty"),
    (lambda: sentence_bleu("a b", "a b"), TypeError, "wrap a single one"),
    (lambda: sentence_bleu(["a", "b"], ["a", "b"]), TypeError, r"references\[0\]\[0\] must be a list of str"),
    (lambda: sentence_bleu("a b", [["a", "b"]]), TypeError, r"references\[0\]\[0\] must be a string"),
    (lambda: sentence_bleu(["a", 3], [["a"]]), TypeError, r"hypotheses\[0\]\[1\] is a int; tokens must be str"),
    (lambda: sentence_bleu(["a"], [["a", None]]), TypeError, r"references\[0\]\[0\]\[1\] is a NoneType"),
    (lambda: sentence_bleu(42, [["a"]]), TypeError, r"hypotheses\[0\] must be"),
    (lambda: sentence_bleu("a", ["a"], weights=[0.5, 0.5]), ValueError, "weights has 2 entries but max_order is 4"),
    (lambda: sentence_bleu("a", ["a"], max_order=2, weights=[1.5, -0.5]), ValueError,
     r"weights has negative weights: \[-0.5\]"),
    (lambda: sentence_bleu("a", ["a"], max_order=1, weights=[math.nan]), ValueError, "weights contains NaN"),
    (lambda: sentence_bleu("a", ["a"], max_order=2, weights=[0, 0]), ValueError, "weights are all zero"),
    (lambda: sentence_bleu("a", ["a"], max_order=1, weights=["1"]), TypeError, "weights must contain only numbers"),
    (lambda: sentence_bleu("a", ["a"], weights="geometric"), ValueError, "weights must be 'uniform', 'halving'"),
    (lambda: sentence_bleu("a", ["a"], weights=0.25), TypeError, "weights must be"),
    (lambda: sentence_bleu("a", ["a"], max_order=0), ValueError, "max_order must be between 1 and 1000"),
    (lambda: sentence_bleu("a", ["a"], max_order=2.0), TypeError, "max_order must be an int"),
    (lambda: sentence_bleu("a", ["a"], smooth_method="laplace"), ValueError, "smooth_method must be one of"),
    (lambda: sentence_bleu("a", ["a"], smooth_value=0.1), ValueError, "smooth_value is only used by"),
    (lambda: sentence_bleu("a", ["a"], smooth_method="floor", smooth_value=-1), ValueError, "smooth_value must be"),
    (lambda: sentence_bleu("a", ["a"], tokenize="moses"), ValueError, "tokenize must be one of"),
    (lambda: sentence_bleu(["a"], [["a"]], tokenize="spm"), ValueError, "tokenize must be one of"),
    (lambda: bleu_tokens(["a"]), TypeError, "text must be a str"),
    (lambda: bleu_from_stats((1, 1)), TypeError, "stats must be a BleuStats"),
    (lambda: bleu_from_stats(SMOOTH_STATS, nrefs=0), ValueError, "nrefs must be at least 1, got 0"),
    (lambda: bleu_from_stats(SMOOTH_STATS, nrefs="2"), TypeError, "nrefs must be an int, got str"),
    (lambda: bleu_from_stats(SMOOTH_STATS, nrefs=True), TypeError, "nrefs must be an int"),
    (lambda: bleu_from_stats(SMOOTH_STATS, nrefs=None), TypeError, "nrefs must be an int"),
    (lambda: bleu_from_stats(SMOOTH_STATS, tokenize="moses"), ValueError,
     r"tokenize must be one of \('13a', 'intl', 'zh', 'char', 'none'\), got 'moses'"),
    (lambda: bleu_from_stats(SMOOTH_STATS, lowercase="yes"), TypeError, "lowercase must be True or False"),
    (lambda: bleu_from_stats(SMOOTH_STATS, nltk_totals=None), TypeError, "nltk_totals must be True or False"),
    (lambda: bleu_from_stats(SMOOTH_STATS, weights=[1, 1]), ValueError, "weights has 2 entries but max_order is 4"),
    (lambda: sentence_bleu("a", ["a"], lowercase="no"), TypeError, "lowercase must be True or False, got 'no'"),
    (lambda: sentence_bleu("a", ["a"], effective_order=None), TypeError, "effective_order must be True or False"),
    (lambda: corpus_stats(["a"], [["a"]], lowercase=None), TypeError, "lowercase must be True or False"),
    (lambda: corpus_stats(["a"], [["a"]], nltk_totals="yes"), TypeError, "nltk_totals must be True or False"),
    (lambda: ngram_matches("a", ["a"], lowercase=1.5), TypeError, "lowercase must be True or False"),
    (lambda: sentence_bleu("a", ["a"], tokenize="pretokenized"), ValueError, "tokenize must be one of"),
    (lambda: BleuSettings(max_order=0), ValueError,
     r"max_order must be between 1 and 1000 \(BLEU's standard is 4\), got 0"),
    (lambda: BleuSettings(smooth_method="exp", smooth_value=1), ValueError, "smooth_value is only used by"),
    (lambda: BleuSettings(4), TypeError, "positional"),
    (lambda: BleuSignature(1), TypeError, "positional"),
    (lambda: BleuSignature(version="9.9"), TypeError, "version"),
    (lambda: brevity_penalty(-1, 2), ValueError, "lengths must be >= 0"),
])
def test_bad_input_is_named_in_the_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_an_empty_hypothesis_scores_zero_without_an_exception():
    for hypothesis in ("", [], "   "):
        result = sentence_bleu(hypothesis, [["a", "b"]] if hypothesis == [] else ["a b"], smooth_method="exp")
        assert (result.score, result.brevity_penalty, result.stats.hyp_len) == (0.0, 0.0, 0)
    assert corpus_bleu([[], ["a"]], [[["a"]], [["a"]]], max_order=1).score == pytest.approx(math.exp(1 - 2))


# ------------------------------------------------------------ properties ----

sentences = st.lists(st.sampled_from("abcde"), max_size=12)
reference_lists = st.lists(sentences, min_size=1, max_size=3)
methods = st.sampled_from(sorted(bleu.SMOOTHING_DEFAULTS))


@settings(max_examples=80, deadline=None, database=None)
@given(sentences, reference_lists, st.integers(1, 4), methods, st.booleans())
def test_score_is_between_0_and_1_and_ignores_reference_order(hyp, refs, max_order, method, effective):
    options = dict(max_order=max_order, smooth_method=method, effective_order=effective)
    result = sentence_bleu(hyp, refs, **options)
    assert 0.0 <= result.score <= 1.0
    assert sentence_bleu(hyp, refs[::-1], **options).score == pytest.approx(result.score, rel=1e-12)
    assert result.score == corpus_bleu([hyp], [refs], **options).score


@settings(max_examples=50, deadline=None, database=None)
@given(st.lists(st.tuples(sentences, reference_lists), min_size=1, max_size=4), st.integers(1, 4))
def test_corpus_stats_are_sums_and_tables_agree(pairs, max_order):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    parts = [sentence_stats(h, r, max_order=max_order) for h, r in pairs]
    assert sum(parts) == corpus_stats(hyps, refs, max_order=max_order)
    rows = ngram_matches(hyps[0], refs[0], max_order=max_order)
    assert tuple(sum(r.clipped_count for r in rows if r.order == n)
                 for n in range(1, max_order + 1)) == parts[0].matches


@settings(max_examples=30, deadline=None, database=None)
@given(st.lists(st.sampled_from("abcde"), min_size=4, max_size=12))
def test_a_hypothesis_equal_to_a_reference_scores_one(tokens):
    assert sentence_bleu(tokens, [tokens, ["z"]]).score == pytest.approx(1.0, rel=1e-15)


# --- edges that mutation testing found unpinned ------------------------------------------


def test_effective_order_is_off_unless_asked():
    # "a b" has no 3- or 4-grams: p_3 = p_4 = 0/0 count as 0 by default, as sacrebleu's corpus BLEU
    assert corpus_bleu(["a b"], [["a b"]]).score == 0.0
    assert corpus_bleu(["a b"], [["a b"]], effective_order=True).score == 1.0
    assert "eff:no" in str(corpus_bleu(["a b"], [["a b"]]).signature)


def test_chinese_as_one_unspaced_string_is_split_into_characters_by_zh():
    result = sentence_bleu("我们是学生", ["他们是学生"], tokenize="zh")
    assert (result.stats.hyp_len, result.stats.ref_len) == (5, 5)  # five characters each
    assert [round(p, 4) for p in result.precisions] == [0.8, 0.75, 0.6667, 0.5]
    assert result.score == pytest.approx(0.6687403, abs=1e-7)  # sacrebleu: 66.87403049764218
    assert sentence_bleu("我们是学生", ["我们是学生"], tokenize="zh").score == 1.0


@pytest.mark.parametrize("weights, message", [([math.inf, 0, 0, 0], "^weights contains an infinite value$"),
                                              ([0.25, 0.25, 0.25, math.nan], "^weights contains NaN$"),
                                              ([0.5, 0.5, -0.25, 0.25], r"^weights has negative weights: \[-0.25\]$")])
def test_weights_must_be_finite_and_non_negative(weights, message):
    with pytest.raises(ValueError, match=message):
        corpus_bleu(["a b"], [["a b"]], weights=weights)


@pytest.mark.parametrize("weights", [{"a": 1, "b": 1, "c": 1, "d": 1}, {1, 2, 3, 4}, 0.25, np.float64(0.25), int])
def test_weights_that_are_no_sequence_are_refused(weights):
    with pytest.raises(TypeError, match="^weights must be 'uniform', 'halving' or a sequence of numbers, got "):
        corpus_bleu(["a b"], [["a b"]], weights=weights)


@pytest.mark.parametrize("matches, totals", [((1, 2), (3,)), ((), ()), ((1,), (2, 3))])
def test_statistics_need_one_match_count_per_total(matches, totals):
    with pytest.raises(ValueError, match="matches and totals need one entry per order"):
        BleuStats(matches, totals, 1, 1)


@pytest.mark.parametrize("value, error, message", [(-1, ValueError, "^smooth_value must be at least 0, got -1$"),
                                                   (math.nan, ValueError, "^smooth_value must be a finite number"),
                                                   (math.inf, ValueError, "^smooth_value must be a finite number"),
                                                   ("x", TypeError, "^smooth_value must be a number, got str$"),
                                                   (True, TypeError, "^smooth_value must be a number, got bool$")])
def test_smooth_value_must_be_a_finite_non_negative_number(value, error, message):
    with pytest.raises(error, match=message):
        sentence_bleu("a b", ["a b"], smooth_method="floor", smooth_value=value)


# --- edges the mutation run of issue 24 found unpinned -------------------------------------

def test_unspaced_chinese_warning_points_at_the_caller_s_line_and_names_the_first_such_text():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        bleu_tokens("我们是学生")
        corpus_bleu(["我们是学生"], [["他们是学生"]])
        corpus_stats(["a b", "我们是学生"], [["a b"], ["a b"]])
        sentence_bleu("我们是学生", ["他们是学生"])
        sentence_stats("我们是学生", ["他们是学生"])
        ngram_matches("我们是学生", ["他们是学生"])
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line + i) for i in range(6)]
    assert [str(w.message).split(" has ")[0] for w in caught] == ["'我们是学生'"] * 6


def test_stats_and_table_defaults_are_order_4_13a_mixed_case_sacrebleu_totals():
    # "The" vs "the" matters unless lowercased; 3 tokens: 1 four-gram with nltk_totals, 0 without
    hyp, refs = "The cat sat", ["the cat sat on"]
    explicit = dict(max_order=4, tokenize="13a", lowercase=False)
    assert sentence_stats(hyp, refs) == sentence_stats(hyp, refs, **explicit, nltk_totals=False) == \
        BleuStats((2, 1, 0, 0), (3, 2, 1, 0), 3, 4)
    assert corpus_stats([hyp], [refs]) == corpus_stats([hyp], [refs], **explicit, nltk_totals=False)
    five = "The cat sat on the mat."
    table = ngram_matches(five, ["the cat sat on the mat ."])
    assert table == ngram_matches(five, ["the cat sat on the mat ."], **explicit)
    assert max(row.order for row in table) == 4
    assert table[0] == NgramRow(1, ("The",), 1, (0,), 0, None)


def test_score_defaults_are_order_4_13a_mixed_case_no_smoothing_no_effective_order_sacrebleu_totals():
    hyp, refs = "The cat sat", ["the cat sat on"]
    explicit = dict(max_order=4, weights=None, smooth_method="none", smooth_value=None, effective_order=False,
                    tokenize="13a", lowercase=False, nltk_totals=False)
    assert sentence_bleu(hyp, refs) == sentence_bleu(hyp, refs, **explicit)
    assert corpus_bleu([hyp], [refs]) == corpus_bleu([hyp], [refs], **explicit)
    stats = BleuStats((2, 1, 0, 0), (3, 2, 1, 0), 3, 4)
    assert bleu_from_stats(stats) == bleu_from_stats(stats, weights=None, smooth_method="none", smooth_value=None,
                                                     effective_order=False, nrefs=1, tokenize="13a",
                                                     lowercase=False, nltk_totals=False)


def test_brevity_penalty_is_0_for_an_empty_hypothesis_and_1_when_lengths_are_equal():
    assert brevity_penalty(0, 0) == 0.0
    assert brevity_penalty(0, 3) == 0.0
    assert brevity_penalty(3, 3) == 1.0
    assert brevity_penalty(4, 3) == 1.0


def test_nltk_totals_count_at_least_one_ngram_per_order_and_sentence():
    assert sentence_stats("a b c", ["a b d"], nltk_totals=True) == BleuStats((2, 1, 0, 0), (3, 2, 1, 1), 3, 3)
    assert corpus_stats([[], ["a"]], [[["a"]], [["a"]]], max_order=2, nltk_totals=True) == \
        BleuStats((0 + 1, 0), (1 + 1, 1 + 1), 1, 2)


def test_totals_of_higher_orders_are_kept_after_an_order_without_matches():
    # no bigram match: the 3- and 4-gram totals still count
    assert sentence_stats("a b c d e", ["a x c x e"]) == BleuStats((3, 0, 0, 0), (5, 4, 3, 2), 5, 5)


def test_without_a_unigram_match_no_weight_is_applied():
    assert sentence_bleu(["a"], [["b"]], max_order=1).weights == (0.0,)
    assert sentence_bleu(["a"], [["b"]], effective_order=True).weights == (0.0, 0.0, 0.0, 0.0)


def test_effective_order_with_zero_weight_on_every_kept_order_scores_zero():
    result = sentence_bleu(["a"], [["a"]], max_order=2, weights=[0, 1], effective_order=True)
    assert (result.score, result.precisions, result.weights) == (0.0, (1.0, 0.0), (0.0, 0.0))


def test_an_order_of_weight_zero_does_not_zero_the_score():
    result = sentence_bleu("a b c d", ["a b x d"], weights=[1, 0, 0, 0])
    assert (result.score, result.weights) == (0.75, (1.0, 0.0, 0.0, 0.0))


def test_exp_smoothing_halves_again_for_each_further_order_without_matches():
    result = sentence_bleu("a b c d e", ["a x c x e"], smooth_method="exp")
    assert result.precisions == (0.6, 1 / (2 * 4), 1 / (4 * 3), 1 / (8 * 2))
    assert result.score == pytest.approx((0.6 * 0.125 / 12 / 16) ** 0.25, rel=1e-12)


def test_statistics_and_results_are_frozen():
    stats = BleuStats((1,), (2,), 2, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.hyp_len = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        sentence_bleu("a b", ["a b"]).score = 0.5


def test_an_empty_hypothesis_and_reference_give_valid_zero_lengths():
    assert sentence_stats([], [[]], max_order=1) == BleuStats((0,), (0,), 0, 0)
    assert BleuStats((0, 0), (0, 0), 0, 0).ref_len == 0


def test_statistics_add_only_to_statistics_and_sum_starts_from_zero():
    stats = BleuStats((1,), (2,), 2, 3)
    assert sum([stats, stats]) == 0 + stats + stats == BleuStats((2,), (4,), 4, 6)
    with pytest.raises(TypeError):
        1 + stats
    with pytest.raises(TypeError):
        stats + (1, 2, 2, 3)


@pytest.mark.parametrize("hyp_len, ref_len", [(-1, 1), (1, -1)])
def test_statistics_reject_either_negative_length(hyp_len, ref_len):
    with pytest.raises(ValueError, match="need lengths >= 0"):
        BleuStats((0,), (1,), hyp_len, ref_len)


def test_references_of_a_hypothesis_must_be_a_list_not_a_set():
    with pytest.raises(TypeError, match=r"references\[0\] must be a list of references for hypotheses\[0\], got set"):
        corpus_bleu(["a b"], [{"a b"}])


# --- odd inputs: the right number or an error that names the argument -------------------------------


@pytest.mark.parametrize("call, error, message", [
    (lambda: BleuStats((1.5,), (2,), 1, 1), ValueError, r"^matches\[0\] must be a whole number \(a count\), got 1\.5$"),
    (lambda: BleuStats((True,), (True,), 1, 1), TypeError, r"^matches\[0\] must be a whole number \(a count\), "
                                                           "got bool True$"),
    (lambda: BleuStats(("1",), (2,), 1, 1), TypeError, r"^matches\[0\] must be a whole number"),  # was a comparison
    (lambda: BleuStats((1,), (2,), "1", 1), TypeError, "^hyp_len must be a whole number"),
    (lambda: BleuStats((1,), (2,), 1.5, 1), ValueError, "^hyp_len must be a whole number"),
    (lambda: BleuStats(1, 2, 1, 1), TypeError, "^matches must be a tuple of counts, one per order, got int$"),
    (lambda: BleuStats((math.nan,), (2,), 1, 1), ValueError, r"^matches\[0\] must be a whole number"),
    (lambda: brevity_penalty("1", 2), TypeError, "^hyp_len must be a whole number"),
    (lambda: brevity_penalty(math.nan, 2), ValueError, "^hyp_len must be a whole number"),  # was nan
    (lambda: brevity_penalty(1.5, 2), ValueError, "^hyp_len must be a whole number"),
    (lambda: references_from_streams(["ab", "cd"]), TypeError,
     r"^streams\[0\] must be a list of references \(str or None\), one per hypothesis, got str$"),  # was 'a', 'b'
    (lambda: references_from_streams([["a", 5]]), TypeError, r"^streams\[0\]\[1\] must be a reference"),
    (lambda: corpus_bleu(["a"], [["a"]], max_order=10**9), ValueError,
     r"^max_order must be between 1 and 1000 \(BLEU's standard is 4\), got 1000000000$"),  # was a hang
    (lambda: BleuSettings(max_order=1001), ValueError, "max_order must be between 1 and 1000"),
])
def test_odd_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_odd_input_with_a_right_number():
    assert BleuStats((1.0,), (np.int64(2),), 2.0, 2) == BleuStats((1,), (2,), 2, 2)  # whole counts are counts
    assert brevity_penalty(1, 10**400) == 0.0  # was an OverflowError
    assert brevity_penalty(np.int64(2), 6) == pytest.approx(math.exp(-2))
    # a high max order: every order longer than the sentences has no n-gram; quick, and right
    assert corpus_bleu(["a b"], [["a b"]], max_order=1000).score == 0.0
    assert corpus_bleu(["a b"], [["a b"]], max_order=1000, effective_order=True).score == 1.0
    stats = sentence_stats("a b c", ["a b d"], max_order=1000, nltk_totals=True)
    assert stats.totals[:4] == (3, 2, 1, 1) and set(stats.totals[3:]) == {1} and len(stats.totals) == 1000


def test_settings_too_large_for_a_float_are_refused_by_name():
    # 10**400 passed the range check (an int compares with inf) and failed in float(): OverflowError
    with pytest.raises(ValueError, match="^smooth_value must be a finite number, got 1000"):
        corpus_bleu(["a b"], [["a b"]], smooth_method="floor", smooth_value=10**400)
    with pytest.raises(ValueError, match=r"^weights contains an infinite value$"):
        corpus_bleu(["a b"], [["a b"]], max_order=2, weights=[10**400, 1])


def test_a_smoothing_method_that_is_no_str_is_named():
    with pytest.raises(ValueError, match=r"^smooth_method must be one of \(.*\), got \['exp'\]$"):
        sentence_bleu("a b", ["a b"], smooth_method=["exp"])  # was TypeError: unhashable type: 'list'
