"""The language-model protocol (lmcore.lm): every model kind answers it alike, and every tool
that measures models (evaluate, the Shannon game, the coder) takes any of them."""

import math
import re

import numpy as np
import pytest

from lmcore import coding, evaluate, shannon
from lmcore.lm import LanguageModel, NotFittedError, TokenScores, check_language_model, context_rows
from lmcore.neural import NeuralLM, TrainingConfig, train
from lmcore.ngram import MLE, AddK, Interpolated, KneserNey, read_arpa, write_arpa
from lmcore.text import TOY_TEST, TOY_TRAIN, Vocabulary

TRAIN = [list(s) for s in TOY_TRAIN]
TEST = [list(s) for s in TOY_TEST]


def neural_model():
    model = NeuralLM(Vocabulary.build(TRAIN), context_size=2, dim=4, hidden=8, seed=0)
    train(model, TRAIN, config=TrainingConfig(epochs=30, batch_size=13, learning_rate=0.05, decay=1.0))
    return model


def arpa_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("arpa") / "toy.arpa"
    write_arpa(KneserNey(3).fit(TRAIN), path)
    return read_arpa(path)


MODELS = {
    "MLE": lambda _: MLE(2).fit(TRAIN),
    "AddK": lambda _: AddK(3, k=0.5).fit(TRAIN),
    "Interpolated": lambda _: Interpolated(3, lambdas=[0.2, 0.3, 0.5]).fit(TRAIN),
    "Interpolated of add-k": lambda _: Interpolated([AddK(1), AddK(2, k=0.1)], lambdas=[0.4, 0.6]).fit(TRAIN),
    "KneserNey": lambda _: KneserNey(3).fit(TRAIN),
    "ArpaModel": arpa_model,
    "NeuralLM": lambda _: neural_model(),
}


@pytest.fixture(params=sorted(MODELS), scope="module")
def model(request, tmp_path_factory):
    return MODELS[request.param](tmp_path_factory)


def test_every_model_is_a_language_model_with_the_same_answers(model):
    assert isinstance(model, LanguageModel) and check_language_model(model) is model
    context = ["<s>"] * model.context_length if model.context_length else []
    probs = model.distribution(context[-model.context_length:] if model.context_length else [])
    assert probs.shape == model.outcome_ids.shape and probs.sum() == pytest.approx(1.0, abs=1e-6)
    ranked = model.next_word_distribution(context)
    assert list(ranked.values()) == sorted(ranked.values(), reverse=True)
    for word, p in zip(model.outcomes, probs):
        # 1e-5: the neural model computes in float32, a row alone and in a batch a little apart
        assert model.prob(word, context) == pytest.approx(p, rel=1e-5)
        assert ranked[word] == p
    assert "<s>" not in model.outcomes and model.prob("<s>", context) == 0.0
    assert model.sentence_padding[1] == 1


def test_a_token_stream_is_scored_token_by_token_as_prob_says(model):
    n_start, _ = model.sentence_padding
    expected = []
    for sentence in TEST:
        padded = ["<s>"] * n_start + sentence + ["</s>"]
        for i in range(n_start, len(padded)):
            context = padded[max(0, i - model.context_length):i] if model.context_length else []
            expected.append(model.logprob(padded[i], context))
    assert model.token_logprobs(TEST) == pytest.approx(expected, rel=1e-6)
    result = evaluate.evaluate(model, TEST)
    assert result.perplexity == pytest.approx(math.exp(-np.mean(expected)), rel=1e-6)


def test_context_rows_put_the_context_before_each_target_and_sentence_starts_before_it(model):
    targets = model.outcome_ids[:3]
    grams, lengths = context_rows(model, ["i"], targets)
    assert grams.shape == (3, model.context_length + 1) and (grams[:, -1] == targets).all()
    assert (grams[:, -2] == model.vocab.id("i")).all() and (lengths == 1).all()
    assert (grams[:, :-2] == model.vocab.id("<s>")).all()


def test_a_context_longer_than_the_model_reads_is_refused_or_cut_as_the_model_says(model):
    long = ["i", "spent", "three", "years"]
    if model.keeps_last_tokens:
        assert model.prob("years", long) == model.prob("years", long[-model.context_length:])
    else:
        with pytest.raises(ValueError, match="has 4 tokens"):
            model.prob("years", long)


def test_the_shannon_game_plays_against_the_neural_model():
    neural, bigram = neural_model(), AddK(2).fit(TRAIN)
    steps = shannon.play(["i", "spent", "money"], ["i", None, "time"], {"neural": neural, "bigram": bigram},
                         n_guesses=3)
    for step, token, context in zip(steps, ["i", "spent", "money"], [["<s>", "<s>"], ["<s>", "i"], ["i", "spent"]]):
        prediction = next(p for p in step.predictions if p.name == "neural")
        assert prediction.prob == pytest.approx(neural.prob(token, context), rel=1e-5)
        assert prediction.rank == 1 + sum(p > prediction.prob for p in neural.distribution(context))
    profile = shannon.context_profile([bigram, neural], TEST)
    assert profile.context_lengths == (1, 2)


