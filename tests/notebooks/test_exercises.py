"""What every chapter's self-checks share, tested over all of them: no answer is neither right nor wrong, any
answer at the precision the chapter states is right (boundary included), each typical mistake gets its own hint,
a cut-off, double-rounded or early-rounded answer is told so, each numeric exercise states its precision in its
notebook, and every verdict reads in Chinese. A chapter's own checks are tested in
tests/unit/test_exercises_ch0N.py, grade_number and its kin in tests/unit/test_feedback.py."""

import json
import math
import re
from decimal import ROUND_DOWN
from pathlib import Path

import pytest
from exercise_support import cross_entropy_bits, half_unit_by_hand, rounded, rounding_hint_for

from lmcore import exercises as ex
from lmcore.exercises.feedback import round_to
from lmcore.i18n import catalog, set_language

ROOT = Path(__file__).resolve().parents[2]


# --- every chapter ------------------------------------------------------------------------

CHAPTER_3_CHECKS = [
    ex.check_loss_in_bits, ex.check_reverse_cross_entropy, ex.check_below_the_floor,
    ex.check_coded_bits_per_character, ex.check_bits_saved_by_lower_perplexity,
]
CHAPTER_4_CHECKS = [
    ex.check_weighted_branching, ex.check_cross_entropy_bits, ex.check_perplexity_after_gain,
    ex.check_one_surprising_token, ex.check_sentence_perplexity_with_eos, ex.check_corpus_perplexity,
    ex.check_bits_per_character,
]
CHAPTER_5_CHECKS = [
    ex.check_interpolated_probability, ex.check_rescue_choice, ex.check_em_step,
    ex.check_add_one_unseen_bigram, ex.check_add_k_unseen_mass, ex.check_rescued_token_bits,
    ex.check_kneser_ney_probability,
]
CHAPTER_7_CHECKS = [
    ex.check_parameter_count, ex.check_bits_per_character_from_perplexity, ex.check_which_predicts_better,
    ex.check_forward_passes, ex.check_full_context_share, ex.check_contaminated_test,
]
CHECKS = CHAPTER_3_CHECKS + CHAPTER_4_CHECKS + CHAPTER_5_CHECKS + CHAPTER_7_CHECKS
CHAPTER_MODULES = [ex.chapter01, ex.chapter02, ex.chapter03, ex.chapter04, ex.chapter05, ex.chapter06,
                   ex.chapter07]
EVERY_CHECK = [(module, getattr(module, name)) for module in CHAPTER_MODULES for name in module.__all__
               if name.startswith("check_")]
# checks with no place in the numeric table: choices, and counts (right only as the whole number itself,
# tests/unit/test_exercises_ch07.py)
NOT_NUMERIC = (ex.check_rescue_choice, ex.check_below_the_floor, ex.check_which_predicts_better,
               ex.check_contaminated_test, ex.check_parameter_count, ex.check_forward_passes)


