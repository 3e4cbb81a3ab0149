import math

import numpy as np
import pytest

from lmcore import evaluate as ev
from lmcore import ngram
from lmcore.lm import LanguageModel, TokenScores
from lmcore.ngram import MLE, AddK, Interpolated
from lmcore.text import Vocabulary

TOY_TRAIN = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
TOY_TEST = ["i spent three years before the mast".split()]


def test_perplexity_is_exp_of_mean_negative_logprob_over_the_corpus():
    model = AddK(2).fit(TOY_TRAIN)
    test = [["i", "spent", "money"], ["before", "the", "mast", "i", "spent", "three", "years"]]
    logprobs = model.token_logprobs(test)
    assert logprobs.shape == (12,)  # 3 + 7 words, one </s> each
    result = ev.evaluate(model, test)
    assert result.n_tokens == 12 and result.n_oov == 0 and result.zero_probability_tokens == ()
    assert result.perplexity == pytest.approx(math.exp(-logprobs.mean()), rel=1e-12)
    assert result.cross_entropy == pytest.approx(-logprobs.mean() / math.log(2), rel=1e-12)
    assert 2**result.cross_entropy == pytest.approx(result.perplexity, rel=1e-12)
    assert result.total_logprob == pytest.approx(logprobs.sum())
    assert ev.perplexity(model, test) == result.perplexity and ev.bits_per_token(model, test) == result.cross_entropy
    # per sentence, and why their mean is not the corpus perplexity
    per_sentence = ev.sentence_perplexities(model, test)
    np.testing.assert_allclose(per_sentence, [math.exp(-logprobs[:4].mean()), math.exp(-logprobs[4:].mean())])
    assert per_sentence.mean() == pytest.approx(5.4201, abs=1e-4)  # not the corpus's 5.5733
    assert result.perplexity == pytest.approx(5.5733, abs=1e-4)


def test_end_of_sentence_conventions():
    model = AddK(2).fit(TOY_TRAIN)
    scores = model.score_tokens(TOY_TEST)
    words, eos = scores.logprobs[~scores.is_eos], scores.logprobs[scores.is_eos]
    assert eos.size == 1 and scores.position[scores.is_eos].tolist() == [7]
    assert ev.evaluate(model, TOY_TEST, eos="count").perplexity == pytest.approx(math.exp(-scores.logprobs.mean()))
    ppl1 = ev.evaluate(model, TOY_TEST, eos="ppl1")  # SRILM: </s> stays in the log-prob, leaves N
    assert ppl1.n_tokens == 7 and ppl1.perplexity == pytest.approx(math.exp(-scores.logprobs.sum() / 7))
    excluded = ev.evaluate(model, TOY_TEST, eos="exclude")
    assert excluded.n_tokens == 7 and excluded.perplexity == pytest.approx(math.exp(-words.mean()))


def test_unknown_word_conventions():
    model = AddK(2).fit(TOY_TRAIN)
    test = [["i", "spent", "gold"]]
    scores = model.score_tokens(test)
    assert scores.is_oov.tolist() == [False, False, True, False]
    p_unk = model.prob("<unk>", ["spent"])
    assert p_unk == pytest.approx(1 / (2 + 10))
    assert scores.logprobs[2] == pytest.approx(math.log(p_unk))
    as_unk = ev.evaluate(model, test)
    assert as_unk.n_oov == 1 and as_unk.n_tokens == 4
    assert as_unk.perplexity == pytest.approx(math.exp(-scores.logprobs.mean()))
    excluded = ev.evaluate(model, test, unknown="exclude")
    assert excluded.n_oov == 1 and excluded.n_tokens == 3
    assert excluded.perplexity == pytest.approx(math.exp(-scores.logprobs[[0, 1, 3]].mean()))
    zero = ev.evaluate(model, test, unknown="zero")
    assert zero.perplexity == math.inf and zero.cross_entropy == math.inf
    assert zero.zero_probability_tokens == ((0, 2, "gold"),)


def test_zero_probability_gives_inf_and_names_the_tokens_never_nan():
    model = MLE(2).fit(TOY_TRAIN)
    test = [["i", "spent", "money"], ["the", "mast"]]
    result = ev.evaluate(model, test)
    assert result.perplexity == math.inf and result.cross_entropy == math.inf
    assert result.zero_probability_tokens == ((1, 0, "the"),)  # "the" never starts a sentence
    closed = AddK(2, convention="course").fit(TOY_TRAIN)  # closed vocabulary: <unk> is no outcome
    result = ev.evaluate(closed, [["i", "spent", "gold"]])
    assert result.perplexity == math.inf and result.zero_probability_tokens == ((0, 2, "gold"),)
    finite = ev.evaluate(closed, [["i", "spent", "gold"]], unknown="exclude")
    assert finite.n_tokens == 2  # P(i) = (2 + 1) / (10 + 8), P(spent | i) = (2 + 1) / (2 + 8)
    assert finite.perplexity == pytest.approx(math.exp(-(math.log(3 / 18) + math.log(3 / 10)) / 2))


