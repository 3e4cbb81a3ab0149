"""The Shannon game and letter game explorers without a browser: type, click, read the shown numbers.

Observers and button callbacks run synchronously, so every assertion reads what a student would
see after the same action; the shown numbers are compared with lmcore.shannon's pure functions.
"""

import re

import pytest

from lmcore import shannon, shannon_letters
from lmcore.ngram import KneserNey
from lmcore.widgets import (
    GameSetup,
    LetterGameExplorer,
    ShannonGameExplorer,
    css_name,
    format_probability,
    game_html,
    letter_html,
    letter_report,
    sentence_tokens,
)
from lmcore.widgets.base import STATIC_NOTE

ENGLISH = [s.split() for s in (
    "in the beginning god created the heavens and the earth",
    "the earth was formless and empty",
    "god said let there be light and there was light",
    "god saw the light and saw that it was good",
    "god called the light day and the darkness he called night",
    "there was evening and there was morning the first day",
)]
CHINESE = [list(s) for s in ("我们的新年新气象", "新年的人民日报", "人民的生活新气象", "我们的国家我们的人民")]


def shown(html: str, css_class: str) -> str:
    match = re.search(rf'<span class="{css_class}">([^<]*)</span>', html)
    assert match, f"no {css_class} in {html[:300]}"
    return match.group(1)


@pytest.fixture(scope="module")
def setups():
    def models(train):
        return {name: KneserNey(n).fit(train) for name, n in (("unigram", 1), ("bigram", 2), ("trigram", 3))}

    return {"English": GameSetup(models(ENGLISH), ENGLISH, "word", 6, 12),
            "中文": GameSetup(models(CHINESE), CHINESE, "char", 6, 10)}


@pytest.fixture
def game(setups):
    return ShannonGameExplorer(setups, seed=0)


def guess(game, text):
    game.guess.value = text
    game.guess_button.click()


def test_starts_with_a_hidden_seeded_sentence(game, setups):
    assert game.sentence == shannon.draw_sentence(ENGLISH, 0, 6, 12)
    assert game.steps == [] and "___" in game.output.value
    assert "Sentence number 0" in game.output.value
    assert game.sentence[0] not in game.output.value.split("Sentence number")[0]


def test_a_guess_shows_what_play_step_computes(game, setups):
    first = game.sentence[0]
    guess(game, first.upper())
    step = game.steps[-1]
    expected = shannon.play_step(game.sentence, 0, first, setups["English"].models)
    assert step == expected and step.hit
    page = game.output.value
    assert "Right!" in page and game.guess.value == ""
    for p in step.predictions:
        name = css_name(p.name)
        assert shown(page, f"lmcore-rank-{name}") == str(p.rank)
        assert shown(page, f"lmcore-prob-{name}") == format_probability(p.prob)
        assert shown(page, f"lmcore-tally-bits-{name}") == f"{p.surprisal:.2f}"
    assert shown(page, "lmcore-tally-you") == "1"


def test_a_wrong_and_an_unknown_guess(game):
    guess(game, "zebra")
    page = game.output.value
    assert game.steps[-1].hit is False and "Not this time" in page
    assert "not in the models&#x27; vocabulary" in page or "not in the models' vocabulary" in page


@pytest.mark.parametrize("text, words", [
    ("", "guess is empty"),
    ("   ", "guess is empty"),
    ("the earth", "has a space in it"),
    ("earth!", "punctuation"),
])
def test_bad_guesses_get_a_message_and_no_step(game, text, words):
    guess(game, text)
    assert game.steps == []
    assert words in game.output.value and "Traceback" not in game.output.value
    assert 'class="lmcore-message"' in game.output.value


def test_let_the_models_play_finishes_the_sentence(game, setups):
    guess(game, "god")
    game.auto_button.click()
    assert len(game.steps) == len(game.sentence)
    assert [s.guess for s in game.steps[1:]] == [None] * (len(game.sentence) - 1)
    expected = shannon.play(game.sentence, ["god"] + [None] * (len(game.sentence) - 1), setups["English"].models)
    assert tuple(game.steps) == expected
    assert game.guess_button.disabled and game.auto_button.disabled
    assert "complete" in game.output.value and "(end)" in game.output.value
    guess(game, "more")
    assert len(game.steps) == len(game.sentence)


def test_new_sentence_and_language(game):
    first = game.sentence
    game.new_button.click()
    assert game.seed == 1 and game.sentence == shannon.draw_sentence(ENGLISH, 1, 6, 12)
    game.language.value = "中文"
    assert all(len(t) == 1 for t in game.sentence) and game.sentence in [tuple(s) for s in CHINESE]
    guess(game, "我们")
    assert "has 2 characters" in game.output.value and game.steps == []
    guess(game, game.sentence[0])
    assert game.steps[-1].hit
    assert first != game.sentence


@pytest.mark.parametrize("text, words", [
    ("", "has no words to play"),
    ("God saw", "fewer than the largest model order (3)"),
])
def test_own_sentences_that_cannot_be_played(game, text, words):
    before = game.sentence
    game.own.value = text
    game.own_button.click()
    assert words in game.output.value and game.sentence == before


