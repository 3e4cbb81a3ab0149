"""Chapter 7's self-checks: counts only as the whole number, the choices, and the hint that names each
typical mistake. The numeric checks' precision (boundary included) is tested with every chapter's in
tests/notebooks/test_exercises.py."""

import numpy as np
import pytest

from lmcore import exercises as ex
from lmcore.i18n import set_language

COUNTS = [(ex.check_parameter_count, 13_284), (ex.check_forward_passes, 37)]
CHOICES = [(ex.check_which_predicts_better, "A", "BC"), (ex.check_contaminated_test, "B", "AC")]


def test_the_rounded_reference_answers():
    assert ex.check_bits_per_character_from_perplexity(1.27).correct
    assert not ex.check_bits_per_character_from_perplexity(1.26).correct
    assert ex.check_full_context_share(0.167).correct and not ex.check_full_context_share(0.166).correct
    assert "3 significant digits" in ex.check_full_context_share(0.17).message


@pytest.mark.parametrize("check, expected", COUNTS, ids=lambda x: getattr(x, "__name__", str(x)))
def test_a_count_is_right_only_as_itself(check, expected):
    assert check(expected).correct and check(float(expected)).correct and check(str(expected)).correct
    assert not check(expected + 1).correct and not check(expected - 1).correct
    feedback = check(expected + 0.4)
    assert not feedback.correct and "whole number" in feedback.message
    assert check(None).correct is None and not check("many").correct


@pytest.mark.parametrize("check, right, wrong", CHOICES, ids=lambda x: getattr(x, "__name__", str(x)))
def test_choices(check, right, wrong):
    assert check(right).correct and check(f" {right.lower()} ").correct
    for answer in wrong:
        assert check(answer).correct is False
    assert "answer one of" in check("D").message and check(None).correct is None


@pytest.mark.parametrize("check, answer, hint", [
    (ex.check_parameter_count, 13_120, "without the biases"),
    (ex.check_parameter_count, 9_188, "W1 as d x H"),
    (ex.check_parameter_count, 11_684, "without the embedding table"),
    (ex.check_parameter_count, 11_764, "with E as k·d = 80 numbers"),  # x's k·d = 80 in place of |V|·d = 1,600
    (ex.check_parameter_count, 19_684, "one embedding table per context position"),
    (ex.check_bits_per_character_from_perplexity, 0.878, "natural log"),
    (ex.check_bits_per_character_from_perplexity, 5.32, "bits per token"),
    (ex.check_bits_per_character_from_perplexity, 22.4, "ratio round"),
    (ex.check_bits_per_character_from_perplexity, 9.52, "perplexity itself"),
    (ex.check_bits_per_character_from_perplexity, 2.41, "perplexity per character"),
    (ex.check_which_predicts_better, "B", "different units"),
    (ex.check_which_predicts_better, "C", "can be compared"),
    (ex.check_forward_passes, 40, "dividing the text by the stride"),
    (ex.check_forward_passes, 36, "without the first window"),
    (ex.check_forward_passes, 10, "disjoint chunks"),
    (ex.check_forward_passes, 901, "stride of 1"),
    (ex.check_full_context_share, 0.833, "lacks some context"),
    (ex.check_full_context_share, 0.0833, "one short"),
    (ex.check_full_context_share, 0.25, "one too many"),
    (ex.check_full_context_share, 16.7, "percentage"),
    (ex.check_contaminated_test, "A", "fresh text"),
    (ex.check_contaminated_test, "C", "per token"),
])
def test_typical_mistakes_get_their_hint(check, answer, hint):
    feedback = check(answer)
    assert feedback.correct is False and hint in feedback.message, feedback.message


# --- the Chinese edition -------------------------------------------------------------------


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_parameter_count, 13_284, "正确：13284。"),
    (ex.check_parameter_count, 13_120,
     "还不对：13120 是这样得到的：漏掉了偏置：b1 每个隐藏单元一个数（64 个），b2 每个词表条目一个数（100 个）。"),
    (ex.check_parameter_count, 9_188,
     "还不对：9188 是这样得到的：把 W1 当成了 d × H；它要把 k = 5 个词嵌入并排读入，所以是 (k·d) × H = 80 × 64。"),
    (ex.check_parameter_count, 11_684,
     "还不对：11684 是这样得到的：漏掉了词嵌入表 E：100 个条目各有自己的 16 个数，它们也是学出来的参数。"),
    (ex.check_parameter_count, 11_764,
     "还不对：11764 是这样得到的：把 E 算成了 k·d = 80 个数：那是一个上下文的向量 x；词嵌入表 E 为 |V| = 100 个词元"
     "各存 d = 16 个数，共 |V|·d = 1600 个。"),
    (ex.check_forward_passes, 36.5, "还不对：个数应该是整数，你填的是 36.5。"),
    (ex.check_forward_passes, 40,
     "还不对：40 是这样得到的：用文本长度除以了步长；最后一个窗口从 900 开始时就已经到达第 1,000 个词元，"
     "所以窗口的起点是 0、25、……、900。"),
    (ex.check_full_context_share, None, "尚未作答：把 None 换成你的答案，再运行这个单元格。"),
    (ex.check_full_context_share, 0.17, "还不对：0.17 很接近了，但题目要求 3 位有效数字。"),
    (ex.check_which_predicts_better, "C",
     "还不对：它们可以比较：两者描述的是同一段文本，所以把各自的总比特数除以这 5,600 个字符即可："
     "每字符 1.4199 比特对 1.5361 比特。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message


def test_the_english_verdicts_are_unchanged_after_a_switch():
    set_language("zh")
    set_language("en")
    assert ex.check_parameter_count(9_188).message == (
        "Not yet: 9188 is what you get with W1 as d x H; it reads all k = 5 embeddings side by side, so it is "
        "(k·d) x H = 80 x 64.")
    assert ex.check_parameter_count(11_684).message == (
        "Not yet: 11684 is what you get without the embedding table E: each of the 100 entries has its own 16 "
        "numbers, and they are learned too.")
    assert ex.check_forward_passes(36.5).message == "Not yet: a count is a whole number, got 36.5."


def test_each_parameter_count_mistake_is_the_right_count_with_one_block_miscounted():
    v, k, d, h = (ex.PARAMETER_EXERCISE[key] for key in ("vocabulary", "context", "dim", "hidden"))
    blocks = {"E": v * d, "W1": k * d * h, "b1": h, "W2": h * v, "b2": v}
    assert sum(blocks.values()) == 13_284
    assert 13_284 - blocks["E"] + k * d == 11_764  # the embedding table counted as the k·d numbers of x
    assert 13_284 - blocks["E"] == 11_684 and 13_284 - blocks["b1"] - blocks["b2"] == 13_120
    assert 13_284 - blocks["W1"] + d * h == 9_188 and 13_284 + (k - 1) * blocks["E"] == 19_684


def test_a_count_too_large_for_a_float_gets_feedback():
    # math.isfinite(10**400) was an OverflowError; an int is a whole number however large
    feedback = ex.check_parameter_count(10**400)
    assert feedback.correct is False and "1.00000e+400 is not it" in feedback.message
    assert ex.check_forward_passes(np.float32(36.5)).message == "Not yet: a count is a whole number, got 36.5."
    assert ex.check_forward_passes(True).message == "Not yet: expected a number, got True."