# Every numeric exercise: its checker, the exact answer, the precision the chapter states,
# and the values of the typical mistakes it recognises.
NUMERIC = {
    ex.check_loss_in_bits: (3.2 / math.log(2), 3, [3.2 * math.log(2), 3.2, math.exp(3.2), 2**3.2,
                                                   3.2 / math.log10(2)]),
    ex.check_reverse_cross_entropy: (cross_entropy_bits((0.6, 0.4), (0.9, 0.1)), 3, [
        cross_entropy_bits((0.9, 0.1), (0.6, 0.4)), cross_entropy_bits((0.6, 0.4), (0.6, 0.4)),
        cross_entropy_bits((0.9, 0.1), (0.9, 0.1)),
        cross_entropy_bits((0.6, 0.4), (0.9, 0.1)) - cross_entropy_bits((0.6, 0.4), (0.6, 0.4)),
        cross_entropy_bits((0.9, 0.1), (0.6, 0.4)) - cross_entropy_bits((0.9, 0.1), (0.9, 0.1)),
        cross_entropy_bits((0.6, 0.4), (0.9, 0.1)) * math.log(2)]),
    ex.check_coded_bits_per_character: (1.25, 3, [12_500 / 80_000, 80_000 / 12_500, 80_000 / 100_000,
                                                  1.25 * math.log(2)]),
    ex.check_bits_saved_by_lower_perplexity: (math.log2(247 / 200), 3, [
        47, math.log2(47), 47 / 247, math.log(247 / 200), math.log10(247 / 200), -math.log2(247 / 200),
        math.log2(200)]),
    ex.check_weighted_branching: (8.0, 3, [17.0, 1 / (0.25 + 1 / 64), 3.0, math.exp(3)]),
    ex.check_cross_entropy_bits: (-math.log2(0.6 * 0.6 * 0.3 * 0.1) / 4, 3, [
        -math.log(0.0108) / 4, -math.log10(0.0108) / 4, -math.log2(0.0108), -math.log2(0.018) / 3,
        -(0.6 * math.log2(0.6) + 0.3 * math.log2(0.3) + 0.1 * math.log2(0.1)), 0.0108 ** -0.25]),
    ex.check_perplexity_after_gain: (2 ** 5.8465, 3, [2 ** 6.3465 - 0.5, math.exp(5.8465), 2 ** 6.3465 / 2,
                                                      2 ** 6.8465]),
    ex.check_one_surprising_token: (10 ** 1.09, 3, [10.0, 100 / (9.9 + 1e-10), (990 + 1e10) / 100,
                                                    1.09 * math.log(10), 1.09 * math.log2(10)]),
    ex.check_sentence_perplexity_with_eos: (32 ** (1 / 3), 3, [8 ** 0.5, 8 ** (1 / 3), 32 ** 0.5, 32 ** 0.25]),
    ex.check_corpus_perplexity: (40000 ** (1 / 6), 3, [6.0, 20 ** 0.5, (2 * 2 + 4 * 10) / 6, 6 / 1.45]),
    ex.check_bits_per_character: (3.0, 3, [9.0, 8.0, math.log(512) / 3, math.log10(512) / 3, 512 / 3, 27.0]),
    ex.check_interpolated_probability: (0.238, 3, [0.13, 0.18, 0.23, 0.2, 0.54]),
    ex.check_em_step: ((0.005 / 0.255 + 1) / 2, 3, [(0.25 / 0.255 + 0) / 2, 0.0075, 0.015 / 0.265, 0.5,
                                                   0.005 / 0.255, 1.0]),
    ex.check_kneser_ney_probability: ((2 - 0.75) / 25 + 0.75 * 12 / 25 * 40 / 1000, 3, [
        (2 - 0.75) / 25 + 40 / 1000, (2 - 0.75) / 25 + 0.75 * 12 / 25 * 500 / 5000, 2 / 25 + 0.75 * 12 / 25 * 40 / 1000,
        (2 - 0.75) / 25, (2 - 0.75) / 25 + 12 / 25 * 40 / 1000, 2 / 25]),
    ex.check_add_one_unseen_bigram: (1 / 1050, 3, [0.0, 0.001, 1 / 51, 0.02]),
    ex.check_add_k_unseen_mass: (98 / 150, 2, [100 / 150, 980 / 1050, 0.98, 1.96, 98 / 148]),
    ex.check_rescued_token_bits: (-math.log2(2e-5), 3, [-math.log(2e-5), -math.log10(2e-5), -math.log2(0.0004),
                                                        -math.log2(0.05), 2e-5, math.log2(2e-5)]),
    ex.check_bits_per_character_from_perplexity: (math.log2(40) * 10_000 / 42_000, 3, [
        math.log(40) * 10_000 / 42_000, math.log2(40), math.log2(40) * 42_000 / 10_000, 40 * 10_000 / 42_000,
        40 ** (10_000 / 42_000)]),
    ex.check_full_context_share: (2 / 12, 3, [10 / 12, 1 / 12, 3 / 12]),
}


