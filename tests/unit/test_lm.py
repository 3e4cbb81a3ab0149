"""The language-model protocol (lmcore.lm): every model kind answers it alike, and every tool
that measures models (evaluate, the Shannon game, the coder) takes any of them."""

import dataclasses
import math
import re

import numpy as np
import pytest

from lmcore import coding, evaluate, shannon
from lmcore.lm import (
    LanguageModel,
    NotFittedError,
    TokenScores,
    check_encoded,
    check_language_model,
    check_no_markers,
    context_rows,
    flatten_sentences,
    frame_sentences,
    model_context,
    padded_stream,
)
from lmcore.neural import NeuralLM, TrainingConfig, train
from lmcore.ngram import MLE, AddK, Interpolated, KneserNey, read_arpa, write_arpa
from lmcore.text import BOS_ID, TOY_TEST, TOY_TRAIN, Vocabulary

TRAIN = [list(s) for s in TOY_TRAIN]
TEST = [list(s) for s in TOY_TEST]


def neural_model():
    model = NeuralLM(Vocabulary.build(TRAIN), context_length=2, dim=4, hidden=8, seed=0)
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
        reach = (f"a model of order {model.order} uses at most {model.order - 1}" if hasattr(model, "order")
                 else f"the model reads at most {model.context_length}")
        with pytest.raises(ValueError, match=f"has 4 tokens; {reach}$"):
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


# --- the context after a history --------------------------------------------------------------


def test_model_context_follows_the_convention():
    trigram = MLE(3).fit(TRAIN)
    assert model_context(trigram, []) == ("<s>", "<s>")
    assert model_context(trigram, ["i", "spent", "three"]) == ("spent", "three")
    assert model_context(MLE(1).fit(TRAIN), ["i"]) == ()
    course = MLE(3, convention="course").fit(TRAIN)
    assert model_context(course, []) == () and model_context(course, ["i"]) == ("i",)
    assert model_context(course, ["i", "spent", "money"]) == ("spent", "money")
    assert model_context(trigram, [7, 8, 9], start=BOS_ID) == (8, 9)
    assert model_context(trigram, [7], start=BOS_ID) == (BOS_ID, 7)


def test_model_context_of_the_neural_model_is_its_whole_window():
    model = NeuralLM(Vocabulary.build(TRAIN), context_length=3, dim=2, hidden=2)
    assert model_context(model, ["i"]) == ("<s>", "<s>", "i")
    assert model_context(model, list("abcde")) == ("c", "d", "e")


@pytest.mark.parametrize("call, error, words", [
    (lambda m: model_context(m, "a b"), TypeError, "prefix must be a sequence of tokens"),
    (lambda m: model_context(m, ["a", 3]), TypeError, "prefix"),
    (lambda m: model_context("model", []), TypeError, "fitted lmcore language model"),
    (lambda m: model_context(MLE(2), []), NotFittedError, "not fitted"),
])
def test_model_context_names_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call(MLE(2).fit(TRAIN))


# --- framing sentences ----------------------------------------------------------------------------


def test_frame_sentences_marks_every_end_marker():
    framed = frame_sentences(np.array([3, 4]), np.array([2]), 2, 1, 2)  # <s> a b </s> </s>
    assert framed.is_eos.tolist() == [False, False, True, True] and framed.position.tolist() == [0, 1, 2, 3]
    bare = frame_sentences(np.array([3, 4, 5]), np.array([2, 0, 1]), 2, 0, 0)  # course framing, an empty sentence
    assert bare.grams.tolist() == [[3, 3], [3, 4], [4, 5]] and bare.context_len.tolist() == [0, 1, 0]
    assert bare.sentence_index.tolist() == [0, 0, 2] and not bare.is_eos.any()


@pytest.mark.parametrize("args, error, message", [
    ((None, [2], 2, 1, 1), TypeError, r"^ids must be a 1-d array of integer vocabulary ids, got object of shape \(\)$"),
    (([5.0, np.nan], [2], 2, 1, 1), TypeError, "^ids must be a 1-d array of integer vocabulary ids, got float64"),
    (([5, 6], [np.nan], 2, 1, 1), TypeError, r"^lengths must be a 1-d array of sentence lengths \(integers >= 0\)$"),
    (([5, 6], [3], 2, 1, 1), ValueError, "^lengths add up to 3, but ids holds 2 ids$"),
    (([5, 6], [2], np.nan, 1, 1), TypeError, "^order must be an int, got float$"),
    (([5, 6], [2], 2, None, 1), TypeError, "^n_start must be an int, got NoneType$"),
    (([5, 6], [2], 2, 1, -1), ValueError, "^n_end must be at least 0, got -1$"),
])
def test_frame_sentences_names_what_it_cannot_frame(args, error, message):
    # were int() and ufunc errors, or a NaN id cast to -2147483648 with a RuntimeWarning
    with pytest.raises(error, match=message):
        frame_sentences(*args)


def test_padded_stream_pads_each_sentence_and_counts_depths():
    stream, depth = padded_stream(np.array([5, 6, 7]), np.array([2, 0, 1]), 2, 1)
    assert stream.tolist() == [1, 1, 5, 6, 2, 1, 1, 2, 1, 1, 7, 2] and stream.dtype == np.int32
    assert depth.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 0, 1, 2, 3]
    capped = padded_stream(np.array([5, 6, 7]), np.array([2, 0, 1]), 2, 1, cap=2)[1]
    assert capped.tolist() == [0, 1, 2, 2, 2, 0, 1, 2, 0, 1, 2, 2] and capped.dtype == np.uint8
    bare, depth = padded_stream(np.array([5]), np.array([0, 1, 0]), 0, 0)  # sentences padded to nothing
    assert bare.tolist() == [5] and depth.tolist() == [0]
    assert [a.tolist() for a in padded_stream(np.array([], dtype=int), np.array([], dtype=int), 1, 1)] == [[], []]


