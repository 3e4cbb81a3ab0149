"""Chapter 2's self-checks: typical wrong answers get the hint that names their mistake, too few digits
is named first, the 0 · log 0 hint, the data the notebook states. What every chapter's checks share (no
answer yet, the precision band with its boundary) is tested in tests/notebooks/test_exercises.py."""

import math

import numpy as np
import pytest
from exercise_support import half_unit_by_hand

from lmcore import exercises as ex
from lmcore import info
from lmcore.i18n import set_language

NUMERIC = {  # check: (expected, significant digits)
    ex.check_entropy_in_bits: (-(0.7 * math.log2(0.7) + 0.2 * math.log2(0.2) + 0.1 * math.log2(0.1)), 3),
    ex.check_entropy_with_impossible_outcome: (-(0.6 * math.log2(0.6) + 0.3 * math.log2(0.3) + 0.1 * math.log2(0.1)),
                                               3),
    ex.check_average_code_length: (1.9, 3),
    ex.check_markov_entropy_rate: (2 / 3, 3),
    ex.check_miller_madow_correction: (19 / 200 / math.log(2), 3),
}


def test_the_rounded_answers_of_the_reference_answers():
    assert ex.check_entropy_in_bits(1.16).correct
    assert ex.check_entropy_with_impossible_outcome(1.30).correct
    assert ex.check_average_code_length(1.90).correct
    assert ex.check_markov_entropy_rate(0.667).correct
    assert ex.check_miller_madow_correction(0.137).correct
    assert not ex.check_entropy_in_bits(1.15).correct  # 0.0068 away: beyond half a unit of the 3rd digit


@pytest.mark.parametrize("check, answer, words", [
    (ex.check_entropy_in_bits, 0.8018, "natural log"),
    (ex.check_entropy_in_bits, 0.3482, "log10"),
    (ex.check_entropy_in_bits, -1.1568, "minus sign"),
    (ex.check_entropy_in_bits, 2.0530, "without their weights"),
    (ex.check_entropy_in_bits, 1.585, "three equally likely"),
    (ex.check_entropy_in_bits, 6.16, "adding the surprisals"),
    (ex.check_entropy_with_impossible_outcome, 2.0, "four equally likely"),
    (ex.check_entropy_with_impossible_outcome, float("nan"), "0 · log 0 = 0"),
    (ex.check_entropy_with_impossible_outcome, float("inf"), "0 · log 0 = 0"),
    (ex.check_entropy_with_impossible_outcome, 0.8979, "natural log"),
    (ex.check_entropy_with_impossible_outcome, 1.585, "rain (0.1) are not equally likely"),
    (ex.check_average_code_length, 2.25, "without weights"),
    (ex.check_average_code_length, 1.8464, "entropy"),
    (ex.check_average_code_length, 9, "adding the lengths"),
    (ex.check_average_code_length, 2.0, "balanced tree"),
    (ex.check_average_code_length, 2.4, "⌈-log2 p⌉"),
    (ex.check_markov_entropy_rate, 0.5, "averaging the rows"),
    (ex.check_markov_entropy_rate, 0.9183, "stationary distribution"),
    (ex.check_markov_entropy_rate, 1.0, "row a alone"),
    (ex.check_markov_entropy_rate, 0.333, "weights swapped"),
    (ex.check_miller_madow_correction, 0.095, "in nats"),
    (ex.check_miller_madow_correction, 0.1443, "K in place of K - 1"),
    (ex.check_miller_madow_correction, 0.2741, "without the 2"),
    (ex.check_miller_madow_correction, 0.0658, "multiplying by ln 2"),
    (ex.check_average_code_length, 5.0, "is not it"),
    (ex.check_average_code_length, "two", "expected a number"),
])
def test_typical_mistakes_get_their_hint(check, answer, words):
    feedback = check(answer)
    assert feedback.correct is False and words in feedback.message, feedback.message


def test_too_few_digits_is_named_before_a_mistake_with_that_value():
    """The issue: "2" (1.9 to one digit) was told "a balanced tree". Too few digits is the simpler
    explanation, so it comes first, and the balanced tree after it; an answer written with its digits
    (2.00, or the float 2.0, typed with a point) is the balanced tree alone."""
    for answer in (2, "2", " 2 "):
        assert ex.check_average_code_length(answer).message.startswith(
            "Not yet: 2 has too few digits: the exercise asks for 3 significant digits. If that is all your working "
            "gives, it is what you get with 2 bits for every outcome, a balanced tree")
    for answer in (2.0, 2.00, "2.0", "2.00"):
        message = ex.check_average_code_length(answer).message
        assert "balanced tree" in message and "significant digits" not in message, answer
        assert "the lengths 2, 1, 3, 3 for 0.4, 0.3, 0.2, 0.1: both merge a 0.3 with 0.4" in message, answer
    assert ex.check_average_code_length(1.9).correct and ex.check_average_code_length("1.9").correct
    assert ex.check_entropy_in_bits(1).message == "Not yet: 1 is close, but the exercise asks for 3 significant digits."


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_the_answer_with_too_few_digits_is_told_so(check):
    expected, digits = NUMERIC[check]
    for fewer in range(1, digits):
        typed = f"{expected:.{fewer}g}"  # as a student writes it: "2" for 1.9 to one digit
        if abs(float(typed) - expected) <= half_unit_by_hand(expected, digits):  # rounding to fewer digits lost nothing
            continue
        for short in (typed, int(float(typed)) if float(typed).is_integer() else float(typed)):
            feedback = check(short)
            assert feedback.correct is False and "significant digits" in feedback.message, (short, feedback)


