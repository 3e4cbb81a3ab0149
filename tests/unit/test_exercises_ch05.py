"""Chapter 5's Kneser-Ney exercise and its worked numbers: the exercise's formula is lmcore's (with the plain
continuation probability; the default's lowest order by its own formula), right answers at the stated precision
pass, the typical wrong ones get their hint (also the EM step's one-token shares); section 3's worked example
mixes a trigram truly never seen in training."""

from collections import Counter

import numpy as np
import pytest
from exercise_support import assert_feedback

from lmcore import exercises as ex
from lmcore.exercises.feedback import half_unit
from lmcore.i18n import set_language
from lmcore.ngram import MLE, AddK, KneserNey, interpolated_probs
from lmcore.text import TOY_TRAIN

DATA = ex.KNESER_NEY_EXERCISE
EXPECTED = (2 - 0.75) / 25 + 0.75 * 12 / 25 * 40 / 1000  # 0.05 + 0.36 x 0.04
# value of each typical mistake -> words of its hint
KN_MISTAKES = {
    0.05 + 0.04: "without its weight λ(h)",
    0.05 + 0.36 * 500 / 5000: "raw unigram",
    2 / 25 + 0.36 * 0.04: "without subtracting d",
    0.05: "discounted bigram term alone",
    0.05 + 12 / 25 * 0.04: "without d",
    2 / 25: "with the MLE",
}


def kneser_ney_by_hand(sentences, d, history, word, vocab_size):
    """The notebook's hand formula: P_KN(w | h) = max(c(h, w) - d, 0) / c(h) + λ(h) P_1(w), where the
    lowest order P_1 is P_cont discounted alike, its freed mass spread evenly over the |V| outcomes."""
    bigrams = Counter(pair for s in sentences for pair in zip(["<s>", *s], [*s, "</s>"]))
    c_h = sum(n for (h, _), n in bigrams.items() if h == history)
    backoff_weight = d * sum(h == history for h, _ in bigrams) / c_h
    words_before = Counter(w for _, w in bigrams)
    lowest = (max(words_before[word] - d, 0) + d * len(words_before) / vocab_size) / len(bigrams)
    return max(bigrams[history, word] - d, 0) / c_h + backoff_weight * lowest, words_before[word] / len(bigrams)


def test_the_exercise_data_are_what_the_notebook_states():
    assert DATA == {"d": 0.75, "c_h": 25, "types_after_h": 12, "c_hw": 2, "types_before_w": 40, "c_w": 500,
                    "bigram_types": 1000, "tokens": 5000}
    assert EXPECTED == pytest.approx(0.0644, abs=1e-12)  # exact in decimals: no rounding on the way
    assert DATA["c_w"] / DATA["tokens"] > DATA["types_before_w"] / DATA["bigram_types"]  # frequent, few contexts


@pytest.mark.parametrize("answer", [EXPECTED, 0.0644, "0.0644", 0.06444, 0.06436])
def test_any_answer_at_three_significant_digits_passes(answer):
    assert ex.check_kneser_ney_probability(answer).correct


def test_the_precision_band_is_half_a_unit_of_the_third_digit():
    half = half_unit(EXPECTED, 3)
    for sign in (1, -1):
        assert ex.check_kneser_ney_probability(EXPECTED + sign * half * 0.999).correct
        assert not ex.check_kneser_ney_probability(EXPECTED + sign * half * 1.02).correct
    assert "asks for 3 significant digits" in ex.check_kneser_ney_probability(0.064).message
    assert ex.check_kneser_ney_probability(None).correct is None


@pytest.mark.parametrize("value, words", KN_MISTAKES.items())
def test_each_typical_mistake_gets_its_own_hint(value, words):
    for answer in (value, float(f"{value:.3g}")):
        feedback = ex.check_kneser_ney_probability(answer)
        assert feedback.correct is False and words in feedback.message, feedback.message
    assert abs(value - EXPECTED) > 10 * half_unit(EXPECTED, 3)  # far from the right answer's band
    others = [v for v in KN_MISTAKES if v != value]
    assert all(abs(value - v) > half_unit(v, 3) + half_unit(value, 3) for v in others)


@pytest.mark.parametrize("answer, words", [(0.0196, "first token only"), (1.0, "second token only"),
                                           (0.510, "Correct: 0.5098")])
def test_em_step_names_a_single_tokens_share(answer, words):
    assert words in ex.check_em_step(answer).message


def test_add_k_hint_for_0_66_names_early_rounding_too():
    # 980 x round(0.1/150, 2 digits) = 980 x 0.00067 = 0.6566 -> 0.66, the same as 98/148
    message = ex.check_add_k_unseen_mass(0.66).message
    assert "adding k only for the unseen words" in message and "before multiplying by 980" in message


