"""Chapter 6's self-checks: the typical wrong answers get their hint, the answers are lmcore BLEU's. What
every chapter's checks share (no answer yet, the precision band with its boundary) is tested in
tests/notebooks/test_exercises.py."""

import math

import pytest

from lmcore import bleu
from lmcore import exercises as ex
from lmcore.i18n import set_language

# (checker, expected, significant digits the notebook asks for)
NUMERIC = [
    (ex.check_clipped_unigram_precision, 3 / 5, 3),
    (ex.check_multi_reference_precision, 4 / 6, 3),
    (ex.check_bleu_with_brevity, math.exp(1 - 10 / 9) * 0.024 ** 0.25, 3),
    (ex.check_corpus_bleu, math.sqrt(0.9 * 0.75), 3),
    (ex.check_bleu_point_difference, 1.5, 2),
]


@pytest.mark.parametrize("check, answer, hint", [
    (ex.check_clipped_unigram_precision, 1.0, "without clipping"),
    (ex.check_clipped_unigram_precision, 0.4, "counting each matching word type once"),
    (ex.check_clipped_unigram_precision, 0.5, "reference's length"),
    (ex.check_clipped_unigram_precision, 0.333, "\"cat\": 2) and dividing by the reference's length"),
    (ex.check_multi_reference_precision, 0.833, "all references together"),
    (ex.check_multi_reference_precision, 1.0, "without clipping"),
    (ex.check_multi_reference_precision, 0.5, "first reference only"),
    (ex.check_bleu_with_brevity, 0.394, "without the brevity penalty"),
    (ex.check_bleu_with_brevity, 0.282, "r = 12"),
    (ex.check_bleu_with_brevity, 0.403, "arithmetic mean"),
    (ex.check_corpus_bleu, 0.75, "averaging the two sentence scores"),
    (ex.check_corpus_bleu, 0.707, "geometric mean of the sentence scores"),
    (ex.check_corpus_bleu, 0.764, "averaging each order's precision over the sentences"),
    (ex.check_corpus_bleu, 0.825, "arithmetic mean of p_1 and p_2"),
    (ex.check_bleu_point_difference, -29.19, "0.31 is 31 BLEU points"),
    (ex.check_bleu_point_difference, 29.19, "0.31 is 31 BLEU points"),
    (ex.check_bleu_point_difference, 0.015, "0-1 scale"),
    (ex.check_bleu_point_difference, -1.5, "X - Y"),
])
def test_typical_mistakes_get_their_hint(check, answer, hint):
    feedback = check(answer)
    assert feedback.correct is False and hint in feedback.message, feedback.message


def test_no_two_exercises_share_an_answer():
    answers = [round(expected, 3) for _, expected, _ in NUMERIC]
    assert len(set(answers)) == len(answers), answers
    assert not ex.check_multi_reference_precision(0.6).correct  # exercise 1's answer is not exercise 2's


@pytest.mark.parametrize("check, data", [(ex.check_clipped_unigram_precision, ex.CLIPPING_EXERCISE),
                                         (ex.check_multi_reference_precision, ex.MULTI_REFERENCE_EXERCISE)])
def test_the_clipping_answers_are_lmcore_bleus_p1(check, data):
    stats = bleu.sentence_stats(data["hypothesis"], data["references"], max_order=1, tokenize="none")
    assert check(stats.matches[0] / stats.totals[0]).correct


@pytest.mark.parametrize("answer, correct", [("C", True), (" c ", True), ("A", False), ("B", False), ("D", False)])
def test_comparable_scores_choice(answer, correct):
    feedback = ex.check_comparable_scores(answer)
    assert feedback.correct is correct and len(feedback.message) > 40


def test_the_exercise_data_are_what_the_notebook_prints():
    assert ex.CLIPPING_EXERCISE["hypothesis"] == "the cat the cat the"
    assert ex.MULTI_REFERENCE_EXERCISE == {"hypothesis": "a a a a b b", "references": ["a b b b", "a a c"]}
    assert ex.BREVITY_EXERCISE == {"precisions": (0.8, 0.5, 0.3, 0.2), "c": 9, "reference_lengths": (10, 12)}
    assert ex.SCALE_EXERCISE["system Y (sacrebleu, 0-100 scale)"] == 29.5
    assert ex.check_clipped_unigram_precision("0.6").correct  # a number typed as text still counts


# --- the Chinese edition -------------------------------------------------------------------


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_clipped_unigram_precision, 0.6, "正确：0.6000。"),
    (ex.check_clipped_unigram_precision, 1.0,
     "还不对：1 是这样得到的：没有截断：“the”被计了 3 次，但参考译文里只有 2 次；“cat”计了 2 次，"
     "参考译文里只有 1 次；每个计数都要以参考译文中的次数为上限截断。"),
    (ex.check_multi_reference_precision, 0.833,
     "还不对：0.833 是这样得到的：以所有参考译文中的次数之和为上限截断（“a”为 3）；"
     "上限应是单条参考译文中的最多次数（2）。"),
    (ex.check_bleu_with_brevity, 0.394,
     "还不对：0.394 是这样得到的：漏掉了简短惩罚：c = 9 比 r = 10 短，所以要乘以 exp(1 - 10/9)。"),
    (ex.check_corpus_bleu, None, "尚未作答：把 None 换成你的答案，再运行这个单元格。"),
    (ex.check_corpus_bleu, 0.764,
     "还不对：0.764 是这样得到的：把每一阶的精确率在两个句子之间取了平均（p_1 = (3/4 + 1)/2，p_2 = (1/3 + 1)/2）；"
     "应该先汇总计数：p_1 = 9/10，p_2 = 6/8。"),
    (ex.check_bleu_point_difference, 1.5, "正确：1.5000。"),
    (ex.check_comparable_scores, "c",
     "正确：只有分词方式（以及参考译文、大小写、平滑……）相同，BLEU 才能相比：签名（signature）正是为此而设。"
     "请用同一种设置给两份输出重新计分，例如 tokenize='zh'。"),
    (ex.check_comparable_scores, "D", "还不对：两个数相差 0.07，远大于舍入误差；但它们本来就不可比较。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message


def test_the_english_verdicts_are_unchanged_after_a_switch():
    set_language("zh")
    set_language("en")
    assert ex.check_bleu_with_brevity(0.394).message == (
        "Not yet: 0.394 is what you get without the brevity penalty: c = 9 is shorter than r = 10, so multiply by "
        "exp(1 - 10/9).")
    assert ex.check_comparable_scores("D").message.startswith("Not yet: the numbers differ by 0.07")