@pytest.mark.parametrize("answer, correct, words", [
    ("B", True, "stationary but not ergodic"),
    (" b ", True, "one die"),
    ("A", False, "average over many samples"),
    ("C", False, "all 6s"),
    ("D", False, "settles"),
    ("E", False, "answer one of"),
])
def test_one_sample_of_a_mixture(answer, correct, words):
    feedback = ex.check_one_sample_of_a_mixture(answer)
    assert feedback.correct is correct and words in feedback.message


def test_exercise_data_is_what_the_notebook_states():
    assert ex.ENTROPY_EXERCISE_P == (0.7, 0.2, 0.1)
    assert ex.ZERO_EXERCISE_P == {"sun": 0.6, "clouds": 0.3, "rain": 0.1, "snow": 0.0}
    assert ex.CODE_EXERCISE == {"p": (0.4, 0.3, 0.2, 0.1), "code": ("0", "10", "110", "111")}
    assert ex.MARKOV_EXERCISE_TRANSITION == ((0.5, 0.5), (1.0, 0.0))
    assert ex.MILLER_MADOW_EXERCISE == {"tokens n": 100, "types K": 20}


def test_the_code_exercises_reference_answer_is_the_huffman_code_built_by_hand():
    """Exercise 3 asks for the Huffman code by hand: the merges 0.1 + 0.2, 0.3 + 0.3, 0.6 + 0.4
    give the code word lengths the checker's expected length comes from, as lmcore builds them."""
    p, code = ex.CODE_EXERCISE["p"], ex.CODE_EXERCISE["code"]
    # which side of a merge gets the 0 is a free choice: the lengths are what a Huffman code fixes
    assert [len(word) for word in info.huffman_code(p).values()] == [len(word) for word in code]
    assert sum(2.0 ** -len(word) for word in code) == 1.0  # Kraft's sum of a Huffman code: a full tree
    assert info.expected_code_length(p) == pytest.approx(1.9)
    assert ex.check_average_code_length(info.expected_code_length(p)).correct
    assert info.entropy(p) <= 1.9 < info.entropy(p) + 1


# --- the Chinese edition -------------------------------------------------------------------


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_entropy_in_bits, 1.16, "正确：1.1568。"),
    (ex.check_entropy_in_bits, 0.8018,
     "还不对：0.8018 是这样得到的：用了自然对数，得到的是奈特；除以 ln 2 = 0.6931 才是比特（或直接用 log2）。"),
    (ex.check_entropy_with_impossible_outcome, float("nan"),
     "还不对：nan 是 numpy 对 0 · log2(0) 给出的结果；按约定 0 · log 0 = 0（p 趋于 0 时 p log p 趋于 0），"
     "所以不可能的结果对熵没有贡献。"),
    (ex.check_markov_entropy_rate, 0.9183,
     "还不对：0.9183 是这样得到的：用了平稳分布的熵 H(π)，即忽略前一个符号的一元熵；"
     "熵率是*下一个*符号的平均不确定性。"),
    (ex.check_miller_madow_correction, None, "尚未作答：把 None 换成你的答案，再运行这个单元格。"),
    (ex.check_average_code_length, "two", "还不对：这里要填一个数，你填的是 'two'。"),
    (ex.check_average_code_length, 2,
     "还不对：2 的位数不够，题目要求 3 位有效数字。如果你的计算只得到这么多，那么它是这样得到的："
     "让每个结果都是 2 比特，即一棵平衡树；码长为 2、1、3、3（对应 0.4、0.3、0.2、0.1）时也是这个数："
     "两者都把某个 0.3 和 0.4 合并了。0.1 和 0.2 合并成 0.3 之后，概率最小的两个是那两个 0.3，而不是某个 0.3 和 0.4。"),
    (ex.check_markov_entropy_rate, 0.333,
     "还不对：0.333 是这样得到的：把权重弄反了：a 行的权重是 π_a = 2/3，即链处在状态 a 的时间比例；"
     "b 行的权重是 π_b = 1/3。"),
    (ex.check_one_sample_of_a_mixture, "A",
     "还不对：那是对许多条样本的平均；一条样本只会显示一颗骰子。这个信源不是遍历的，"
     "所以 Shannon-McMillan-Breiman 定理不适用。"),
    (ex.check_one_sample_of_a_mixture, " b ",
     "正确：一条样本只来自一颗骰子：均匀骰子的样本稳定在每次 log2 6 = 2.5850 比特，全是 6 的样本稳定在 0。"
     "这个信源是平稳的，但不是遍历的。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message


def test_the_english_verdicts_are_unchanged_after_a_switch():
    set_language("zh")
    set_language("en")
    assert ex.check_entropy_with_impossible_outcome(float("inf")).message == (
        "Not yet: inf is what numpy gives for 0 · log2(0); by convention 0 · log 0 = 0 (p log p goes to 0 as p "
        "goes to 0), so an impossible outcome contributes nothing.")
    assert ex.check_entropy_in_bits(0.3482).message == (
        "Not yet: 0.3482 is what you get with log10: that is in decimal digits (bans); use log2 for bits.")


def test_a_numpy_nan_gets_the_zero_log_zero_hint_and_a_huge_int_does_not():
    hint = "is what numpy gives for 0 · log2(0)"
    assert hint in ex.check_entropy_with_impossible_outcome(np.float32("nan")).message  # was the generic "not it"
    assert hint in ex.check_entropy_in_bits(np.float64("-inf")).message
    feedback = ex.check_entropy_in_bits(10**400)  # was an OverflowError
    assert feedback.correct is False and hint not in feedback.message
