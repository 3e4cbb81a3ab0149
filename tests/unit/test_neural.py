"""lmcore.neural: the hand-derived gradient against finite differences, the conventions of
lmcore.evaluate, determinism, storing, a reduced re-training that must reach its recorded
held-out cross-entropy, and the stored models giving the numbers chapter 7 prints."""

import json
import math

import numpy as np
import pytest

from lmcore import evaluate, neural
from lmcore.evaluate import units
from lmcore.neural import NeuralLM, TrainingConfig, load_stored, train, train_new
from lmcore.ngram import AddK
from lmcore.text import BOS_ID, TOY_TEST, TOY_TRAIN, Vocabulary, load_corpus, split_sentences, subwords

TOY = [list(s) for s in TOY_TRAIN]


def tiny(dtype=np.float64, seed=1):
    """A small model with random (not zero) parameters everywhere, in ``dtype``."""
    model = NeuralLM(Vocabulary.build(TOY), context_length=2, dim=3, hidden=5, seed=seed)
    rng = np.random.default_rng(seed)
    for name, array in model.parameters().items():
        setattr(model, name, (array + 0.3 * rng.normal(size=array.shape)).astype(dtype))
    return model


@pytest.mark.parametrize("name", neural.PARAMETERS)
def test_the_gradient_is_the_finite_difference(name):
    model = tiny()
    grams = model.frame(TOY + [["i", "spent", "zzz"]]).grams  # an unknown word too
    _, grads = model.loss_and_gradients(grams)
    array = getattr(model, name)
    rng = np.random.default_rng(0)
    for index in [tuple(rng.integers(0, s) for s in array.shape) for _ in range(12)]:
        saved = array[index]
        array[index] = saved + 1e-6
        up = model.loss_and_gradients(grams)[0]
        array[index] = saved - 1e-6
        down = model.loss_and_gradients(grams)[0]
        array[index] = saved
        assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-5, abs=1e-9), (name, index)


def test_the_embedding_gradient_of_a_repeated_id_adds_up():
    model = tiny()
    grams = np.array([[BOS_ID, BOS_ID, 3], [3, 3, 4]])
    _, grads = model.loss_and_gradients(grams)
    assert np.abs(grads["E"][BOS_ID]).sum() > 0 and np.abs(grads["E"][3]).sum() > 0
    assert not grads["E"][5:].any()  # ids that never sat in a context get no gradient


def test_a_distribution_sums_to_one_and_never_predicts_the_start():
    model = tiny(np.float32)
    for context in ([], ["i"], ["i", "spent"], ["zzz", "the", "mast"]):
        p = dict(zip(model.outcomes, model.distribution(context)))
        assert sum(p.values()) == pytest.approx(1.0, abs=1e-6) and "<s>" not in p and p["<unk>"] > 0 < p["</s>"]
        assert model.prob("<s>", context[-2:]) == 0.0
    assert model.prob("zzz", ["i"]) == model.prob("<unk>", ["i"])
    spent = model.outcomes.index("spent")
    assert model.prob("spent", ["the", "i"]) == model.distribution(["<s>", "the", "i"])[spent]  # the last k count
    assert model.prob("spent", ["i"]) == model.distribution(["<s>", "i"])[spent]  # short: <s> before it


