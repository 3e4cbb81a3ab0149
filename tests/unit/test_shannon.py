"""The Shannon game and Shannon's letter-game bounds (lmcore.shannon, lmcore.shannon.letters).

Ranks and top-k are pinned to ``next_word_distribution`` (the rank of a token is its position in
that list), per-step probabilities to ``token_logprobs``, the bounds to cases whose entropy is
known exactly; every bad input is refused with a message that names it.
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import info, shannon
from lmcore.lm import model_context
from lmcore.ngram import MLE, AddK, Interpolated, KneserNey
from lmcore.shannon import LETTERS
from lmcore.shannon import letters as shannon_letters

TOY = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
WORDS = list("abcd")
corpus = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=6)
MODEL_KINDS = {
    "mle": lambda n: MLE(n),
    "add-k": lambda n: AddK(n, k=0.5),
    "interpolated": lambda n: Interpolated(n, lambdas=[1 / n] * n),
    "kneser-ney": lambda n: KneserNey(n),
}


@pytest.fixture(scope="module")
def toy_models():
    return {"unigram": KneserNey(1).fit(TOY), "bigram": KneserNey(2).fit(TOY), "trigram": KneserNey(3).fit(TOY)}


# --- the worked example ---------------------------------------------------------------------------


def test_pizza_surprisals_are_the_courses():
    bits = {word: info.surprisal(p) for word, p in shannon.PIZZA.items()}
    assert [f"{b:.4f}" for b in bits.values()] == ["3.3219", "3.3219", "6.6439", "13.2877", "332.1928"]
    assert f"{sum(shannon.PIZZA.values()):.4f}" == "0.2101"


# --- one model, one context -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(MODEL_KINDS))
def test_distribution_is_the_next_word_distribution(kind):
    model = MODEL_KINDS[kind](2).fit(TOY)
    probs = model.distribution(["spent"])
    listed = model.next_word_distribution(["spent"])
    assert dict(zip(model.outcomes, probs.tolist())) == pytest.approx(listed, abs=1e-15)
    assert probs.sum() == pytest.approx(1.0)


@settings(max_examples=40)
@given(train=corpus, prefix=st.lists(st.sampled_from(WORDS + ["zzz"]), max_size=3), k=st.integers(1, 9),
       kind=st.sampled_from(["add-k", "kneser-ney", "interpolated"]), order=st.integers(1, 3))
def test_top_guesses_and_rank_are_positions_in_the_sorted_distribution(train, prefix, k, kind, order):
    model = MODEL_KINDS[kind](order).fit(train)
    context = model_context(model, prefix)
    listed = list(model.next_word_distribution(context).items())
    top = shannon.top_guesses(model, context, k)
    assert [w for w, _ in top] == [w for w, _ in listed[:k]]
    assert [p for _, p in top] == pytest.approx([p for _, p in listed[:k]], abs=1e-15)
    for position, (word, p) in enumerate(listed, start=1):
        assert shannon.rank_of(model, context, word) == (position, pytest.approx(p, abs=1e-15))


def test_ties_go_to_the_outcome_listed_first():
    model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
    # money and three both follow "spent" once; money comes first in the vocabulary (alphabetical)
    assert shannon.top_guesses(model, ["spent"], 2) == (("money", 0.5), ("three", 0.5))
    assert shannon.rank_of(model, ["spent"], "money") == (1, 0.5)
    assert shannon.rank_of(model, ["spent"], "three") == (2, 0.5)


def test_unknown_words_are_ranked_as_unk_and_a_closed_vocabulary_gives_zero():
    model = KneserNey(2).fit(TOY)
    assert shannon.rank_of(model, ["i"], "zebra") == shannon.rank_of(model, ["i"], "<unk>")
    prediction = shannon.predict(model, ["i"], "zebra")
    assert prediction.scored_as == "<unk>" and prediction.token == "zebra" and not prediction.hit
    closed = MLE(2, convention="course").fit(TOY)
    assert shannon.rank_of(closed, ["i"], "zebra") == (len(closed.outcomes) + 1, 0.0)
    assert shannon.predict(closed, ["i"], "zebra").surprisal == math.inf


def test_predict_agrees_with_its_parts(toy_models):
    model = toy_models["bigram"]
    p = shannon.predict(model, ["i"], "spent", n_guesses=3, name="bigram")
    assert p.top == shannon.top_guesses(model, ["i"], 3)
    assert (p.rank, p.prob) == shannon.rank_of(model, ["i"], "spent")
    assert p.surprisal == pytest.approx(-math.log2(p.prob)) and p.hit == (p.rank == 1)


@pytest.mark.parametrize("call, error, words", [
    (lambda m: m.distribution("the"), TypeError, "context must be a sequence"),
    (lambda m: m.distribution(["a", "b"]), ValueError, "at most 1"),
    (lambda m: shannon.top_guesses(m, [], 0), ValueError, "n_guesses must be at least 1, got 0"),
    (lambda m: shannon.top_guesses(m, [], True), TypeError, "n_guesses must be an int, got bool"),
    (lambda m: shannon.predict(m, [], "a", n_guesses=2.0), TypeError, "n_guesses must be an int, got float"),
    (lambda m: shannon.rank_of(m, [], 3), TypeError, "token must be a str"),
    (lambda m: shannon.predict(m, [], None), TypeError, "token must be a str"),
])
def test_bad_model_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call(MLE(2).fit(TOY))


def test_an_unfitted_model_is_refused():
    with pytest.raises(ValueError, match="not fitted"):
        shannon.top_guesses(MLE(2), [])


# --- a player's input -----------------------------------------------------------------------------


@pytest.mark.parametrize("guess, unit, expected", [
    ("Lord", "word", "lord"), ("  the ", "word", "the"), ("don't", "word", "don't"),
    ("burnt-offering", "word", "burnt-offering"), ("ＧＯＤ", "word", "god"), ("天", "char", "天"),
    ("1", "char", "1"),
])
def test_guesses_are_normalised(guess, unit, expected):
    assert shannon.check_guess(guess, unit) == expected


@pytest.mark.parametrize("guess, unit, words", [
    ("", "word", "guess is empty: type one word"),
    ("   ", "word", "guess is empty"),
    ("", "char", "type one character"),
    ("the lord", "word", "has a space in it"),
    ("lord!", "word", r"punctuation \(!\)"),
    ("'tis", "word", "punctuation"),
    ("天地", "char", "has 2 characters"),
    ("。", "char", "punctuation"),
    ("<s>", "word", "marker"),
])
def test_bad_guesses_get_a_clear_message(guess, unit, words):
    with pytest.raises(ValueError, match=words):
        shannon.check_guess(guess, unit)


def test_guess_type_and_unit_are_checked():
    with pytest.raises(TypeError, match="guess must be a str"):
        shannon.check_guess(3)
    with pytest.raises(ValueError, match="unit must be one of"):
        shannon.check_guess("a", unit="letter")


def test_models_and_sentences_are_checked(toy_models):
    with pytest.raises(ValueError, match="models is empty"):
        shannon.check_models({})
    with pytest.raises(TypeError, match="mapping"):
        shannon.check_models([MLE(1).fit(TOY)])
    with pytest.raises(TypeError, match=r"models\['x'\] must be a fitted"):
        shannon.check_models({"x": "model"})
    with pytest.raises(ValueError, match="not fitted"):
        shannon.check_models({"x": MLE(2)})
    with pytest.raises(ValueError, match=r"sentence has 2 tokens, fewer than the largest model order \(3\)"):
        shannon.check_sentence(["i", "spent"], toy_models)
    with pytest.raises(ValueError, match=r"sentence\[1\] is the marker '</s>'"):
        shannon.check_sentence(["i", "</s>", "spent"], toy_models)
    with pytest.raises(TypeError, match=r"sentence must be a sequence of tokens \(e.g. a list of str\), got str"):
        shannon.check_sentence("i spent money", toy_models)
    with pytest.raises(TypeError, match="sentence must contain only str tokens, got int 1"):
        shannon.check_sentence([1, 2, 3], toy_models)


# --- the game --------------------------------------------------------------------------------------


def test_play_records_guesses_ranks_and_tallies(toy_models):
    sentence = ["i", "spent", "three", "days"]
    steps = shannon.play(sentence, ["I", "went", None, "years"], toy_models, n_guesses=3)
    assert [s.token for s in steps] == sentence
    assert [s.hit for s in steps] == [True, False, None, False]
    assert [s.guess for s in steps] == ["i", "went", None, "years"]
    assert [s.guess_known for s in steps] == [True, False, None, True]
    assert [s.guesses for s in steps] == [1, 2, 2, 3] and steps[-1].hits == 1
    for i, name in enumerate(toy_models):
        predictions = [s.predictions[i] for s in steps]
        assert all(p.name == name and len(p.top) == 3 for p in predictions)
        assert steps[-1].model_hits[i] == sum(p.hit for p in predictions)
        assert steps[-1].model_bits[i] == pytest.approx(sum(p.surprisal for p in predictions))
    assert steps[-1].predictions[2].scored_as == "<unk>"  # "days" is not in the training text
    assert steps[1].predictions[2].context == ("<s>", "i")


@settings(max_examples=25)
@given(train=corpus, sentence=st.lists(st.sampled_from(WORDS + ["zzz"]), min_size=3, max_size=6),
       kind=st.sampled_from(["add-k", "kneser-ney", "interpolated"]))
def test_play_gives_the_models_own_token_probabilities(train, sentence, kind):
    models = {f"order {n}": MODEL_KINDS[kind](n).fit(train) for n in (1, 2, 3)}
    steps = shannon.play(sentence, [None] * len(sentence), models, n_guesses=2)
    for i, model in enumerate(models.values()):
        expected = np.exp(model.token_logprobs([sentence]))[: len(sentence)]  # the words, not </s>
        assert [s.predictions[i].prob for s in steps] == pytest.approx(expected.tolist(), rel=1e-12)
        assert steps[-1].model_bits[i] == pytest.approx(-np.log2(expected).sum(), rel=1e-12)


def test_play_stops_where_the_guesses_stop_and_play_step_continues(toy_models):
    sentence = ["i", "spent", "money"]
    two = shannon.play(sentence, ["i", "spent"], toy_models)
    third = shannon.play_step(sentence, 2, "money", toy_models, two[-1])
    assert third == shannon.play(sentence, ["i", "spent", "money"], toy_models)[-1]
    assert third.hits == 3


def test_play_refuses_bad_input_by_name(toy_models):
    with pytest.raises(ValueError, match=r"guesses has 4 entries but the sentence has only 3 tokens"):
        shannon.play(["i", "spent", "money"], ["a"] * 4, toy_models)
    with pytest.raises(ValueError, match=r"guesses\[1\]: guess is empty"):
        shannon.play(["i", "spent", "money"], ["i", ""], toy_models)
    with pytest.raises(TypeError, match="guesses must be a list"):
        shannon.play(["i", "spent", "money"], "i spent", toy_models)
    with pytest.raises(ValueError, match="position must be between 0 and the sentence's last index 2, got 3"):
        shannon.play_step(["i", "spent", "money"], 3, None, toy_models)
    with pytest.raises(ValueError, match="previous must be the step at position 0"):
        shannon.play_step(["i", "spent", "money"], 1, None, toy_models, None)
    first = shannon.play_step(["i", "spent", "money"], 0, None, toy_models)
    with pytest.raises(ValueError, match="previous must be None at position 0"):
        shannon.play_step(["i", "spent", "money"], 0, None, toy_models, first)


def test_draw_sentence_is_seeded_and_checked():
    sentences = [["a"] * n for n in range(1, 30)]
    drawn = shannon.draw_sentence(sentences, seed=7, min_tokens=5, max_tokens=9)
    assert drawn == shannon.draw_sentence(sentences, seed=7, min_tokens=5, max_tokens=9)
    assert 5 <= len(drawn) <= 9 and isinstance(drawn, tuple)
    with pytest.raises(ValueError, match="no sentence of 40 to 50 tokens"):
        shannon.draw_sentence(sentences, min_tokens=40, max_tokens=50)
    with pytest.raises(ValueError, match=r"max_tokens must be at least min_tokens \(5\), got 2"):
        shannon.draw_sentence(sentences, min_tokens=5, max_tokens=2)
    with pytest.raises(ValueError, match="min_tokens must be at least 1, got 0"):
        shannon.draw_sentence(sentences, min_tokens=0)
    with pytest.raises(TypeError, match="max_tokens must be an int, got float"):
        shannon.draw_sentence(sentences, max_tokens=9.0)
    with pytest.raises(TypeError, match="seed must be an int, got str"):
        shannon.draw_sentence(sentences, seed="1")
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        shannon.draw_sentence(sentences, seed=-1)
    with pytest.raises(TypeError, match="split each sentence into tokens"):
        shannon.draw_sentence(["a b c d e"])


# --- context narrows the guess ---------------------------------------------------------------------


def test_context_profile_by_hand():
    models = [AddK(1, k=1).fit(TOY), AddK(2, k=1).fit(TOY)]
    profile = shannon.context_profile(models, TOY, n_positions=100)
    positions = [(i, j) for i, s in enumerate(TOY) for j in range(len(s))]
    assert profile.n_positions == len(positions) == 10 and profile.context_lengths == (0, 1)
    unigram = np.array(list(models[0].next_word_distribution().values()))
    assert profile.entropy[0] == pytest.approx(info.entropy(unigram))
    bigram_bits = [-math.log2(models[1].prob(TOY[i][j], [(["<s>"] + TOY[i])[j]])) for i, j in positions]
    assert profile.surprisal[1] == pytest.approx(np.mean(bigram_bits))
    assert profile.surprisal_se[1] == pytest.approx(np.std(bigram_bits, ddof=1) / math.sqrt(10))


def test_context_profile_standard_error_at_the_edges():
    # the standard error chapter 1 prints beside each mean surprisal: nan for one position, inf
    # when a surprisal is; 0 when every position costs the same
    unigram = AddK(1).fit(TOY)
    assert math.isnan(shannon.context_profile([unigram], TOY, n_positions=1).surprisal_se[0])
    closed = MLE(1, convention="course").fit(TOY)
    assert shannon.context_profile([closed], [["zebra", "i"]]).surprisal_se[0] == math.inf
    assert shannon.context_profile([unigram], [["zebra", "zebra"]]).surprisal_se[0] == 0.0


def test_context_profile_refuses_bad_input():
    with pytest.raises(ValueError, match="n_positions must be at least 1, got 0"):
        shannon.context_profile([MLE(1).fit(TOY)], TOY, n_positions=0)
    with pytest.raises(TypeError, match=r"sentences\[1\] must contain only str tokens, got int 3"):
        shannon.context_profile([MLE(1).fit(TOY)], [["a"], ["b", 3]])
    with pytest.raises(ValueError, match="models is empty"):
        shannon.context_profile([], TOY)
    with pytest.raises(ValueError, match="sentences has no tokens"):
        shannon.context_profile([MLE(1).fit(TOY)], [[]])


# --- the letter game -------------------------------------------------------------------------------


def test_shannons_published_numbers_are_quoted_as_printed():
    assert shannon_letters.SHANNON_1951 == {"F0": 4.76, "F1": 4.03, "F2": 3.32, "F3": 3.1,
                                            "long context": (0.6, 1.3)}
    assert f"{shannon_letters.log2_symbols():.4f}" == "4.7549" and len(LETTERS) == 27


@pytest.mark.parametrize("text, expected", [
    ("Hello, World!", "hello world"), ("don't  stop", "dont stop"), ("Café -- 1998", "cafe"),
    ([["in", "the"], ["beginning"]], "in the beginning"), ("", ""),
])
def test_to_letters(text, expected):
    assert shannon_letters.to_letters(text) == expected


def test_guess_counts_and_frequencies():
    counts = shannon_letters.guess_counts("to be", ["t", "ao", "_", "eb", "e"])
    assert counts.tolist() == [1, 2, 1, 2, 1]
    assert shannon_letters.guess_frequencies(counts)[:3].tolist() == [0.6, 0.4, 0.0]
    assert shannon_letters.guess_frequencies(counts).size == 27


@pytest.mark.parametrize("sentence, guesses, error, words", [
    ("ab", ["a"], ValueError, "guesses has 1 entries for a sentence of 2"),
    ("ab", ["a", "ba"], ValueError, r"must end with the right symbol 'b'"),
    ("ab", ["a", "cb "], ValueError, "must end with the right symbol"),
    ("ab", ["a", "ccb"], ValueError, "guesses a symbol twice"),
    ("ab", ["a", "1b"], ValueError, "outside a-z and space"),
    ("a b", ["a", " ", "b"], None, None),
    ("aB", ["a", "B"], ValueError, "to_letters"),
    ("ab", "ab", TypeError, r"guesses must be a sequence of tokens \(e.g. a list of str\), got str"),
    ("ab", ["a", 2], TypeError, "guesses must contain only str tokens, got int 2"),
    (["a"], ["a"], TypeError, "sentence must be a str"),
    ("", [], ValueError, "sentence is empty"),
])
def test_bad_guess_records_are_refused(sentence, guesses, error, words):
    if error is None:
        assert shannon_letters.guess_counts(sentence, guesses).tolist() == [1, 1, 1]
        return
    with pytest.raises(error, match=words):
        shannon_letters.guess_counts(sentence, guesses)


@pytest.mark.parametrize("counts, n_symbols, error, words", [
    ([], 27, ValueError, "non-empty"),
    ([0, 1], 27, ValueError, "between 1 and 27"),
    ([28], 27, ValueError, "between 1 and 27"),
    ([1.5], 27, TypeError, "whole numbers"),
    ([1], 0, ValueError, "n_symbols"),
])
def test_bad_counts_are_refused(counts, n_symbols, error, words):
    with pytest.raises(error, match=words):
        shannon_letters.guess_frequencies(counts, n_symbols)


def test_bounds_of_known_cases():
    assert shannon_letters.shannon_bounds([1.0]) == (0.0, 0.0)
    uniform = np.full(27, 1 / 27)  # an ideal player of a uniform source: q_i = 1/27 for every i
    lower, upper = shannon_letters.shannon_bounds(uniform)
    assert lower == pytest.approx(math.log2(27)) and upper == pytest.approx(math.log2(27))
    exercise = [0.6, 0.2, 0.1, 0.05, 0.05]
    assert [round(b, 4) for b in shannon_letters.shannon_bounds(exercise)] == [1.0182, 1.671]


@settings(max_examples=50)
@given(st.lists(st.floats(0.001, 1.0), min_size=1, max_size=27))
def test_lower_bound_never_exceeds_upper_for_an_ideal_player(weights):
    q = np.sort(np.array(weights) / sum(weights))[::-1]  # an ideal player's q_i never increase
    lower, upper = shannon_letters.shannon_bounds(q)
    assert -1e-12 <= lower <= upper + 1e-12 <= math.log2(len(q)) + 2e-12


@pytest.mark.parametrize("frequencies, error, words", [
    ([3, 1], ValueError,
     "frequencies: probabilities sum to 4, expected 1: these look like counts; divide them by their total (4)"),
    ([0.5, 0.3], ValueError, "frequencies: probabilities sum to 0.8, expected 1 (tolerance 1e-06)"),
    ([1.2, -0.2], ValueError, "frequencies has negative probabilities: [-0.2]"),
    ([], ValueError, "frequencies is empty"),
    ([[0.5, 0.5]], ValueError, "frequencies must be one-dimensional, got shape (1, 2)"),
    ([0.5, math.nan], ValueError, "frequencies contains NaN"),
    ([1.5, 0.5], ValueError, "frequencies has probabilities above 1: [1.5]"),
    ("0.5 0.5", TypeError, "frequencies must be a sequence, array or dict of probabilities, got str"),
    (["a"], TypeError, "frequencies must contain only numbers"),
])
def test_bad_frequencies_are_refused(frequencies, error, words):
    with pytest.raises(error) as refused:
        shannon_letters.shannon_bounds(frequencies)
    assert str(refused.value) == words


@pytest.fixture(scope="module")
def letter_text():
    words = "the quick brown fox jumps over the lazy dog while the cat sat on the mat "
    return shannon_letters.to_letters(words * 30)


def test_a_letter_model_ranks_as_its_distribution_lists(letter_text):
    model = shannon_letters.fit_letter_model(letter_text, order=3)
    assert model.outcomes == tuple(LETTERS)
    test = "the lazy cat jumps"
    run = shannon_letters.letter_game(model, test)
    for i, rank in enumerate(run.ranks):
        listed = list(model.next_word_distribution(list(test[max(0, i - 2): i])))
        assert listed.index(test[i]) + 1 == rank
    expected_bits = -model.token_logprobs([list(test)]) / math.log(2)
    assert run.bits == pytest.approx(expected_bits)
    assert run.cross_entropy == pytest.approx(expected_bits.mean())
    assert (run.lower, run.upper) == shannon_letters.shannon_bounds(shannon_letters.guess_frequencies(run.ranks))


def test_letter_game_refuses_a_word_model_and_odd_text(letter_text):
    with pytest.raises(ValueError, match="exactly the 27 symbols"):
        shannon_letters.letter_game(KneserNey(2).fit(TOY), "abc")
    model = shannon_letters.fit_letter_model(letter_text, order=1)
    with pytest.raises(ValueError, match="outside a-z and space"):
        shannon_letters.letter_game(model, "Abc")
    with pytest.raises(TypeError, match="fitted lmcore language model"):
        shannon_letters.letter_game("model", "abc")
    with pytest.raises(ValueError, match="train_letters has symbols outside"):
        shannon_letters.fit_letter_model("abc!", 2)


# --- edges the mutation run of issue 24 found unpinned -------------------------------------

def test_to_letters_refuses_a_list_of_strings_and_a_non_sequence_by_name():
    for text in (["in the", "god"], 42):
        with pytest.raises(TypeError, match="text must be a str or a list of sentences"):
            shannon_letters.to_letters(text)


def test_guess_records_name_the_entry_and_show_a_space_as_underscore():
    with pytest.raises(ValueError, match=r"guesses\[1\] = 'x' must end with the right symbol '_'"):
        shannon_letters.guess_counts("a b", ["a", "x", "b"])
    with pytest.raises(ValueError, match=r"^guesses\[1\] has symbols outside a-z and space: \['B'\]"):
        shannon_letters.guess_counts("ab", ["a", "Bb"])


def test_guess_frequencies_accept_one_symbol_and_a_count_equal_to_n_symbols():
    assert shannon_letters.guess_frequencies([1, 1], n_symbols=1).tolist() == [1.0]
    assert shannon_letters.guess_frequencies([3, 1], n_symbols=3).tolist() == [0.5, 0.0, 0.5]
    with pytest.raises(TypeError, match="n_symbols must be an int, got float"):
        shannon_letters.guess_frequencies([1], n_symbols=2.5)


def test_only_whole_frequencies_summing_above_1_get_the_counts_hint():
    with pytest.raises(ValueError, match=r"sum to 2, expected 1: these look like counts"):
        shannon_letters.shannon_bounds([1, 1])
    with pytest.raises(ValueError, match=r"sum to 0, expected 1 \(tolerance 1e-06\)$"):
        shannon_letters.shannon_bounds([0, 0])
    with pytest.raises(ValueError, match=r"sum to 1.5, expected 1 \(tolerance 1e-06\)$"):  # not whole numbers
        shannon_letters.shannon_bounds([1, 0.5])


def test_frequencies_may_miss_1_by_at_most_1e_6():
    assert shannon_letters.shannon_bounds([1 + 5e-7])[0] == 0.0
    with pytest.raises(ValueError, match="above 1"):
        shannon_letters.shannon_bounds([1 + 1.5e-6])
    assert shannon_letters.shannon_bounds([0.5, 0.5 + 0.9e-6])[1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="expected 1"):
        shannon_letters.shannon_bounds([0.5, 0.5 + 1.1e-6])


def test_letter_game_names_letters_and_its_run_is_frozen():
    model = shannon_letters.fit_letter_model("the cat sat on the mat", 2)
    with pytest.raises(ValueError, match=r"^letters has symbols outside a-z and space: \['T'\]"):
        shannon_letters.letter_game(model, "The")
    run = shannon_letters.letter_game(model, "the cat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.order = 3


# --- edges the mutation run of issue 24 found unpinned (the Shannon game) -----------------------


def test_the_pizza_example_is_the_courses():
    assert shannon.PIZZA == {"mushrooms": 0.1, "pepperoni": 0.1, "anchovies": 0.01, "fried rice": 0.0001, "and": 1e-100}


def test_ten_guesses_are_shown_unless_asked_otherwise():
    model = MLE(1).fit([list("abcdefghijkl")])  # 14 outcomes
    sentence = list("abc")
    assert len(shannon.top_guesses(model)) == 10
    prediction = shannon.predict(model, [], "a")
    assert len(prediction.top) == 10 and prediction.name == ""
    assert len(shannon.play(sentence, [None], {"m": model})[0].predictions[0].top) == 10
    assert len(shannon.play_step(sentence, 0, None, {"m": model}).predictions[0].top) == 10


def test_records_are_frozen_and_a_certain_token_costs_plus_zero_bits(toy_models):
    certain = shannon.predict(MLE(2).fit(TOY), ["i"], "spent")  # "spent" always follows "i"
    assert certain.prob == 1.0 and math.copysign(1.0, certain.surprisal) == 1.0  # 0.0, not -0.0
    step = shannon.play_step(["i", "spent", "money"], 0, None, toy_models)
    profile = shannon.context_profile([MLE(1).fit(TOY)], TOY)
    for record, field in ((certain, "rank"), (step, "hits"), (profile, "n_positions")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, 0)


def test_inner_apostrophes_and_hyphens_only_and_the_hint_only_for_words():
    assert shannon.check_guess("x-ray") == "x-ray" and shannon.check_guess("o'er") == "o'er"
    with pytest.raises(ValueError, match=r"\(an apostrophe or hyphen inside a word is fine\)"):
        shannon.check_guess("cheese!")
    with pytest.raises(ValueError, match=r"has punctuation \(!\): the corpus's tokens have none$"):
        shannon.check_guess("!", unit="char")


def test_positions_and_sizes_must_be_integers_not_booleans(toy_models):
    with pytest.raises(TypeError, match="position must be an int, got bool"):
        shannon.play_step(["i", "spent", "money"], True, None, toy_models)
    with pytest.raises(TypeError, match="n_positions must be an int, got bool"):
        shannon.context_profile([MLE(1).fit(TOY)], TOY, n_positions=True)
    with pytest.raises(TypeError, match=r"^model must be a fitted lmcore language model"):
        shannon.top_guesses("model")
    with pytest.raises(TypeError, match=r"^models\[1\] must be a fitted"):
        shannon.context_profile([MLE(1).fit(TOY), "bigram"], TOY)


def test_draw_sentence_bounds_are_inclusive_and_its_defaults():
    assert shannon.draw_sentence([["a"]], min_tokens=1, max_tokens=1) == ("a",)
    five, fifteen = ["x"] * 5, ["y"] * 15
    assert shannon.draw_sentence([["w"] * 4, five, ["z"] * 16]) == tuple(five)  # 5 to 15 tokens
    assert shannon.draw_sentence([["w"] * 4, fifteen, ["z"] * 16]) == tuple(fifteen)
    sentences = [[str(i)] * 5 for i in range(20)]
    drawn = shannon.draw_sentence(sentences)
    assert drawn == shannon.draw_sentence(sentences, seed=0) != shannon.draw_sentence(sentences, seed=1)


def test_context_profile_defaults_and_what_it_accepts():
    unigram = AddK(1).fit(TOY)  # add-one: P(<unk>) = 1 / (13 + 10)
    assert shannon.context_profile([unigram], [["zebra"]]).surprisal[0] == pytest.approx(math.log2(23))
    closed = MLE(1, convention="course").fit(TOY)  # no <unk>: an unknown word is impossible
    assert shannon.context_profile([closed], [["zebra"]]).surprisal[0] == math.inf
    many = TOY * 30  # 300 positions
    profile = shannon.context_profile({"unigram": unigram, "bigram": AddK(2).fit(TOY)}, many)
    assert profile.n_positions == 200 and profile.context_lengths == (0, 1)
    seeded = shannon.context_profile([unigram], many, seed=0)
    assert seeded.surprisal[0] == profile.surprisal[0] != shannon.context_profile([unigram], many, seed=1).surprisal[0]
    assert shannon.context_profile([unigram], TOY, n_positions=1).n_positions == 1


# --- odd inputs: the right answer or an error that names the argument -------------------------------


@pytest.mark.parametrize("text, expected", [
    ("Straße", "strasse"),  # ß has no decomposition: it was dropped ("strae")
    ("Æsir and Øresund", "aesir and oresund"),  # Æ, Ø were dropped
    ("word—word", "word word"),  # an em dash between two words was dropped, joining them ("wordword")
    ("don’t", "dont"),  # a typographic apostrophe is an apostrophe
    ("zero\u200bwidth", "zerowidth"),  # an invisible format character is nothing
    ("naïve café", "naive cafe"),
    ("中文 abc", "abc"),
])
def test_to_letters_outside_ascii(text, expected):
    assert shannon_letters.to_letters(text) == expected


def test_odd_arguments_of_the_game_are_named(toy_models):
    bigram = toy_models["bigram"]
    with pytest.raises(TypeError, match=r"^text\[0\] must contain only str tokens, got int 5$"):
        shannon_letters.to_letters([["a", 5]])  # was "sequence item 1: expected str instance"
    with pytest.raises(TypeError, match="^name must be a str, got int$"):
        shannon.predict(bigram, ["i"], "spent", name=5)  # was kept as the name 5
    with pytest.raises(TypeError, match="^previous must be the Step play_step returned .*got str$"):
        shannon.play_step(["i", "spent", "money"], 1, None, toy_models, previous="step 0")  # was an AttributeError
    with pytest.raises(TypeError, match="^models must be a list .*of fitted models, got MLE$"):
        shannon.context_profile(MLE(1).fit(TOY), TOY)  # was "'MLE' object is not iterable"
    with pytest.raises(ValueError, match="^seed must be at least 0, got -1$"):
        shannon.context_profile([MLE(1).fit(TOY)], TOY, seed=-1)  # was numpy's "expected non-negative integer"
    with pytest.raises(TypeError, match="^seed must be an int, got float$"):
        shannon.context_profile([MLE(1).fit(TOY)], TOY, seed=1.5)
    profile = shannon.context_profile((m for m in [MLE(1).fit(TOY)]), TOY, n_positions=10**12)  # a generator
    assert profile.n_positions == sum(map(len, TOY))  # every position, no more


def test_a_letter_model_that_answers_nan_is_refused():
    model = shannon.fit_letter_model("ab " * 20, order=2)
    model.id_probs = lambda grams, context_len: np.full(len(grams), np.nan)
    with pytest.raises(ValueError, match="^model KneserNey gave the probability nan"):
        shannon.letter_game(model, "ab a")  # ranked NaN as the least likely guess, silently
    with pytest.raises(ValueError, match="^model KneserNey gave the probability nan"):
        shannon.top_guesses(model, ["a"])  # was an empty list of guesses