def test_the_coder_codes_text_losslessly_with_the_neural_model():
    neural = neural_model()
    coded = coding.encode(neural, TEST, method="dense")
    assert coding.decode(coded.data, neural, method="dense") == TEST
    surprisal = -neural.token_logprobs(TEST).sum() / math.log(2)
    assert coded.surprisal_bits == pytest.approx(surprisal, rel=1e-6)
    with pytest.raises(TypeError, match="method='backoff' needs a model's training counts"):
        coding.encode(neural, TEST, method="backoff")


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.prob(3), TypeError, "word must be a str, got int"),
    (lambda m: m.prob("i", "i"), TypeError, "context must be a sequence of tokens (e.g. a list of str), got str"),
    (lambda m: m.distribution(["i", None][-m.context_length:]), TypeError,
     "context must contain only str tokens, got NoneType None"),
    (lambda m: m.next_word_distribution(5), TypeError,
     "context must be a sequence of tokens (e.g. a list of str), got int"),
    (lambda m: m.token_logprobs([["i"], ["spent", 3]]), TypeError,
     "sentences[1] must contain only str tokens, got int 3"),
    (lambda m: shannon.top_guesses(m, "i"), TypeError,
     "context must be a sequence of tokens (e.g. a list of str), got str"),
    (lambda m: shannon.predict(m, [], 3), TypeError, "token must be a str, got int"),
])
def test_every_model_refuses_a_bad_word_or_context_alike(model, call, error, message):
    with pytest.raises(error) as refused:
        call(model)
    assert str(refused.value) == message


def test_what_is_not_a_fitted_language_model_is_named():
    with pytest.raises(TypeError, match="must be a fitted lmcore language model"):
        check_language_model("a model")
    with pytest.raises(NotFittedError, match="KneserNey is not fitted"):
        check_language_model(KneserNey(2))
    with pytest.raises(TypeError, match="must be a fitted lmcore language model"):
        evaluate.evaluate({"not": "a model"}, TEST)


# --- rows of ids and the answers of a model --------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(set(MODELS) - {"NeuralLM"}))  # the neural model reads its whole window
def test_id_probs_refuses_rows_that_would_give_nan_or_read_the_wrong_order(kind, tmp_path_factory):
    model = MODELS[kind](tmp_path_factory)
    width = model.context_length + 1
    grams = np.full((1, width), 3)
    with pytest.raises(TypeError, match="^context_len must be a 1-d array of 1 int .one per row of grams.,"):
        model.id_probs(grams, None)  # MLE and add-k gave nan, the others a TypeError of a comparison
    with pytest.raises(TypeError, match=f"^grams must be an int array of shape \\(N, {width}\\), got float64"):
        model.id_probs(grams.astype(float), np.array([0]))
    with pytest.raises(ValueError, match=f"^context_len must be between 0 and {width - 1}, got {width} .. {width}$"):
        model.id_probs(grams, np.array([width]))  # MLE gave whatever an empty array held
    with pytest.raises(ValueError, match="^grams holds ids outside 0.."):
        model.id_probs(np.full((1, width), -1), np.array([0]))
    assert 0 < model.id_probs(grams, np.array([0]))[0] <= 1


def test_context_rows_names_what_is_no_model_and_targets_that_are_no_ids():
    model = MLE(2).fit(TRAIN)
    with pytest.raises(TypeError, match="^model must be a fitted lmcore language model"):
        context_rows(None, ["i"], model.outcome_ids)  # was AttributeError: 'NoneType' object has no attribute
    with pytest.raises(TypeError, match=r"^targets must be a 1-d array of int ids, got float64 of shape \(1,\)$"):
        context_rows(model, ["i"], np.array([np.nan]))  # was cast to an id, with a RuntimeWarning
    assert context_rows(model, ["i"], [])[0].shape == (0, 2)


class Answers(LanguageModel):
    """A model that keeps the protocol but answers ``value`` for every probability, as a broken one could."""

    context_length, sentence_padding = 1, (1, 1)

    def __init__(self, value):
        self.vocab, self.value = Vocabulary(["i", "spent"]), value
        self.outcome_ids = np.array([0, 2, 3, 4])

    def id_probs(self, grams, context_len):
        return np.full(len(grams), self.value)

    def score_tokens(self, sentences):
        n = sum(len(s) + 1 for s in sentences)
        with np.errstate(invalid="ignore"):
            logprobs = np.full(n, np.log(self.value))
        return TokenScores(logprobs, np.full(n, 3), np.zeros(n, int), np.arange(n), np.zeros(n, bool),
                           np.zeros(n, bool))


@pytest.mark.parametrize("value", [math.nan, 1.5, -0.25])
def test_a_model_that_answers_no_probability_is_refused_by_every_tool(value):
    model = Answers(value)
    calls = {"prob": lambda: model.prob("i"), "distribution": lambda: model.distribution(["i"]),
             "next_word_distribution": lambda: model.next_word_distribution([]),
             "top_guesses": lambda: shannon.top_guesses(model, ["i"]),
             "encode": lambda: coding.encode(model, [["i"]], method="dense"),
             "evaluate": lambda: evaluate.evaluate(model, [["i"]])}
    for name, call in calls.items():  # prob and distribution passed nan or 1.5 on, top_guesses gave (), evaluate nan
        with pytest.raises(ValueError) as refused:
            call()
        assert re.match(r"model Answers gave the (log-)?probability (nan|1\.5|-0\.25|0\.405465) ",
                        str(refused.value)), name
    assert Answers(0.25).prob("i") == 0.25