# The numeric exercises of chapters 1, 2 and 6, whose typical mistakes their own test files check
# (tests/unit/test_exercises_ch0N.py): the exact answer and the stated precision.
SHANNON_Q = [0.6, 0.2, 0.1, 0.05, 0.05]
OTHER_NUMERIC = {
    ex.check_olives_surprisal: (-math.log2(0.03), 3),
    ex.check_extra_bits: (math.log2(0.1 / 0.0001), 3),
    ex.check_upper_bound: (-sum(q * math.log2(q) for q in SHANNON_Q), 3),
    ex.check_lower_bound: (sum(i * (a - b) * math.log2(i)
                               for i, (a, b) in enumerate(zip(SHANNON_Q, SHANNON_Q[1:] + [0.0]), start=1)), 3),
    ex.check_uniform_bits: (math.log2(30_000), 3),
    ex.check_entropy_in_bits: (-(0.7 * math.log2(0.7) + 0.2 * math.log2(0.2) + 0.1 * math.log2(0.1)), 3),
    ex.check_entropy_with_impossible_outcome: (-(0.6 * math.log2(0.6) + 0.3 * math.log2(0.3)
                                                 + 0.1 * math.log2(0.1)), 3),
    ex.check_average_code_length: (0.4 * 1 + 0.3 * 2 + 0.2 * 3 + 0.1 * 3, 3),
    ex.check_markov_entropy_rate: (2 / 3, 3),
    ex.check_miller_madow_correction: (19 / 200 / math.log(2), 3),
    ex.check_clipped_unigram_precision: (3 / 5, 3),
    ex.check_multi_reference_precision: (4 / 6, 3),
    ex.check_bleu_with_brevity: ((0.8 * 0.5 * 0.3 * 0.2) ** 0.25 * math.exp(1 - 10 / 9), 3),
    ex.check_corpus_bleu: (math.sqrt(9 / 10 * 6 / 8), 3),
    ex.check_bleu_point_difference: (31 - 29.5, 2),
}
EVERY_NUMERIC = {check: (expected, digits) for check, (expected, digits, _) in NUMERIC.items()} | OTHER_NUMERIC

# What an exercise with intermediate steps gives when each intermediate value is rounded to the
# stated precision before the last step (the checker's ``early_rounded``), where that is wrong.
EARLY_ROUNDED = {
    ex.check_extra_bits: 13.3 - 3.32,  # -log2 0.0001 - (-log2 0.1), each surprisal rounded
    ex.check_loss_in_bits: 3.2 * 1.44,  # 1 / ln 2 rounded
    ex.check_bits_saved_by_lower_perplexity: 7.95 - 7.64,  # log2 247 - log2 200, each rounded
    ex.check_perplexity_after_gain: 2 ** 5.85,  # 6.3465 - 0.5 rounded
    ex.check_sentence_perplexity_with_eos: 2 ** 1.67,  # 5 bits / 3 tokens rounded
    ex.check_corpus_perplexity: 2 ** 2.55,  # log2 40,000 / 6 rounded
    ex.check_bleu_with_brevity: 0.394 * 0.895,  # the geometric mean and BP rounded
}


@pytest.mark.parametrize("check", [check for _, check in EVERY_CHECK], ids=lambda f: f.__name__)
def test_unanswered_is_neither_right_nor_wrong(check):
    feedback = check(None)
    assert feedback.correct is None and "Not answered yet" in feedback.message
    assert "Not answered yet" in str(feedback)