def test_it_is_scored_by_evaluate_with_the_course_conventions():
    model = tiny(np.float32)
    test = [["i", "spent", "zzz"], ["the", "mast"]]
    scores = model.score_tokens(test)
    assert scores.is_eos.tolist() == [False, False, False, True, False, False, True]
    assert scores.is_oov.tolist() == [False, False, True, False, False, False, False]
    assert scores.position.tolist() == [0, 1, 2, 3, 0, 1, 2]
    # the first word is predicted from k <s>, every word from its own k previous tokens
    assert scores.logprobs[0] == pytest.approx(math.log(model.prob("i", ["<s>", "<s>"])), rel=1e-6)
    assert scores.logprobs[5] == pytest.approx(math.log(model.prob("mast", ["<s>", "the"])), rel=1e-6)
    assert scores.logprobs[3] == pytest.approx(math.log(model.prob("</s>", ["spent", "zzz"])), rel=1e-6)
    result = evaluate.evaluate(model, test)
    assert result.n_tokens == 7 and result.n_oov == 1
    assert result.perplexity == pytest.approx(math.exp(-scores.logprobs.mean()))
    assert evaluate.evaluate(model, test, unknown="exclude").n_tokens == 6
    assert evaluate.evaluate(model, test, eos="exclude").n_tokens == 5
    assert model.token_logprobs(test).tolist() == scores.logprobs.tolist()


def test_the_cut_off_table_ends_with_the_full_context():
    model = tiny(np.float32)
    table = model.context_logprobs(TOY)
    assert table.shape == (3, 13)
    assert np.allclose(table[2], model.token_logprobs(TOY))
    # the first token of a sentence has only <s> before it, however much context is allowed
    starts = [0, 5, 9]
    assert np.allclose(table[0, starts], table[2, starts]) and np.allclose(table[1, starts], table[2, starts])
    assert not np.allclose(table[0], table[2])


def test_the_toy_corpus_neural_bigram_learns_its_training_text():
    model, history = train_new(TOY, context_length=1, dim=4, hidden=8, min_count=1,
                               config=TrainingConfig(epochs=150, batch_size=13, learning_rate=0.05, decay=1.0))
    assert history.train_bits[-1] < 0.8 < history.train_bits[0] and history.best_epoch == 150
    assert model.prob("spent", ["i"]) > 0.95  # "spent" always followed "i"
    reference = evaluate.perplexity(AddK(2).fit(TOY), TOY)
    assert evaluate.perplexity(model, TOY) < reference  # it fits its training text better than add-one
    assert math.isfinite(evaluate.perplexity(model, TOY_TEST))  # and gives an unseen bigram some probability


def test_training_is_deterministic_and_early_stopping_keeps_the_best_epoch():
    config = TrainingConfig(epochs=40, batch_size=4, learning_rate=0.05, decay=1.0)
    runs = [train_new(TOY, [["i", "spent", "the", "mast"]], context_length=2, dim=3, hidden=6, min_count=1,
                      config=config) for _ in range(2)]
    (a, history), (b, _) = runs
    for name in neural.PARAMETERS:
        assert np.array_equal(getattr(a, name), getattr(b, name))
    best = history.best_epoch
    assert history.heldout_bits[best - 1] == np.min(history.heldout_bits)
    held = -a.token_logprobs([["i", "spent", "the", "mast"]]).mean() / math.log(2)
    assert held == pytest.approx(history.heldout_bits[best - 1], rel=1e-6)  # the kept parameters are the best's


def test_weight_decay_shrinks_the_weights_not_the_biases():
    plain, _ = train_new(TOY, context_length=2, dim=3, hidden=6, min_count=1,
                         config=TrainingConfig(epochs=20, batch_size=13, decay=1.0))
    decayed, _ = train_new(TOY, context_length=2, dim=3, hidden=6, min_count=1,
                           config=TrainingConfig(epochs=20, batch_size=13, decay=1.0, weight_decay=0.9))
    for name in ("E", "W1", "W2"):
        assert np.abs(getattr(decayed, name)).sum() < np.abs(getattr(plain, name)).sum()
    assert not np.array_equal(decayed.b2, plain.b2)  # biases move too, but are never shrunk on purpose