def test_flatten_sentences_gives_the_tokens_in_a_row_and_the_lengths():
    tokens, lengths = flatten_sentences([["a", "b"], [], ("c",)], "train")
    assert tokens == ["a", "b", "c"] and lengths.tolist() == [2, 0, 1] and lengths.dtype == np.int64
    with pytest.raises(ValueError, match="train is empty"):
        flatten_sentences([], "train")


@pytest.mark.parametrize("tokens, lengths, message", [
    (["<s>"], [1], r"^sentences\[0\] holds the marker '<s>' at position 0: lmcore adds <s> and </s> itself "
                   r"\(see Convention\), so pass the raw tokens, e.g. \['i', 'spent', 'money'\]$"),
    (["a", "b", "c", "</s>", "a"], [2, 3], r"^sentences\[1\] holds the marker '</s>' at position 1: .*e\.g\. "
                                           r"\['c', 'a'\]$"),
    (["a", "b", "a", "<s>"], [1, 1, 0, 2], r"^sentences\[3\] holds the marker '<s>' at position 1: .*\['a'\]$"),
])
def test_markers_are_refused_naming_the_sentence_and_position(tokens, lengths, message):
    vocab = Vocabulary(["a", "b", "c"])
    with pytest.raises(ValueError, match=message):
        check_no_markers(vocab.encode(tokens), np.array(lengths), vocab)
    assert check_no_markers(vocab.encode(["a", "<unk>"]), np.array([2]), vocab) is None


def test_check_encoded_refuses_ids_outside_the_vocabulary_and_markers():
    vocab = Vocabulary(["a"])  # ids 0 .. 3
    ids, lengths = check_encoded(np.array([3, 0], dtype=np.int32), [1, 1], vocab)
    assert ids.tolist() == [3, 0] and lengths.dtype == np.int64
    for bad in ([4], [-1]):
        with pytest.raises(ValueError, match="between 0 and 3"):
            check_encoded(bad, [1], vocab)
    with pytest.raises(ValueError, match=r"^heldout\[0\] holds the marker '</s>'"):
        check_encoded([3, 2], [2], vocab, "heldout")
    with pytest.raises(TypeError, match="vocab must be an lmcore Vocabulary, got list"):
        check_encoded([3], [1], ["a"])
    assert check_encoded(np.array([], dtype=int), np.array([], dtype=int), vocab)[0].size == 0


def test_every_model_frames_once_and_refuses_markers_once_per_fit(monkeypatch):
    import lmcore.ngram.counted as counted

    calls = []
    real = counted.check_encoded
    monkeypatch.setattr(counted, "check_encoded", lambda *a, **k: calls.append(1) or real(*a, **k))
    MLE(2).fit(TRAIN)
    Interpolated(3, lambdas=[0.2, 0.3, 0.5]).fit(TRAIN)
    KneserNey(2).fit(TRAIN)
    assert len(calls) == 3


def test_a_model_supplies_id_probs_and_the_protocol_frames_and_scores():
    class Uniform(LanguageModel):
        context_length = 1
        sentence_padding = (1, 1)

        def __init__(self):
            self.vocab = Vocabulary(["a", "b"])
            self.outcome_ids = np.array([2, 3, 4])  # </s>, a, b (no <unk>)

        def id_probs(self, grams, context_len):
            return np.full(grams.shape[0], 1 / 3)

    model = Uniform()
    scores = model.score_tokens([["a", "b"], ["zzz"]])
    assert np.allclose(scores.logprobs, [-math.log(3)] * 3 + [-math.inf, -math.log(3)])
    assert scores.is_oov.tolist() == [False, False, False, True, False]
    assert scores.is_eos.tolist() == [False, False, True, False, True]
    assert scores.sentence_index.tolist() == [0, 0, 0, 1, 1] and scores.position.tolist() == [0, 1, 2, 0, 1]
    assert model.frame([["a"]]).grams.tolist() == [[1, 3], [3, 2]]
    with pytest.raises(ValueError, match="heldout has no tokens to predict"):
        Uniform.sentence_padding = (1, 0)
        model.frame([[]], "heldout")


def test_padded_stream_puts_every_end_marker_after_its_sentence():
    stream, depth = padded_stream(np.array([5, 6, 7]), np.array([2, 1]), 1, 2)
    assert stream.tolist() == [1, 5, 6, 2, 2, 1, 7, 2, 2] and depth.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3]


def test_framed_tokens_and_scores_are_frozen_and_name_the_predicted_ids():
    model = KneserNey(3).fit(TRAIN)
    framed = model.frame([["i", "spent"]])
    scores = model.score_tokens([["i", "spent"]])
    assert scores.token_ids.tolist() == model.vocab.encode(["i", "spent", "</s>"]).tolist()
    assert framed.grams[:, -1].tolist() == scores.token_ids.tolist() and framed.grams.shape == (3, 3)
    for frozen, field in ((framed, "grams"), (scores, "logprobs")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, field, None)


def test_a_model_without_id_probs_cannot_be_built():
    class HalfMade(LanguageModel):
        context_length = 1
        sentence_padding = (1, 1)

    with pytest.raises(TypeError, match="abstract method.* id_probs"):
        HalfMade()


def test_check_encoded_names_the_sentences_by_default():
    vocab = Vocabulary(["a"])
    with pytest.raises(ValueError, match=r"^sentences\[1\] holds the marker '<s>' at position 0"):
        check_encoded(np.array([3, 1]), np.array([1, 1]), vocab)

