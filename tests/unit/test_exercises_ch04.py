"""Chapter 4's self-checks: each expected answer recomputed from the exercise's data by another route,
the data the chapter prints, and the verdicts in Chinese. The precision (boundary included) and the
hints at that precision are tested with every chapter's in tests/notebooks/test_exercises.py."""

import json
import math
from pathlib import Path

import pytest
from exercise_support import assert_feedback

from lmcore import exercises as ex

CHAPTER = Path(__file__).resolve().parents[2] / "notebooks" / "04_perplexity.ipynb"


def printed(notebook: Path) -> str:
    """Everything the stored chapter printed, one string."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return "".join("".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c["outputs"])


# Each exercise's answer by the route its folded reference answer takes, and as the notebook rounds it.
REFERENCE_ANSWERS = [
    (ex.check_weighted_branching, math.sqrt(2 * 32), 8.00),                    # geometric mean of 1/p
    (ex.check_cross_entropy_bits, -math.log2(0.0108) / 4, 1.63),                # log2 of P(A A B C), per word
    (ex.check_perplexity_after_gain, 81.3734 / 2**0.5, 57.5),                   # half a bit divides by √2
    (ex.check_one_surprising_token, 10**1.09, 12.3),                            # 1.09 · log2 10 bits a token
    (ex.check_sentence_perplexity_with_eos, 2 ** (5 / 3), 3.17),                # 5 bits over N = 3 with </s>
    (ex.check_corpus_perplexity, 40_000 ** (1 / 6), 5.85),                      # six tokens pooled
    (ex.check_bits_per_character, 1_000 * 9 / 3_000, 3.00),                     # 9,000 bits over 3,000 characters
]


@pytest.mark.parametrize("check, exact, rounded", REFERENCE_ANSWERS, ids=lambda x: getattr(x, "__name__", str(x)))
def test_the_reference_answers_are_right(check, exact, rounded):
    assert check(exact).correct and check(rounded).correct and check(f"{rounded:.3g}").correct
    assert check(exact).message == check(rounded).message  # "Correct: <the exact value>", whatever was typed
    for off_by_one_unit in (rounded + 10 ** (math.floor(math.log10(rounded)) - 2),
                            rounded - 10 ** (math.floor(math.log10(rounded)) - 2)):
        assert check(off_by_one_unit).correct is False


def test_exercise_3_starts_from_the_cross_entropy_the_chapter_prints():
    bits = ex.BITS_GAIN_EXERCISE["bits per token"]
    assert f"cross-entropy: {bits:.4f} bits per token" in printed(CHAPTER)
    # the exercise also quotes the printed perplexity, 2 to the unrounded bits: 2 ** 6.3465 is 81.3742
    assert "lmcore perplexity = 81.3734" in printed(CHAPTER)
    assert 2**bits == pytest.approx(81.3734, abs=2 ** bits * math.log(2) * 5e-5)


def test_the_exercise_data_are_what_the_chapter_prints():
    shown = printed(CHAPTER)
    for name in ("BRANCHING_EXERCISE", "CROSS_ENTROPY_EXERCISE", "BITS_GAIN_EXERCISE", "SURPRISING_TOKEN_EXERCISE",
                 "EOS_EXERCISE_PROBS", "AGGREGATION_EXERCISE", "BITS_PER_CHARACTER_EXERCISE"):
        assert str(getattr(ex, name)) in shown, name


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_weighted_branching, 8, "正确：8.0000。"),
    (ex.check_weighted_branching, 17,
     "还不对：17 是这样得到的：对概率的倒数（2 和 32）取了平均；困惑度平均的是它们的对数（比特数），然后再变回去："
     "2 ** mean(bits)。"),
    (ex.check_cross_entropy_bits, 6.53,
     "还不对：6.53 是这样得到的：没有除以 N = 4：那是整段文本的信息量，不是每个词的。"),
    (ex.check_sentence_perplexity_with_eos, 2.83,
     "还不对：2.83 是这样得到的：忘了 </s>：它也被预测（P = 0.25）并计数，所以 N = 3。"),
    (ex.check_one_surprising_token, 10.1,
     "还不对：10.1 是这样得到的：取了平均概率（0.099）的倒数；困惑度平均的是比特数（对数概率），不是概率，"
     "那个罕见词元的 33 比特要全额计入。"),
    (ex.check_corpus_perplexity, 6.00,
     "还不对：6 是这样得到的：对两个句子的困惑度取了平均；语料库困惑度把所有词元合在一起算："
     "exp(-总对数概率 / 总词元数)。"),
    (ex.check_corpus_perplexity, 6,  # also 5.85 to one digit: that first
     "还不对：6 的位数不够，题目要求 3 位有效数字。如果你的计算只得到这么多，那么它是这样得到的："
     "对两个句子的困惑度取了平均；语料库困惑度把所有词元合在一起算：exp(-总对数概率 / 总词元数)。"),
    (ex.check_cross_entropy_bits, 1.63, "正确：1.6332。"),
    (ex.check_perplexity_after_gain, 58, "还不对：58 很接近了，但题目要求 3 位有效数字。"),
    (ex.check_bits_per_character, 9,
     "还不对：9 是这样得到的：只算到每词元比特数 log2(512) = 9 就停了；还要把文本的总比特数 N × 9 分摊到各个字符上。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message


# Each exercise's plausible conceptual mistakes, by the route the student takes, and the words of the hint
# that names it (the table in tests/notebooks/test_exercises.py checks that no two share a value at 3 digits).
MISTAKES = [
    # 1: half the tokens at 1/2, half at 1/32
    (ex.check_weighted_branching, (2 + 32) / 2, "averaging the inverse probabilities"),
    (ex.check_weighted_branching, 1 / ((1 / 2 + 1 / 32) / 2), "inverting the mean probability"),
    (ex.check_weighted_branching, (1 + 5) / 2, "stopping at the cross-entropy"),
    # 2: "A A B C" under 0.6, 0.3, 0.1
    (ex.check_cross_entropy_bits, -math.log(0.0108) / 4, "natural log"),
    (ex.check_cross_entropy_bits, -math.log2(0.0108), "without dividing by N"),
    (ex.check_cross_entropy_bits, -math.log2(0.6 * 0.3 * 0.1) / 3, "each word type once"),
    # 3: half a bit less than 6.3465
    (ex.check_perplexity_after_gain, 81.3734 - 0.5, "subtracting the bits from the perplexity"),
    (ex.check_perplexity_after_gain, 81.3734 / 2, "halving the perplexity"),
    (ex.check_perplexity_after_gain, 81.3734 * 2**0.5, "adding the half bit"),
    (ex.check_perplexity_after_gain, math.exp(6.3465 - 0.5), "with e ** (H - 0.5); H is in bits"),
    # 4: 99 tokens at 0.1, one at 1e-10; leaving it out (10.0) and the mean probability (10.1) now differ
    (ex.check_one_surprising_token, 10.0, "leaving the surprising token out"),
    (ex.check_one_surprising_token, 1 / ((99 * 0.1 + 1e-10) / 100), "inverting the mean probability"),
    (ex.check_one_surprising_token, (99 * 10 + 1e10) / 100, "averaging the inverse probabilities"),
    # 5: "the cat" with P = 0.5, 0.25 and P(</s> | cat) = 0.25; each mistake its own value
    (ex.check_sentence_perplexity_with_eos, (0.5 * 0.25) ** (-1 / 2), "forgetting </s>"),
    (ex.check_sentence_perplexity_with_eos, (0.5 * 0.25) ** (-1 / 3), "leaving P(</s> | cat) = 0.25 out"),
    (ex.check_sentence_perplexity_with_eos, (0.5 * 0.25 * 0.25) ** (-1 / 2), "not counting it"),
    (ex.check_sentence_perplexity_with_eos, (0.5 * 0.25 * 0.25) ** (-1 / 4), "counting <s> as well"),
    # 6: sentences of 2 and 4 tokens, perplexities 2 and 10
    (ex.check_corpus_perplexity, (2 + 10) / 2, "averaging the two sentence perplexities"),
    (ex.check_corpus_perplexity, (2 * 2 + 4 * 10) / 6, "weighting the sentence perplexities by their tokens"),
    (ex.check_corpus_perplexity, 6 / (0.5 + 0.5 + 0.1 + 0.2 + 0.1 + 0.05), "inverting the mean probability"),
    # 7 (Going further): 512 per token, 1,000 tokens, 3,000 characters
    (ex.check_bits_per_character, 9, "stopping at bits per token"),
    (ex.check_bits_per_character, 512 / 3, "dividing the perplexity by the characters per token"),
]


@pytest.mark.parametrize("check, answer, words", MISTAKES, ids=lambda x: getattr(x, "__name__", str(x)))
def test_each_plausible_mistake_gets_the_hint_that_names_it(check, answer, words):
    for typed in (answer, float(f"{answer:.3g}")):  # as computed, and as the student rounds it
        feedback = check(typed)
        assert feedback.correct is False and words in feedback.message, (typed, feedback.message)


def test_the_homework_draws_on_the_class_and_exercise_7_on_its_going_further_section():
    homework = [ex.check_weighted_branching, ex.check_cross_entropy_bits, ex.check_perplexity_after_gain,
                ex.check_one_surprising_token, ex.check_sentence_perplexity_with_eos, ex.check_corpus_perplexity]
    for check in homework:
        assert "Draws on section " in check.__doc__, check.__name__
    assert 'section "Going further: words and characters"' in " ".join(ex.check_bits_per_character.__doc__.split())


@pytest.mark.parametrize("answer, correct, words", [
    (8, True, "Correct: 8.0000"),
    ("8.00", True, "Correct"),
    (17, False, "averaging the inverse probabilities"),
    (3.76, False, "inverting the mean probability"),
    (3, False, "cross-entropy in bits"),
    (20.1, False, "raising e"),
    (5, False, "is not it"),
])
def test_weighted_branching(answer, correct, words):
    assert_feedback(ex.check_weighted_branching, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (1.63, True, "Correct: 1.6332"),
    (1.13, False, "natural log"),
    (0.492, False, "log10"),
    (6.53, False, "without dividing by N"),
    (1.93, False, "each word type once"),
    (1.30, False, "entropy of the model"),
    (3.10, False, "perplexity"),
])
def test_cross_entropy_bits(answer, correct, words):
    assert_feedback(ex.check_cross_entropy_bits, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (57.5, True, "Correct"),
    (57.54, True, "Correct"),
    (80.9, False, "subtracting the bits"),
    (346, False, "e ** (H - 0.5)"),
    (40.7, False, "halving"),
    (115, False, "adding the half bit"),
    (57.6, False, "off in the last digit"),  # three digits given: not a question of precision
    (57.73, False, "rounding the intermediate values"),  # 2 ** 5.85, the exponent rounded first
    (57.4, False, "off in the last digit"),
    (58, False, "asks for 3 significant digits"),
    (60, False, "asks for 3 significant digits"),  # 57.5 to one digit
])
def test_perplexity_after_gain(answer, correct, words):
    assert_feedback(ex.check_perplexity_after_gain, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (12.3, True, "Correct: 12.3027"),
    (10, False, "leaving the surprising token out"),
    (10.1, False, "inverting the mean probability"),  # 1 / 0.099: the misconception the exercise targets
    (10.10, False, "inverting the mean probability"),
    (1e8, False, "averaging the inverse probabilities"),
    (2.51, False, "nats"),
    (3.62, False, "bits"),
])
def test_one_surprising_token(answer, correct, words):
    assert_feedback(ex.check_one_surprising_token, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (32 ** (1 / 3), True, "Correct"),
    (8 ** 0.5, False, "forgetting </s>"),
    (2.0, False, "leaving P(</s> | cat) = 0.25 out of the product"),  # N = 3, but only two factors
    (32 ** 0.5, False, "not counting it"),
    (32 ** 0.25, False, "counting <s>"),
])
def test_sentence_perplexity_recognises_a_forgotten_end_marker(answer, correct, words):
    assert_feedback(ex.check_sentence_perplexity_with_eos, round(answer, 4), correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (40000 ** (1 / 6), True, "Correct"),
    (6.0, False, "averaging the two sentence perplexities"),
    (20 ** 0.5, False, "geometric mean"),
    (44 / 6, False, "weighting the sentence perplexities by their tokens"),
    (6 / 1.45, False, "inverting the mean probability"),
])
def test_corpus_perplexity_recognises_a_mean_of_sentence_perplexities(answer, correct, words):
    assert_feedback(ex.check_corpus_perplexity, round(answer, 4), correct, words)


# Bits per character: the unit every tokenization shares.


def test_bits_per_character_data_is_what_the_chapter_prints():
    assert ex.BITS_PER_CHARACTER_EXERCISE == {"perplexity per token": 512, "tokens N": 1000, "characters": 3000}


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
    assert_feedback(ex.check_bits_per_character, answer, correct, words)


def test_bits_per_character_mistakes_are_distinct_from_the_answer_and_each_other():
    # A hint must never fire for the right answer, and no two hints may claim the same number.
    values = [9.0, 8.0, math.log(512) / 3, math.log10(512) / 3, 512 / 3, 27.0, 3.0]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            assert not math.isclose(a, b, rel_tol=5e-4)