def test_save_and_load_round_trip(tmp_path):
    model = tiny(np.float32)
    model.save(tmp_path / "m.npz", note=3.5, curve=np.array([1.0, 2.0]))
    loaded, meta = NeuralLM.load(tmp_path / "m.npz")
    assert loaded.vocab.tokens == model.vocab.tokens and (loaded.context_length, loaded.dim, loaded.hidden) == (2, 3, 5)
    assert float(meta["note"]) == 3.5 and meta["curve"].tolist() == [1.0, 2.0]
    for name in neural.PARAMETERS:
        assert getattr(loaded, name).dtype == np.float32
        assert np.allclose(getattr(loaded, name), getattr(model, name), rtol=1e-3, atol=1e-3)  # float16 on disk
    model.save(tmp_path / "exact.npz", dtype=np.float32)
    exact, _ = NeuralLM.load(tmp_path / "exact.npz")
    assert np.array_equal(exact.token_logprobs(TOY), model.token_logprobs(TOY))


@pytest.mark.parametrize("call, error, words", [
    (lambda: NeuralLM([["a"]]), TypeError, "vocab must be an lmcore Vocabulary"),
    (lambda: NeuralLM(Vocabulary(["a"]), context_length=0), ValueError, "context_length must be at least 1"),
    (lambda: NeuralLM(Vocabulary(["a"]), hidden=2.5), TypeError, "hidden must be an int"),
    (lambda: tiny().frame([["<s>", "i"]]), ValueError, r"sentences\[0\] holds the marker '<s>' at position 0"),
    (lambda: tiny().frame([]), ValueError, "sentences is empty"),
    (lambda: tiny().grams_logprobs([[1, 2]]), ValueError, r"shape \(N, 3\)"),
    (lambda: tiny().grams_logprobs([[1, 2, 99]]), ValueError, "ids outside"),
    (lambda: tiny().loss_and_gradients(np.zeros((0, 3), dtype=int)), ValueError, "grams is empty"),
    (lambda: tiny().prob(3), TypeError, "word must be a str"),
    (lambda: tiny().distribution("i spent"), TypeError, "context must be a sequence of tokens"),
    (lambda: train("model", TOY), TypeError, "model must be a NeuralLM"),
    (lambda: TrainingConfig(epochs=0), ValueError, "epochs must be at least 1"),
    (lambda: TrainingConfig(learning_rate=-1.0), ValueError, "learning_rate must be greater than 0, got -1.0"),
    (lambda: TrainingConfig(learning_rate="0.1"), TypeError, "learning_rate must be a number, got str"),
    (lambda: TrainingConfig(decay=0), ValueError, "decay must be greater than 0, got 0"),
    (lambda: TrainingConfig(decay=math.inf), ValueError, "decay must be a finite number, got inf"),
    (lambda: TrainingConfig(weight_decay=1.0), ValueError, r"weight_decay must be in \[0, 1\), got 1.0"),
    (lambda: TrainingConfig(weight_decay=None), TypeError, "weight_decay must be a number, got NoneType"),
    (lambda: TrainingConfig(unigram_start=1), TypeError, "unigram_start must be True or False, got 1"),
    (lambda: TrainingConfig(batch_size=2.0), TypeError, "batch_size must be an int, got float"),
    (lambda: TrainingConfig(seed=-1), ValueError, "seed must be at least 0, got -1"),
    (lambda: tiny().frame([["i"], ["spent", 3]]), TypeError, r"sentences\[1\] must contain only str tokens, got int 3"),
    (lambda: train(tiny(), TOY, config={"epochs": 2}), TypeError, "config must be a TrainingConfig"),
    (lambda: load_stored("french"), ValueError, "name must be one of"),
])
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- a training that diverges, a model that is not finite -------------------------------------------


def untrained():
    return NeuralLM(Vocabulary.build(TOY), context_length=2, dim=3, hidden=5, seed=0)


