"""Chapter 1's self-checks: the typical wrong answers get the hint that names the mistake, no hint
shadows the answer or another, exercise 1 asks for a number the chapter does not print, the choices and
the verdicts in Chinese. What every chapter's checks share (no answer yet, the precision band with its
boundary) is tested in tests/notebooks/test_exercises.py."""

import json
import math
import re
from pathlib import Path

import pytest

from lmcore import exercises as ex
from lmcore import shannon
from lmcore.i18n import set_language

ROOT = Path(__file__).resolve().parents[2]
CHAPTER_1_CHECKS = [  # exercises 1-5 of "Check yourself", then exercise 6 of Going further
    ex.check_olives_surprisal, ex.check_extra_bits, ex.check_rank_or_probability, ex.check_upper_bound,
    ex.check_uniform_bits, ex.check_lower_bound,
]
Q = [0.6, 0.2, 0.1, 0.05, 0.05]
UPPER = -sum(x * math.log2(x) for x in Q)
LOWER = sum(i * (a - b) * math.log2(i) for i, (a, b) in enumerate(zip(Q, Q[1:] + [0.0]), start=1))
# checker: (exact answer, [(typical mistake, words of its hint)])
NUMERIC = {
    ex.check_olives_surprisal: (-math.log2(0.03), [
        (-math.log(0.03), "natural log"), (-math.log10(0.03), "log10"), (0.03, "probability itself"),
        (1 / 0.03, "inverse probability"), (math.log2(0.03), "sign"), (5.0, "whole halvings")]),
    ex.check_extra_bits: (math.log2(1000), [
        (math.log(1000), "natural log"), (3.0, "log10"), (1000.0, "ratio"), (0.0999, "difference of the probab"),
        (math.log2(1e4) + math.log2(10), "adding"), (math.log2(1e4), "fried rice alone"),
        (4.0, "dividing the two surprisals"), (-math.log2(1000), "the other way round")]),
    ex.check_upper_bound: (UPPER, [
        (UPPER * math.log(2), "natural log"), (LOWER, "lower bound"), (math.log2(5), "equally likely"),
        (-sum(math.log2(x) for x in Q), "without weighing each"), (-UPPER, "sign left out")]),
    ex.check_lower_bound: (LOWER, [
        (LOWER * math.log(2), "natural log"), (UPPER, "upper bound"),
        (sum((a - b) * math.log2(i) for i, (a, b) in enumerate(zip(Q, Q[1:] + [0.0]), start=1)), "factor i"),
        (LOWER - 5 * 0.05 * math.log2(5), "last term"), (-LOWER, "q_{i+1} - q_i in place of")]),
    ex.check_uniform_bits: (math.log2(30_000), [
        (math.log(30_000), "natural log"), (math.log10(30_000), "log10"), (1 / 30_000, "probability of one word"),
        (30_000.0, "perplexity"), (-math.log2(30_000), "sign left out")]),
}


def test_the_exercise_values():
    assert f"{UPPER:.4f}" == "1.6710" and f"{LOWER:.4f}" == "1.0182"
    assert ex.OLIVES_PROBABILITY == 0.03 and f"{-math.log2(0.03):.4f}" == "5.0589"
    assert ex.letter_exercise_frequencies() == Q
    assert ex.chapter01.PIZZA is shannon.PIZZA  # the lecture's pizza example, one dict


MISTAKES = [(check, value, words) for check, (_, mistakes) in NUMERIC.items() for value, words in mistakes]


@pytest.mark.parametrize("check, mistake, words", MISTAKES,
                         ids=lambda x: getattr(x, "__name__", None) or (f"{x:.4g}" if isinstance(x, float) else x))
def test_typical_mistakes_get_their_hint(check, mistake, words):
    for answer in (mistake, float(f"{mistake:.3g}")):
        feedback = check(answer)
        assert feedback.correct is False and words in feedback.message, (answer, feedback.message)


def test_a_number_that_is_no_known_mistake_and_text_that_is_no_number():
    assert "is not it" in ex.check_olives_surprisal(6.0).message
    assert "expected a number" in ex.check_olives_surprisal("five").message


@pytest.mark.parametrize("check", list(NUMERIC), ids=lambda f: f.__name__)
def test_no_hint_shadows_the_right_answer_or_another_hint(check):
    expected, mistakes = NUMERIC[check]
    values = [expected] + [value for value, _ in mistakes]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            assert abs(a - b) > ex.feedback.half_unit(a, 3) + ex.feedback.half_unit(b, 3), (a, b)


def chapter_cells(edition: str) -> list[dict]:
    path = ROOT / "notebooks" / edition / "01_shannon_game.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def on_screen(cell: dict) -> str:
    """What a reader sees of ``cell`` without unfolding an answer: its prose, its code's printouts."""
    if cell["cell_type"] == "markdown":
        return re.sub(r"<details>.*?</details>", "", "".join(cell["source"]), flags=re.DOTALL)
    shown = ["".join(output.get("text", "")) for output in cell.get("outputs", [])]
    shown += ["".join(text) for output in cell.get("outputs", []) for kind, text in output.get("data", {}).items()
              if kind in ("text/plain", "text/html")]
    return "\n".join(shown)