def test_interpolated_perplexity_rescores_for_any_lambda():
    model = Interpolated(3).fit(TOY_TRAIN * 3 + [["the", "money"]])
    test = [["i", "spent", "the", "money"], ["before", "i", "spent", "years"]]
    probs = model.order_probs(test)
    for lambdas in ([1, 0, 0], [0.2, 0.3, 0.5], [0.6, 0.4, 0.0]):
        model.lambdas = lambdas
        expected = ev.evaluate(model, test).perplexity
        assert ngram.interpolated_perplexity(probs, lambdas) == pytest.approx(expected, rel=1e-12)
    assert ngram.interpolated_perplexity(probs, [0, 0, 1]) == math.inf  # the trigram MLE alone gives 0 somewhere


def test_interpolated_probs_matches_the_course_example():
    assert ngram.interpolated_probs([[0.111111, 0.2, 0.001]], [0.1, 0.3, 0.6])[0] == pytest.approx(0.0717111)


def test_em_on_a_known_mixture():
    # order 2 explains the first two tokens far better; only order 1 explains the third
    trace = ngram.fit_interpolation_weights([[0.1, 0.9], [0.1, 0.8], [0.2, 0.0]])
    assert trace.converged and trace.n_tokens == 3 and trace.n_skipped == 0
    # the maximum of Σ log(λ P_1 + (1 - λ) P_2) solves 1/λ = 0.8/(0.9 - 0.8λ) + 0.7/(0.8 - 0.7λ): λ = 0.37794
    assert trace.lambdas[0] == pytest.approx(0.37794, abs=0.001)
    precise = ngram.fit_interpolation_weights([[0.1, 0.9], [0.1, 0.8], [0.2, 0.0]], tolerance=1e-10)
    assert precise.lambdas[0] == pytest.approx(0.3779410, abs=1e-7)
    assert trace.perplexities[-1] < trace.perplexities[0]
    assert len(trace.perplexities) == len(trace.lambda_history) == trace.iterations + 1
    skipped = ngram.fit_interpolation_weights([[0.1, 0.9], [0.0, 0.0]])
    assert skipped.n_skipped == 1 and skipped.lambdas[1] > 0.99
    capped = ngram.fit_interpolation_weights([[0.1, 0.9], [0.1, 0.8], [0.2, 0.0]], tolerance=1e-12, max_iterations=3)
    assert capped.iterations == 3 and not capped.converged