@pytest.mark.parametrize("config, words", [
    (TrainingConfig(epochs=3, batch_size=8, learning_rate=1e6), r"at step 2 \(epoch 1\) the batch loss is 3.59e\+06 "
                                                                 r"nats per token, over 100 times the uniform model's"),
    (TrainingConfig(epochs=3, batch_size=4, learning_rate=1e38), r"at step 2 \(epoch 1\) the batch loss is nan"),
])
def test_a_diverging_training_stops_at_its_step_and_keeps_a_finite_model(config, words):
    # a learning rate of 1e6 trained on to a model certain of one outcome, 1e38 to one that answered NaN
    model = untrained()
    with pytest.raises(FloatingPointError, match=f"^training diverged: {words}.*smaller learning_rate"):
        train(model, TOY, config=config)
    assert all(np.isfinite(array).all() for array in model.parameters().values())
    assert math.isfinite(evaluate.perplexity(model, TOY))  # the parameters it started with


def test_a_training_without_divergence_is_not_stopped():
    history = train(untrained(), TOY, config=TrainingConfig(epochs=3, batch_size=8, learning_rate=0.05))
    assert np.all(np.isfinite(history.train_bits))
    with pytest.raises(ValueError, match=r"^learning_rate · weight_decay must be below 1 .*got 1e\+06 · 0.5$"):
        TrainingConfig(learning_rate=1e6, weight_decay=0.5)  # each step multiplied the weights by -499999


@pytest.mark.parametrize("call", [
    lambda model: model.prob("i", ["spent"]),
    lambda model: model.distribution([]),
    lambda model: model.next_word_distribution(["i"]),
    lambda model: model.token_logprobs(TOY),
    lambda model: model.grams_logprobs(model.frame(TOY).grams),
    lambda model: model.context_logprobs(TOY),
    lambda model: evaluate.evaluate(model, TOY),
])
def test_a_model_whose_parameters_are_not_finite_never_answers_nan(call):
    model = untrained()
    model.W2[0, 3] = np.nan  # as a diverged training leaves it (column 1, <s>, is never an outcome)
    with pytest.raises(ValueError, match="^the model's parameters W2 hold NaN or infinite values, so its "
                                         "probabilities would be NaN: its training diverged; train it again"):
        call(model)


def test_parameters_too_large_to_compute_with_are_named_and_a_nan_model_is_not_trained_on(tmp_path):
    model = untrained()
    model.b1[...], model.W2[...] = 1.0, 3e38  # finite, but the softmax overflows
    with pytest.raises(ValueError, match=r"^the model's parameters are too large to compute with \(up to 3e\+38 in W2"):
        model.prob("i")
    model.W2[0, 0] = np.inf
    with pytest.raises(ValueError, match="^model's parameters W2 hold NaN or infinite values: train a new NeuralLM$"):
        train(model, TOY)


def test_a_file_of_parameters_that_are_not_finite_is_neither_written_nor_read(tmp_path):
    model = untrained()
    model.W2[0, 3] = 1e5  # beyond float16
    with pytest.raises(ValueError, match="^the parameter W2 holds NaN or values beyond float16's range"):
        model.save(tmp_path / "m.npz")
    model.save(tmp_path / "m.npz", dtype=np.float32)
    with np.load(tmp_path / "m.npz") as stored:
        arrays = {key: stored[key] for key in stored.files}
    arrays["E"][0, 0] = np.nan  # a damaged file
    np.savez(tmp_path / "damaged.npz", **arrays)
    with pytest.raises(ValueError, match="damaged.npz: the parameter E holds NaN or infinite values"):
        NeuralLM.load(tmp_path / "damaged.npz")
    with pytest.raises(TypeError, match="^path must be a file name"):
        model.save(3)  # numpy would have written to file descriptor 3
    assert NeuralLM.load(str(tmp_path / "m.npz").encode())[0].n_parameters == model.n_parameters  # bytes name


# --- the stored models and the code that trained them ---------------------------------------

# What the reduced re-training below reached when it was written: the same code must reach it again.
REDUCED_HELDOUT_BITS = [3.0911, 2.9451, 2.8688]
REDUCED_TRAINING_TOKENS = 22_415


@pytest.fixture(scope="module")
def english():
    model, meta = load_stored("english")
    split = split_sentences(load_corpus("english"), heldout=0.1, test=0.1, seed=0)
    return model, meta, split