def test_every_numeric_check_is_in_the_table():
    assert {c for c in CHECKS if c not in NOT_NUMERIC} == set(NUMERIC)


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_any_answer_at_the_stated_precision_is_right(check):
    expected, digits = EVERY_NUMERIC[check]
    half = half_unit_by_hand(expected, digits)
    assert check(expected).correct
    assert check(rounded(expected, digits)).correct, rounded(expected, digits)
    assert check(f"{expected:.{digits}g}").correct  # typed as text
    assert check(round(expected, 10)).correct       # more digits than asked
    # the boundary: half a unit of the last asked digit either side is right, a little more is not
    for sign in (1, -1):
        assert check(expected + sign * half).correct, (expected, sign * half)
        assert check(expected + sign * half * 0.999).correct
        assert not check(expected + sign * half * 1.02).correct


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_each_typical_mistake_gets_its_own_hint_at_the_stated_precision(check):
    expected, digits, mistakes = NUMERIC[check]
    hints = set()
    for value in mistakes:
        for answer in (value, rounded(value, digits)):
            feedback = check(answer)
            assert feedback.correct is False and " is what you get " in feedback.message, (value, feedback)
        hints.add(feedback.message.split(" is what you get ")[1])
    assert len(hints) == len(mistakes), "two mistakes share a hint, or one hint shadows another"
    # the right answer, rounded as asked, never falls into a mistake's band
    for value in mistakes:
        assert abs(rounded(expected, digits) - value) > half_unit_by_hand(value, digits)


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_one_digit_short_is_close_and_junk_is_named(check):
    expected, digits, mistakes = NUMERIC[check]
    short = rounded(expected, digits - 1)
    if abs(short - expected) > half_unit_by_hand(expected, digits) and not any(
            abs(short - m) <= half_unit_by_hand(m, digits) for m in mistakes):
        assert f"asks for {digits} significant digits" in check(short).message
    assert "expected a number" in check("about a half").message


def test_every_numeric_exercise_is_in_a_table_with_the_answer_its_checker_computes(monkeypatch):
    numeric = {}
    for module, check in EVERY_CHECK:
        kind, expected, _ = what_it_checks(module, check, monkeypatch)
        if kind == "number" and check not in NOT_NUMERIC:
            numeric[check] = expected
    assert set(numeric) == set(EVERY_NUMERIC)
    for check, expected in numeric.items():
        assert math.isclose(expected, EVERY_NUMERIC[check][0], rel_tol=1e-12), check.__name__


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_the_answer_at_full_and_at_the_stated_precision_is_right(check):
    expected, digits = EVERY_NUMERIC[check]
    assert check(expected).correct and check(round_to(expected, digits)).correct
    assert check(f"{round_to(expected, digits):.{digits}g}").correct


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_a_truncated_answer_is_told_to_round(check):
    expected, digits = EVERY_NUMERIC[check]
    truncated = round_to(expected, digits, ROUND_DOWN)
    if truncated == round_to(expected, digits):  # the next digit is below 5: cutting off is rounding
        assert check(truncated).correct
    else:
        assert rounding_hint_for(check, truncated) in ("truncated", "truncated or early-rounded", "mistake"), truncated


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_a_double_rounded_answer_is_told_to_round_once(check):
    expected, digits = EVERY_NUMERIC[check]
    for extra in (1, 2, 3):
        twice = round_to(round_to(expected, digits + extra), digits)
        if twice == round_to(expected, digits):
            assert check(twice).correct
        else:
            assert rounding_hint_for(check, twice) in ("double-rounded", "mistake"), (extra, twice)


@pytest.mark.parametrize("check", EARLY_ROUNDED, ids=lambda f: f.__name__)
def test_an_answer_from_early_rounded_steps_is_told_to_carry_digits(check):
    expected, digits = EVERY_NUMERIC[check]
    early = round_to(EARLY_ROUNDED[check], digits)
    assert early != round_to(expected, digits), "the early-rounded steps give the right answer: nothing to name"
    assert rounding_hint_for(check, early) in ("early-rounded", "truncated or early-rounded", "double-rounded"), early