def test_bad_input_gets_clear_errors():
    model = AddK(2).fit(TOY_TRAIN)
    with pytest.raises(ValueError, match="unknown must be one of"):
        ev.evaluate(model, TOY_TEST, unknown="skip")
    with pytest.raises(ValueError, match="eos must be one of"):
        ev.evaluate(model, TOY_TEST, eos="yes")
    with pytest.raises(ValueError, match="sentences is empty"):
        ev.evaluate(model, [])
    with pytest.raises(ValueError, match="no tokens left"):
        ev.evaluate(model, [["gold"]], unknown="exclude", eos="exclude")
    with pytest.raises(TypeError, match="fitted lmcore language model"):
        ev.evaluate("model", TOY_TEST)
    with pytest.raises(ValueError, match="one weight per order"):
        ngram.interpolated_perplexity(np.full((4, 3), 0.5), [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to 1.1"):
        ngram.interpolated_perplexity(np.full((4, 2), 0.5), [0.5, 0.6])
    with pytest.raises(ValueError, match=r"lambdas has negative probabilities: \[-0.2\]"):
        ngram.check_lambdas([1.2, -0.2], 2)
    with pytest.raises(ValueError, match=r"lambdas must be one-dimensional, got shape \(\)"):
        ngram.check_lambdas(0.5, 1)
    with pytest.raises(TypeError, match="lambdas must be a sequence, array or dict of probabilities, got str"):
        ngram.check_lambdas("0.5 0.5", 2)
    with pytest.raises(ValueError, match="order_probs contains NaN"):
        ngram.interpolated_perplexity([[0.5, np.nan]], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"order_probs must be two-dimensional, got shape \(2,\)"):
        ngram.interpolated_perplexity([0.5, 0.5], [0.5, 0.5])
    with pytest.raises(TypeError, match="order_probs must contain only numbers"):
        ngram.interpolated_perplexity([["a", "b"]], [0.5, 0.5])
    with pytest.raises(ValueError, match="tolerance"):
        ngram.fit_interpolation_weights([[0.5]], tolerance=0)


def test_a_zero_probability_end_of_sentence_is_named():
    model = MLE(2).fit([["a", "c", "b"]])  # "c" is never followed by </s> in training
    result = ev.evaluate(model, [["a", "c", "b"], ["a", "c"]])
    assert result.perplexity == math.inf
    assert result.zero_probability_tokens == ((1, 2, "</s>"),)  # position len(sentence): the </s>


@pytest.mark.parametrize("probs, words", [
    ([[0.5, 1.5]], r"order_probs has probabilities above 1: \[1.5\]"),
    ([[-0.1, 0.5]], r"order_probs has negative probabilities: \[-0.1\]"),
    ([[0.5, np.inf]], "order_probs contains an infinite value"),
])
def test_order_probabilities_outside_zero_one_are_refused(probs, words):
    with pytest.raises(ValueError, match=f"^{words}$"):
        ngram.fit_interpolation_weights(probs)
    with pytest.raises(ValueError, match=f"^{words}$"):
        ngram.interpolated_probs(probs, [0.5, 0.5])
    assert ngram.check_order_probs([[0.0, 1.0]]).tolist() == [[0.0, 1.0]]  # the bounds themselves are probabilities


def test_em_needs_one_token_some_order_predicts():
    with pytest.raises(ValueError, match="every token has probability 0 under every order"):
        ngram.fit_interpolation_weights([[0.0, 0.0], [0.0, 0.0]])


@pytest.mark.parametrize("tolerance, error, words", [
    (0, ValueError, "tolerance must be strictly between 0 and 1, got 0"),
    (1, ValueError, "tolerance must be strictly between 0 and 1, got 1"),
    (-0.1, ValueError, "tolerance must be strictly between 0 and 1, got -0.1"),
    (1.5, ValueError, "tolerance must be strictly between 0 and 1, got 1.5"),
    (float("nan"), ValueError, "tolerance must be a finite number, got nan"),
    ("0.01", TypeError, "tolerance must be a number, got str"),
    (True, TypeError, "tolerance must be a number, got bool"),
])
def test_em_tolerance_must_be_a_number_strictly_between_zero_and_one(tolerance, error, words):
    with pytest.raises(error) as refused:
        ngram.fit_interpolation_weights([[0.5, 0.5]], tolerance=tolerance)
    assert str(refused.value) == words
    with pytest.raises(error) as refused:
        Interpolated(2).fit(TOY_TRAIN).fit_lambdas(TOY_TEST, tolerance=tolerance)
    assert str(refused.value) == words


@pytest.mark.parametrize("max_iterations, error, words", [
    (0, ValueError, "max_iterations must be at least 1, got 0"),
    (-3, ValueError, "max_iterations must be at least 1, got -3"),
    (2.5, TypeError, "max_iterations must be an int, got float"),
    (True, TypeError, "max_iterations must be an int, got bool"),
    ("10", TypeError, "max_iterations must be an int, got str"),
])
def test_em_max_iterations_must_be_a_positive_integer(max_iterations, error, words):
    with pytest.raises(error) as refused:
        ngram.fit_interpolation_weights([[0.5, 0.5]], max_iterations=max_iterations)
    assert str(refused.value) == words
    assert ngram.fit_interpolation_weights([[0.5, 0.5]], max_iterations=1).iterations == 1
    assert ngram.fit_interpolation_weights([[0.5, 0.5]], max_iterations=np.int64(1)).iterations == 1


class FixedScores(LanguageModel):
    """A stand-in model whose tokens have the given natural-log probabilities."""

    context_length, sentence_padding = 0, (0, 1)

    def __init__(self, logprobs):
        self.logprobs = np.asarray(logprobs, dtype=float)
        self.vocab = Vocabulary(["w"])

    def id_probs(self, grams, context_len):
        raise NotImplementedError

    def score_tokens(self, sentences):
        n = self.logprobs.size
        return TokenScores(self.logprobs, np.full(n, 3), np.zeros(n, int), np.arange(n), np.zeros(n, bool),
                           np.zeros(n, bool))


@pytest.mark.parametrize("nats, expected", [(709.0, math.exp(709.0)), (709.9, math.inf), (750.0, math.inf)])
def test_a_perplexity_beyond_the_largest_float_is_inf_not_an_overflow(nats, expected):
    result = ev.evaluate(FixedScores([-nats]), [["w"]])
    assert result.perplexity == expected and result.cross_entropy == pytest.approx(nats / math.log(2))


def test_a_result_cannot_be_edited():
    result = ev.evaluate(AddK(2).fit(TOY_TRAIN), TOY_TEST)
    with pytest.raises(AttributeError):
        result.perplexity = 1.0


@pytest.mark.parametrize("logprobs, shown", [([-1.0, math.nan], "nan"), ([0.5, -1.0], "0.5")])
def test_a_model_whose_log_probabilities_are_nan_or_above_0_is_refused_with_where(logprobs, shown):
    # gave a NaN perplexity, or one too low, silently
    for call in (ev.evaluate, ev.sentence_perplexities):
        with pytest.raises(ValueError, match=rf"^model FixedScores gave the log-probability {shown} \(not a "
                                             r"log-probability <= 0\) to 1 of 2 tokens, the first at sentences\[0\]"):
            call(FixedScores(logprobs), [["w"]])
    assert ev.evaluate(FixedScores([-math.inf, -1.0]), [["w"]]).perplexity == math.inf  # probability 0: by design


@pytest.mark.parametrize("n, error", [(math.nan, TypeError), (None, TypeError), (0, ValueError)])
def test_order_name_takes_an_order(n, error):
    with pytest.raises(error, match="^n must be"):
        ev.order_name(n)  # was "nan-gram"
