"""Chapter 4's added self-check: bits per character, the unit every tokenization shares."""

import math

import pytest

from lmcore import exercises as ex


def test_the_data_the_chapter_prints():
    assert ex.BITS_PER_CHARACTER_EXERCISE == {"perplexity per token": 512, "tokens N": 1000, "characters": 3000}


def test_unanswered_is_neither_right_nor_wrong():
    assert ex.check_bits_per_character(None).correct is None
    assert "Not answered yet" in str(ex.check_bits_per_character(None))


@pytest.mark.parametrize("answer, correct, words", [
    (3.0, True, "Correct: 3.0000"),
    (3, True, "Correct"),
    ("3.0", True, "Correct"),
    (9.0, False, "bits per token"),
    (8.0, False, "perplexity per character"),
    (round(math.log(512) / 3, 4), False, "natural log"),
    (round(math.log10(512) / 3, 4), False, "log10"),
    (round(512 / 3, 2), False, "perplexities do not add up"),
    (27.0, False, "multiplying"),
    (4.0, False, "is not it"),
    ("three", False, "expected a number"),
])
def test_bits_per_character_recognises_typical_mistakes(answer, correct, words):
    feedback = ex.check_bits_per_character(answer)
    assert feedback.correct is correct and words in feedback.message


def test_the_typical_mistakes_are_distinct_from_the_answer_and_each_other():
    # A hint must never fire for the right answer, and no two hints may claim the same number.
    values = [9.0, 8.0, math.log(512) / 3, math.log10(512) / 3, 512 / 3, 27.0, 3.0]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            assert not math.isclose(a, b, rel_tol=5e-4)