def test_the_notebooks_state_each_exercises_precision():
    notebooks = {"03_cross_entropy.ipynb": CHAPTER_3_CHECKS, "04_perplexity.ipynb": CHAPTER_4_CHECKS,
                 "05_smoothing_interpolation.ipynb": CHAPTER_5_CHECKS, "07_neural_models.ipynb": CHAPTER_7_CHECKS}
    for name, checks in notebooks.items():
        cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
        for check in checks:
            at = [i for i, c in enumerate(cells) if f"exercises.{check.__name__}(answer)" in "".join(c["source"])]
            assert len(at) == 1, f"{name} checks {check.__name__} {len(at)} times"
            before = [c for c in cells[:at[0]] if c["cell_type"] == "markdown"][-1]
            if check in NUMERIC:
                assert f"to {NUMERIC[check][1]} significant digits" in "".join(before["source"]), check.__name__


# --- the Chinese edition: every chapter's verdicts in Chinese, the English ones unchanged ------

CJK = re.compile(r"[\u4e00-\u9fff]")


def what_it_checks(module, check, monkeypatch):
    """(kind, expected, {mistake or choice: hint}) of ``check``: what it passes to grade_number or
    grade_choice, caught on the way."""
    seen = []

    def number(answer, expected, *, mistakes=None, **options):
        seen.append(("number", expected, dict(mistakes or {})))
        return ex.grade_number(answer, expected, mistakes=mistakes, **options)

    def choice(answer, expected, *, explanations):
        seen.append(("choice", expected, dict(explanations)))
        return ex.grade_choice(answer, expected, explanations=explanations)

    monkeypatch.setattr(module, "grade_number", number, raising=False)
    monkeypatch.setattr(module, "grade_choice", choice, raising=False)
    check(None)
    monkeypatch.undo()
    (caught,) = seen
    return caught


def test_every_check_of_every_chapter_is_seen():
    assert len(EVERY_CHECK) == 43 and {module for module, _ in EVERY_CHECK} == set(CHAPTER_MODULES)


@pytest.mark.parametrize("module, check", EVERY_CHECK, ids=lambda x: getattr(x, "__name__", "").split(".")[-1])
def test_every_verdict_of_every_chapter_reads_in_chinese_and_the_english_stays(module, check, monkeypatch):
    zh = catalog("zh")
    kind, expected, hints = what_it_checks(module, check, monkeypatch)
    answers = [None, "junk", expected, *hints]
    english = [check(answer).message for answer in answers]
    set_language("zh")
    try:
        chinese = [check(answer) for answer in answers]
    finally:
        set_language("en")
    assert [check(answer).message for answer in answers] == english  # English as it was, after a switch
    assert chinese[0].correct is None and chinese[0].message == zh[english[0]]
    assert chinese[1].correct is False and chinese[1].message.startswith("还不对：")
    for answer, en, verdict in zip(answers[2:], english[2:], chinese[2:]):
        if kind == "choice":
            prefix, zh_prefix = ("Correct: ", "正确：") if answer == expected else ("Not yet: ", "还不对：")
            assert en.startswith(prefix) and verdict.message == zh_prefix + zh[en.removeprefix(prefix)]
        elif answer == expected:
            assert verdict.correct and verdict.message == "正确：" + en.removeprefix("Correct: ")[:-1] + "。"
        elif " is what you get " in en:  # a recognised mistake: its hint, in Chinese
            head, hint = en.removeprefix("Not yet: ").split(" is what you get ", 1)
            shown = head.split(" ", 1)[0]
            opening = "的位数不够" if "has too few digits" in head else "是这样得到的："  # the right value cut short?
            assert verdict.correct is False and verdict.message.startswith(f"还不对：{shown} {opening}")
            chinese_hint = verdict.message.split("是这样得到的：", 1)[1]
            assert CJK.search(chinese_hint) and chinese_hint == zh.get(hint, chinese_hint), (hint, chinese_hint)
            assert not chinese_hint.startswith(("with ", "by ", "without ", "for ", "in ")), chinese_hint
        else:
            pytest.fail(f"{check.__name__}: the mistake {answer!r} is not recognised: {en}")