def test_a_reduced_model_retrained_by_the_same_code_reaches_its_recorded_cross_entropy(english):
    """The recipe of benchmarks/train_neural.py (train_new), on 200 English training sentences."""
    _, _, split = english
    train_chars, heldout_chars = units.characters(split.train[:200]), units.characters(split.heldout[:30])
    _, history = train_new(train_chars, heldout_chars, min_count=2, context_length=4, dim=8, hidden=32,
                           config=TrainingConfig(epochs=3, batch_size=256, learning_rate=2e-2, decay=0.75, seed=0))
    assert history.n_train_tokens == REDUCED_TRAINING_TOKENS
    assert history.heldout_bits.tolist() == pytest.approx(REDUCED_HELDOUT_BITS, abs=2e-4)


def test_the_stored_models_are_small_and_record_their_training(english):
    model, meta, _ = english
    sizes = [(neural.DATA / name).stat().st_size for name in neural.STORED_MODELS.values()]
    assert sum(sizes) < 2 * 1024 * 1024
    assert meta["train_bits"].shape == meta["heldout_bits"].shape == (int(meta["epochs"]),)
    assert 1 <= int(meta["best_epoch"]) <= int(meta["epochs"])
    assert model.context_length == int(meta["context"])


def test_the_stored_english_model_gives_the_numbers_chapter_7_prints(english):
    """Section 3's full-context row for the first 20 English test sentences: the stored parameters,
    scored by lmcore.evaluate, must give what the chapter prints."""
    model, _, split = english
    stream = units.characters(split.test[:20])
    result = evaluate.evaluate(model, stream)
    n_chars = units.count_characters(units.texts(stream, "char"))
    assert n_chars == result.n_tokens == 3_162
    assert f"{result.perplexity:.4f}" == "3.0692"
    assert f"{result.cross_entropy:.4f}" == "1.6179"


def test_the_stored_tokenizer_is_what_train_bpe_makes_of_the_same_sentences(english):
    _, meta, split = english
    stored = subwords.load_stored_bpe("english")
    retrained = subwords.train_bpe(split.train[: int(meta["n_train"])], int(meta["bpe_vocab"]))
    assert json.loads(retrained.tokenizer.to_str()) == json.loads(stored.tokenizer.to_str())
    assert stored.separator == " " and subwords.load_stored_bpe("chinese").separator == ""


@pytest.mark.parametrize("call, error, words", [
    (lambda: NeuralLM(Vocabulary(["a"]), seed=-1), ValueError, "^seed must be at least 0, got -1$"),
    (lambda: NeuralLM(Vocabulary(["a"]), seed=1.5), TypeError, "^seed must be an int, got float$"),
    (lambda: NeuralLM(Vocabulary(["a"]), seed=True), TypeError, "^seed must be an int, got bool$"),
    # the batch's ids are checked as the forward pass checks them: -1 was read as the last id, 9 an IndexError
    (lambda: tiny().loss_and_gradients(np.array([[1, 1, -1]])), ValueError, "^grams holds ids outside"),
    (lambda: tiny().loss_and_gradients(np.array([[1, 1, 99]])), ValueError, "^grams holds ids outside"),
    (lambda: tiny().loss_and_gradients(np.array([[1, 1]])), ValueError, r"^grams must be an integer array of shape"),
    (lambda: tiny().id_probs(np.array([[1, 1, 99], [1, 1, 3]]), np.array([2, 2])), ValueError, "grams holds ids"),
    (lambda: train(tiny(), TOY, heldout=[]), ValueError, "^heldout is empty$"),  # was "sentences is empty"
    (lambda: train(tiny(), TOY, heldout="a b"), TypeError, "^heldout must be a list of token lists"),
    (lambda: load_stored(["english"]), TypeError, "^name must be a str, got list$"),  # was "unhashable type"
])
def test_odd_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
