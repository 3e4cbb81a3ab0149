"""Chapter 7's self-checks: right answers at the stated precision pass (boundary included), counts only
as the whole number, and the typical wrong answers get the hint that names their mistake."""

import math

import pytest

from lmcore import exercises as ex
from lmcore.exercises.feedback import half_unit

# (checker, expected, significant digits the notebook asks for)
NUMERIC = [
    (ex.check_bits_per_character_from_perplexity, math.log2(40) * 10_000 / 42_000, 3),
    (ex.check_full_context_share, 2 / 12, 3),
]
COUNTS = [(ex.check_parameter_count, 13_284), (ex.check_forward_passes, 37)]
CHOICES = [(ex.check_which_predicts_better, "A", "BC"), (ex.check_contaminated_test, "B", "AC")]


@pytest.mark.parametrize("check, expected, digits", NUMERIC, ids=lambda x: getattr(x, "__name__", str(x)))
def test_any_answer_at_the_stated_precision_passes_and_no_wider(check, expected, digits):
    tolerance = half_unit(expected, digits)
    assert check(expected).correct and check(float(f"{expected:.{digits}g}")).correct
    assert check(str(float(f"{expected:.{digits}g}"))).correct
    assert check(expected + 0.99 * tolerance).correct and check(expected - 0.99 * tolerance).correct
    assert not check(expected + 1.01 * tolerance).correct and not check(expected - 1.01 * tolerance).correct
    assert check(None).correct is None


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