def test_the_hand_formula_is_lmcores_kneser_ney_on_the_toy_corpus():
    model = KneserNey(2, discounts=[0.75, 0.75, 0.75]).fit(TOY_TRAIN)
    p_kn, p_cont = kneser_ney_by_hand(TOY_TRAIN, 0.75, "spent", "three", len(model.outcomes))
    assert len(model.outcomes) == 10  # 8 words, <unk> and </s>
    assert p_cont == pytest.approx(1 / 11)
    assert (1 - 0.75) / 2 + 0.75 * 2 / 2 * p_cont == pytest.approx(0.193182, abs=1e-6)  # with P_cont itself
    assert p_kn == pytest.approx(model.prob("three", ["spent"]), rel=1e-12)
    assert round(p_kn, 4) == 0.1881


@pytest.mark.parametrize("d", [0.3, 0.75, 1.0])
def test_the_hand_formula_is_lmcores_for_every_pair_of_a_small_corpus(d):
    sentences = [s.split() for s in ("a b c a b", "b c c a", "c a b b", "a c")]
    model = KneserNey(2, discounts=[d, d, d]).fit(sentences)
    outcomes = list(model.outcomes)
    for history in ("<s>", "a", "b", "c"):
        for word in outcomes:
            by_hand, _ = kneser_ney_by_hand(sentences, d, history, word, len(outcomes))
            assert by_hand == pytest.approx(model.prob(word, [history]), rel=1e-12), (history, word)
        assert sum(model.prob(w, [history]) for w in outcomes) == pytest.approx(1.0)


def test_kneser_ney_verdicts_read_in_chinese():
    set_language("zh")
    try:
        right = ex.check_kneser_ney_probability(0.0644).message
        wrong = ex.check_kneser_ney_probability(0.086).message
        em = ex.check_em_step(0.0196).message
    finally:
        set_language("en")
    assert right == "正确：0.0644。"
    assert wrong.startswith("还不对：0.086 是这样得到的：把普通的一元概率") and "P_cont(w)" in wrong
    assert em == "还不对：0.0196 是这样得到的：只算了一元模型在第一个词元中的份额；λ1 是它在两个词元中份额的平均值。"


def test_the_exercise_formula_is_lmcores_plain_continuation_on_the_toy_corpus():
    # section 5's hand computation: P_KN(three | spent) = (1 - 0.75)/2 + 0.75 x 2/2 x 1/11 = 0.1932
    model = KneserNey(2, discounts=[0.75, 0.75, 0.75], plain_continuation=True).fit(TOY_TRAIN)
    by_hand = (1 - 0.75) / 2 + 0.75 * 2 / 2 * 1 / 11
    assert model.prob("three", ["spent"]) == pytest.approx(by_hand, rel=1e-12) and round(by_hand, 4) == 0.1932
    assert model.prob("<unk>", ["spent"]) == 0.0  # why lmcore's default discounts P_cont too
    default = KneserNey(2, discounts=[0.75, 0.75, 0.75]).fit(TOY_TRAIN)
    assert round(default.prob("<unk>", ["spent"]), 4) == 0.0460 == round(0.75 * 0.75 * 9 / (11 * 10), 4)


def test_section_3_mixes_a_trigram_never_seen_in_training():
    trigram = MLE(3, convention="course").fit(TOY_TRAIN)
    assert trigram.count("years", ["i", "spent"]) == 0 and trigram.count("spent", ["i"]) == 2
    probs = [AddK(1, k=1, convention="course").fit(TOY_TRAIN).prob("years"),
             AddK(2, k=1, convention="course").fit(TOY_TRAIN).prob("years", ["spent"]),
             trigram.prob("years", ["i", "spent"])]
    assert probs == pytest.approx([2 / 18, 1 / 10, 0.0])
    assert round(float(interpolated_probs([probs], [0.1, 0.3, 0.6])[0]), 6) == 0.041111  # rescued


def test_the_rescued_tokens_sign_slip_is_named():
    message = ex.check_rescued_token_bits(-15.6).message
    assert "-15.6 is what you get" in message and "a positive number of bits" in message


@pytest.mark.parametrize("answer, correct, words", [
    (0.238, True, "Correct: 0.2380"),
    ("0.238", True, "Correct"),
    (0.13, False, "reverse order"),
    (0.18, False, "averaging the three estimates"),
    (0.23, False, "leaving out the unigram term"),
    (0.2, False, "trigram term alone"),
    (0.54, False, "without their weights"),
    (0.3, False, "is not it"),
    ("a quarter", False, "expected a number"),
])
def test_interpolated_probability_recognises_typical_mistakes(answer, correct, words):
    assert_feedback(ex.check_interpolated_probability, answer, correct, words)


