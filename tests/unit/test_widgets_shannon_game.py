"""The Shannon game and letter game explorers without a browser: type, click, read the shown numbers.

Observers and button callbacks run synchronously, so every assertion reads what a student would
see after the same action; the shown numbers are compared with lmcore.shannon's pure functions.
"""

import math
import re

import pytest
from widget_support import shown

from lmcore import shannon
from lmcore.i18n import set_language
from lmcore.ngram import KneserNey
from lmcore.shannon import letters as shannon_letters
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


def press_enter(text_box):
    """What the browser sends when the reader presses Enter in a text box."""
    text_box._handle_custom_msg({"event": "submit"}, [])


def test_enter_in_the_guess_box_guesses_and_enter_in_the_sentence_box_plays_it(game):
    first = game.sentence[0]
    game.guess.value = first
    press_enter(game.guess)
    assert len(game.steps) == 1 and game.steps[-1].hit and game.guess.value == ""
    game.guess._handle_custom_msg({"event": "something else"}, [])
    assert len(game.steps) == 1
    game.own.value = "the lord said"
    press_enter(game.own)
    assert game.sentence == ("the", "lord", "said") and game.steps == []


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


# --- in Chinese: the same games, every text a student reads in Chinese, the same numbers ------------


def numbers(page: str) -> list[tuple[str, str]]:
    """Every number a page shows in an ``lmcore-...`` span, with the span's class."""
    return re.findall(r'<span class="(lmcore-[^"]+)">([^<]*)</span>', page)


def as_in_chapter_1(setups):
    """The test's games under the names chapter 1 gives its languages."""
    return {"English (words)": setups["English"], "中文 (characters)": setups["中文"]}


def play_the_same_moves(game) -> list[str]:
    """An empty guess, a wrong one, a right one, then the models finish: the pages a student sees."""
    pages = [game.output.value]
    for text in ("", "zebra", game.sentence[1]):
        guess(game, text)
        pages.append(game.output.value)
    game.auto_button.click()
    return [*pages, game.output.value]


def test_the_shannon_game_in_chinese_reads_chinese_and_shows_the_english_games_numbers(setups, chinese):
    set_language("en")
    english = ShannonGameExplorer(as_in_chapter_1(setups), seed=0)
    english_pages = play_the_same_moves(english)
    set_language("zh")
    game = ShannonGameExplorer(as_in_chapter_1(setups), seed=0)
    assert (game.language.description, game.language.label, game.language.value) == (
        "语言", "英文（按词）", "English (words)")
    assert (game.guess_button.description, game.auto_button.description, game.new_button.description) == (
        "猜", "让模型来猜", "换一句")
    assert game.guess.placeholder == "你的猜测：一个词" and game.guess.description == "下一个词元"
    pages = play_the_same_moves(game)
    assert game.steps == english.steps and game.sentence == english.sentence
    assert [numbers(page) for page in pages] == [numbers(page) for page in english_pages]
    start, empty, wrong, right, finished = pages
    assert f"第 0 号句子（{len(game.sentence)} 个词）。请猜第 1 个词。" in start
    assert "这还不是有效的猜测：猜测是空的：请输入一个词。" in empty
    assert "这次没猜中" in wrong and "不在模型的词表里" in wrong
    assert '第 <span class="lmcore-step">1</span> 个词是' in wrong
    assert "<b>目前为止</b>" in wrong and "<th style='padding: 1px 10px'>一元模型</th>" in wrong
    assert "排名 " in wrong and " 比特" in wrong and "总惊奇度" in wrong
    assert "猜对了！" in right and "你猜的是 <b>" in right
    assert "句子已经完整了。你猜了 2 次，猜中 1 次。按“换一句”再来一句。" in finished and "（完）" in finished
    for english_text in ("Sentence number", "guess is empty", "So far", "rank", "bits", "Right!", "complete"):
        assert not any(english_text in re.sub("<[^>]+>", " ", page) for page in pages), english_text