@pytest.mark.parametrize("edition", ["", "zh"], ids=["en", "zh"])
def test_exercise_1_asks_for_a_number_the_chapter_does_not_print(edition):
    # issue 31: exercise 1 asked for 6.64 bits, printed as anchovies' surprisal in section 1
    cells = chapter_cells(edition)
    (at,) = [i for i, cell in enumerate(cells) if "exercises.check_olives_surprisal(answer)" in "".join(cell["source"])]
    question = "".join(cells[at - 1]["source"])
    assert "*olives*" in question and f"{ex.OLIVES_PROBABILITY}" in question
    assert "to 3 significant digits" in question or "保留 3 位有效数字" in question
    answer = -math.log2(ex.OLIVES_PROBABILITY)
    printed = re.compile(rf"(?<![\d.])(?:{re.escape(f'{answer:.3g}')}|{re.escape(f'{answer:.4f}')})(?!\d)")
    shown = [i for i, cell in enumerate(cells) if printed.search(on_screen(cell))]
    assert not shown, f"cells {shown} show the answer {answer:.4f}"
    assert f"{answer:.3g}" in "".join(cells[at + 1]["source"])  # the folded answer states it


@pytest.mark.parametrize("check, answer, correct, words", [
    (ex.check_rank_or_probability, "B", True, "2.32 bits for B"),
    (ex.check_rank_or_probability, " a ", False, "first place is worth nothing"),
    (ex.check_rank_or_probability, "C", False, "rank does not enter the score"),
    (ex.check_rank_or_probability, "D", False, "answer one of A, B, C"),
])
def test_choices(check, answer, correct, words):
    feedback = check(answer)
    assert feedback.correct is correct and words in feedback.message


# --- the Chinese edition -------------------------------------------------------------------


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_olives_surprisal, 3.51,
     "还不对：3.51 是这样得到的：用了自然对数，得到的是奈特；除以 ln 2 = 0.6931 才是比特（或直接用 log2）。"),
    (ex.check_olives_surprisal, 5.0,
     "还不对：5 是这样得到的：只数了整数次减半：1/32 = 0.03125 花 5 比特，"
     "而 0.03 的概率比它略小，所以代价比 5 比特略多；请用 log2，并给出 3 位有效数字。"),
    (ex.check_olives_surprisal, 5.06, "正确：5.06。"),
    (ex.check_olives_surprisal, None, "尚未作答：把 None 换成你的答案，再运行这个单元格。"),
    (ex.check_extra_bits, 3.0, "还不对：3 是这样得到的：用了 log10，数的是十进制位数；要得到比特请用 log2。"),
    (ex.check_lower_bound, 0.438,
     "还不对：0.438 是这样得到的：漏掉了最后一项：q_6 = 0，所以最后一项是 5 (q_5 - 0) log2 5。"),
    (ex.check_uniform_bits, 15.0, "还不对：15 很接近了，但题目要求 3 位有效数字。"),
    (ex.check_extra_bits, 4.0,
     "还不对：4 是这样得到的：把两个惊奇度相除了（13.3 / 3.32 = 4）；“多多少比特”问的是两者之差。"),
    (ex.check_upper_bound, -1.67, "还不对：-1.67 是这样得到的：漏掉了负号：-Σ q_i log2 q_i 永远不会是负数。"),
    (ex.check_uniform_bits, 20.0, "还不对：20 不是答案。请对照上文逐步检查。"),
    (ex.check_rank_or_probability, "b",
     "正确：代价是 -log2 P(真实的词)：B 是 2.32 比特，A 是 4.32 比特。排名是猜测的次数；打分用的是概率。"),
    (ex.check_rank_or_probability, "D", "还不对：请回答 A, B, C 之一。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message


def test_the_english_verdicts_are_unchanged_after_a_switch():
    before = [check(answer).message for check in CHAPTER_1_CHECKS for answer in (None, 1.0, "B")]
    set_language("zh")
    try:
        assert all(check(1.0).message.startswith("还不对：") for check in CHAPTER_1_CHECKS)
    finally:
        set_language("en")
    assert [check(answer).message for check in CHAPTER_1_CHECKS for answer in (None, 1.0, "B")] == before
    assert str(ex.check_olives_surprisal(3.51)) == ("Not yet: 3.51 is what you get with the natural log: that "
                                                    "is nats; divide by ln 2 = 0.6931 for bits (or use log2).")


def test_an_answer_too_large_for_a_float_gets_feedback():
    # an int beyond a float's range was an OverflowError; now it is a wrong answer, shown by its digits
    feedback = ex.check_uniform_bits(10**400)
    assert feedback.correct is False and feedback.message == ("Not yet: 1.00000e+400 is not it. Check each step "
                                                              "against the text above.")
    assert ex.check_olives_surprisal(-10**400).correct is False


def test_a_bool_nan_or_text_is_no_number_answer():
    assert ex.check_lower_bound(True).correct is False
    assert ex.check_olives_surprisal(float("nan")).message == "Not yet: expected a number, got nan."