def test_interpolated_probability_is_the_weighted_sum_of_the_stated_numbers():
    lambdas, probs = ex.INTERPOLATION_EXERCISE["lambdas"], ex.INTERPOLATION_EXERCISE["probs"]
    assert sum(lambdas) == pytest.approx(1.0)
    assert ex.check_interpolated_probability(sum(w * p for w, p in zip(lambdas, probs))).correct


@pytest.mark.parametrize("answer, correct, words", [
    ("B", True, "the zero comes back"),
    (" b ", True, "λ1 must be > 0"),
    ("A", False, "rescues the word"),
    ("C", False, "a small weight still rescues"),
    ("D", False, "never gives 0"),
    ("E", False, "answer one of A, B, C, D"),
])
def test_rescue_choice(answer, correct, words):
    assert_feedback(ex.check_rescue_choice, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (0.510, True, "Correct: 0.5098"),
    (0.490, False, "for λ2"),
    (0.0075, False, "without dividing"),
    (0.0566, False, "summed λ1 P1"),
    (0.5, False, "leaving λ1 where it started"),
])
def test_em_step(answer, correct, words):
    assert_feedback(ex.check_em_step, answer, correct, words)


def test_em_step_is_lmcores_em_update():
    from lmcore.ngram import fit_interpolation_weights

    probs = np.array(ex.EM_EXERCISE["order_probs"])
    assert ex.EM_EXERCISE["lambdas"] == (0.5, 0.5)  # EM starts from equal weights
    trace = fit_interpolation_weights(probs, max_iterations=1)
    assert ex.check_em_step(trace.lambda_history[1][0]).message.startswith("Correct")


@pytest.mark.parametrize("answer, correct, words", [
    (1 / 1050, True, "Correct: 0.000952"),
    (0.000952, True, "Correct"),
    (0.00095, False, "asks for 3 significant digits"),
    (0, False, "with the MLE"),
    (0.001, False, "without c(h)"),
    (1 / 51, False, "adding 1 to the denominator"),
    (0.02, False, "c(h) alone"),
    (0.5, False, "is not it"),
])
def test_add_one_unseen_bigram_recognises_typical_mistakes(answer, correct, words):
    assert_feedback(ex.check_add_one_unseen_bigram, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (98 / 150, True, "Correct: 0.6533"),
    (0.6533, True, "Correct"),
    (0.65, True, "Correct"),
    (0.7, False, "asks for 2 significant digits"),
    (0.6667, False, "counting all |V| words"),
    (0.9333, False, "k = 1 (add-one)"),
    (0.98, False, "fraction of the vocabulary"),
    (1.96, False, "cannot exceed 1"),
    (0.66, False, "adding k only for the unseen words"),
    (0.1, False, "is not it"),
])
def test_add_k_unseen_mass_recognises_typical_mistakes(answer, correct, words):
    assert_feedback(ex.check_add_k_unseen_mass, answer, correct, words)


def test_add_k_exercise_numbers_give_the_expected_masses():
    c_h, size, seen, k = (ex.ADD_K_EXERCISE[key] for key in ("c_h", "V", "seen_types", "k"))
    # the unseen words' mass plus the seen words' mass (their counts sum to c(h)) is 1
    unseen_mass = k * (size - seen) / (c_h + k * size)
    seen_mass = (c_h + k * seen) / (c_h + k * size)
    assert unseen_mass + seen_mass == pytest.approx(1.0)
    assert ex.check_add_k_unseen_mass(unseen_mass).correct


@pytest.mark.parametrize("answer, correct, words", [
    (15.6, True, "Correct: 15.6096"),
    (10.8, False, "natural log"),
    (4.70, False, "log10"),
    (11.3, False, "unigram estimate alone"),
    (4.32, False, "weight alone"),
    (0.00002, False, "its surprisal"),
    (-15.6, False, "a positive number of bits"),
])
def test_rescued_token_bits(answer, correct, words):
    assert_feedback(ex.check_rescued_token_bits, answer, correct, words)


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_rescue_choice, "E", "还不对：请回答 A, B, C, D 之一。"),
    (ex.check_add_k_unseen_mass, 0.9333, "还不对：0.9333 是这样得到的：用了 k = 1（加一平滑）；这道题加的是 k = 0.1。"),
])
def test_the_verdicts_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message