def test_an_own_sentence_with_unknown_words(game):
    game.own.value = "God saw the zebra!"
    game.own_button.click()
    assert game.sentence == ("god", "saw", "the", "zebra") and game.steps == []
    assert "zebra" in game.output.value and "&lt;unk&gt;" in game.output.value
    game.auto_button.click()
    assert game.steps[-1].predictions[0].scored_as == "<unk>"
    assert "(as &lt;unk&gt;)" in game.output.value


def test_static_picture_and_bad_setups(game, setups):
    bundle = game._repr_mimebundle_()
    assert STATIC_NOTE in bundle["text/html"] and "ShannonGameExplorer" in bundle["text/plain"]
    with pytest.raises(ValueError, match="non-empty mapping"):
        ShannonGameExplorer({})
    with pytest.raises(TypeError, match="must be a GameSetup"):
        ShannonGameExplorer({"x": setups["English"].models})
    with pytest.raises(ValueError, match="language must be one of"):
        ShannonGameExplorer(setups, language="Klingon")


def test_render_helpers():
    assert sentence_tokens("Let there be light.") == ["let", "there", "be", "light"]
    assert sentence_tokens("新年好！", unit="char") == ["新", "年", "好"]
    with pytest.raises(ValueError, match="unit must be"):
        sentence_tokens("a", unit="letter")
    assert [format_probability(p) for p in (0.5, 0.001, 0.000999, 0.0)] == ["0.5000", "0.0010", "9.99e-04", "0"]
    assert css_name("4-gram (KN)") == "4-gram--kn-"
    assert "(end)" in game_html(["a"], shannon.play(["a"], ["a"], {"u": KneserNey(1).fit([["a", "b"]])}))


# --- the letter game ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def letter_model():
    return shannon_letters.fit_letter_model(shannon_letters.to_letters(ENGLISH * 5), order=3)


def click(explorer, symbols):
    for symbol in symbols:
        explorer.buttons[symbol].click()


def test_letter_game_counts_tries_and_shows_the_bounds(letter_model):
    explorer = LetterGameExplorer(["the earth was good", "god said"], model=letter_model)
    click(explorer, "t")                 # 1 try
    click(explorer, "ah")                # 2 tries
    assert explorer.buttons["a"].disabled is False  # reset for the next symbol
    click(explorer, "ae")                # 2 tries: a is wrong again here
    assert explorer.counts == [1, 2, 2]
    report = explorer.report
    q = shannon_letters.guess_frequencies([1, 2, 2])
    assert (report.lower, report.upper) == shannon_letters.shannon_bounds(q)
    ranks = shannon_letters.letter_game(letter_model, "the earth was good").ranks[:3]
    assert report.model_counts == tuple(ranks.tolist())
    page = explorer.output.value
    assert shown(page, "lmcore-upper") == f"{report.upper:.4f}" and shown(page, "lmcore-done") == "3"
    assert shown(page, "lmcore-model-lower") == f"{report.model_lower:.4f}"


def test_a_wrong_symbol_is_disabled_and_repeats_are_ignored():
    explorer = LetterGameExplorer("ab")
    click(explorer, "z")
    assert explorer.buttons["z"].disabled and explorer.tried == "z" and "Not z: try again" in explorer.output.value
    explorer._on_symbol("z")  # a disabled button cannot be clicked; a repeat would not count anyway
    assert explorer.tried == "z"
    click(explorer, "a")
    assert explorer.counts == [2] and explorer.tried == ""


def test_the_letter_game_ends_and_starts_again():
    explorer = LetterGameExplorer(["a b", "cd"])
    click(explorer, "a b")
    assert explorer.counts == [1, 1, 1] and all(b.disabled for b in explorer.buttons.values())
    assert "complete" in explorer.output.value
    explorer.new_button.click()
    assert explorer.sentence == "cd" and explorer.counts == [] and not explorer.buttons["c"].disabled
    assert "lmcore-upper" not in explorer.output.value


def test_letter_explorer_input_is_checked():
    with pytest.raises(ValueError, match="at least one sentence with letters"):
        LetterGameExplorer(["!!!"])
    assert LetterGameExplorer("Hello, World!").sentence == "hello world"
    with pytest.raises(ValueError, match="counts has 3 entries"):
        letter_report("ab", [1, 1, 1])
    assert STATIC_NOTE in LetterGameExplorer("ab")._repr_mimebundle_()["text/html"]


def test_bounds_from_fractions_that_do_not_fall_get_a_note():
    explorer = LetterGameExplorer("ab")
    click(explorer, "ca")  # 2 tries for the first symbol: q_1 = 0 < q_2 = 1
    report = explorer.report
    assert not report.decreasing and report.lower > report.upper
    assert "(yours) do not fall like that yet" in explorer.output.value
    click(explorer, "b")  # 1 try: q_1 = q_2 = 0.5
    assert explorer.report.decreasing and "do not fall" not in explorer.output.value


def test_the_models_fractions_get_the_note_too():
    report = letter_report("abc", [1, 1], model_ranks=[3, 1, 1])  # the model's q_1 = q_3 = 0.5, q_2 = 0
    assert report.decreasing and not report.model_decreasing
    assert "(the model&#x27;s) do not fall" in letter_html(report)  # the apostrophe, escaped