def test_the_chinese_game_of_characters_and_typed_sentences_in_chinese(setups, chinese):
    game = ShannonGameExplorer(as_in_chapter_1(setups), language="中文 (characters)", seed=0)
    assert game.language.label == "中文（按字）" and game.guess.placeholder == "你的猜测：一个字"
    guess(game, "我们")
    assert "这还不是有效的猜测：猜测 &#x27;我们&#x27; 有 2 个字：请只输入一个字。" in game.output.value
    guess(game, "！")
    assert "含有标点（!）：语料库的词元都不含标点。" in game.output.value  # ！ is ! once normalised
    guess(game, game.sentence[0])
    assert "猜对了！" in game.output.value and '第 <span class="lmcore-step">1</span> 个字是' in game.output.value
    game.own.value = "我们"
    game.own_button.click()
    assert ("无法玩这个句子：句子只有 2 个词元，少于最大的模型阶数（3）：请换一个至少有 3 个词元的句子。"
            in game.output.value)
    game.own.value = "我们的人好"
    game.own_button.click()
    assert ("你的句子（5 个字）。其中有 1 个字是模型在训练中从未见过的（好），模型按 &lt;unk&gt; 给它们计分。"
            in game.output.value)
    game.auto_button.click()
    assert "模型猜了第 1 到第 5 个字。" in game.output.value and "（按 &lt;unk&gt; 计）" in game.output.value
    game.language.value = "English (words)"
    game.own.value = "!!!"
    game.own_button.click()
    assert "这个句子里没有可猜的词：请先输入一个句子。" in game.output.value


def test_the_letter_game_in_chinese_reads_chinese_and_counts_as_in_english(letter_model, chinese):
    def play(explorer) -> list[str]:
        pages = []
        for symbols in ("t", "ah", "zq", "e"):
            click(explorer, symbols)
            pages.append(explorer.output.value)
        return pages

    set_language("en")
    english = LetterGameExplorer(["the earth was good", "god said"], model=letter_model)
    english_pages = play(english)
    set_language("zh")
    explorer = LetterGameExplorer(["the earth was good", "god said"], model=letter_model)
    assert explorer.output.value.count("这个句子有 18 个符号。请猜第 1 个符号。") == 1
    assert explorer.new_button.description == "换一句"
    pages = play(explorer)
    assert explorer.counts == english.counts and explorer.report.upper == english.report.upper
    assert [numbers(page) for page in pages] == [numbers(page) for page in english_pages]
    assert "猜对了，用了 2 次。" in pages[1] and "不是 q：再试一次。" in pages[2]
    assert "第 3 个符号（共 18 个）；已经试过：z q" in pages[2]
    assert "<th style='text-align: left; padding-right: 8px'>文本</th>" in pages[3]
    assert "你的界：" in pages[3] and "比特/符号" in pages[3] and "模型在同样这些符号上的界：" in pages[3]
    assert "bits per symbol" not in pages[3] and "Symbol" not in pages[3]
    short = LetterGameExplorer("ab")
    click(short, "ca")
    assert "这些比例（你的）还没有这样递减" in short.output.value
    click(short, "b")
    assert "句子猜完了：按“换一句”再来一句。" in short.output.value
    assert "这些比例（模型的）还没有这样递减" in letter_html(letter_report("abc", [1, 1], model_ranks=[3, 1, 1]))


@pytest.mark.parametrize("call, error, words", [
    (lambda: letter_report("to be", [1, math.nan]), TypeError, r"^counts\[1\] must be an int, got float$"),
    (lambda: letter_report("to be", [1, 2.7]), TypeError, r"^counts\[1\] must be an int, got float$"),  # was 2
    (lambda: letter_report("to be", [1, 28]), ValueError, r"^counts\[1\] must be between 1 and 27, got 28$"),
    (lambda: letter_report("to be", None), TypeError, "^counts must be a list of numbers of guesses, got NoneType$"),
    (lambda: letter_report(None, [1]), TypeError, "^sentence must be a str, got NoneType$"),
    (lambda: letter_report("to be", [1], model_ranks=[1, None]), TypeError,
     r"^model_ranks\[1\] must be an int, got NoneType$"),
    (lambda: css_name(None), TypeError, "^name must be a str, got NoneType$"),
    (lambda: format_probability(None), TypeError, "^p must contain only numbers$"),
    (lambda: format_probability(math.nan), ValueError, "^p contains NaN$"),  # was shown as "nan"
])
def test_the_games_pure_functions_name_odd_input(call, error, words):
    # were len() or int() errors of a NoneType, an OverflowError, an AttributeError of .lower
    with pytest.raises(error, match=words):
        call()
