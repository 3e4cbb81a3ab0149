"""The BLEU explorer without a browser: type into its boxes (set ``.value``), read what it shows."""

import dataclasses
import re

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU
from widget_support import shown, spans, visible_text

from lmcore import __version__
from lmcore.i18n import set_language
from lmcore.widgets import BLEU_PRESETS, MAX_REFERENCES, BleuExplorer, BleuPreset, bleu_html, bleu_report
from lmcore.widgets import bleu as bleu_widget


def sacrebleu_score(hypothesis, references, tokenize="13a", max_order=4) -> float:
    metric = BLEU(tokenize=tokenize, smooth_method="none", max_ngram_order=max_order)
    return metric.corpus_score([hypothesis], [[r] for r in references if r.strip()]).score


@pytest.fixture(scope="module")
def explorer():
    return BleuExplorer()


def type_into(explorer, hypothesis=None, references=None, tokenize=None, max_order=None):
    if hypothesis is not None:
        explorer.hypothesis.value = hypothesis
    for box, text in zip(explorer.references, references or []):
        box.value = text
    if tokenize is not None:
        explorer.tokenize.value = tokenize
    if max_order is not None:
        explorer.max_order.value = max_order
    return explorer.output.value


@pytest.mark.parametrize("name, score", [
    ("course example 1: 0.4082", "0.4082"), ("course example 2: two references, 0.7071", "0.7071"),
    ("course example 3, 2nd sentence: p₂ = 0", "0.0000"), ("clipping: the the the", "0.2857"),
    ("too short: A B (brevity penalty)", "0.1353"), ("unspaced Chinese: try zh, char, 13a", "0.4472"),
])
def test_every_preset_shows_the_course_number_and_sacrebleu_agrees(explorer, name, score):
    explorer.preset.value = name
    preset = BLEU_PRESETS[name]
    assert explorer.hypothesis.value == preset.hypothesis and explorer.tokenize.value == preset.tokenize
    html = explorer.output.value
    assert shown(html, "lmcore-bleu-score") == score
    expected = sacrebleu_score(preset.hypothesis, preset.references, preset.tokenize, preset.max_order)
    assert shown(html, "lmcore-sacrebleu-score") == f"{expected:.2f}" == shown(html, "lmcore-bleu-score100")
    explorer.preset.value = "course example 1: 0.4082"


def test_the_table_shows_counts_and_clipping():
    report = bleu_report("the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"],
                         max_order=1)
    (row,) = report.rows
    assert (row.count, row.ref_counts, row.clipped_count) == (7, (2, 1), 2)
    html = bleu_html(report)
    assert "clip at (most in one ref)" in html and "<b>2</b> (clipped)" in html and shown(html, "lmcore-p1") == "0.2857"
    brief = bleu_report("A B", ["A B C D E F"], max_order=2)
    assert shown(bleu_html(brief), "lmcore-bp") == "0.1353" and "exp(1 − 6/2)" in bleu_html(brief)


def test_typing_a_hypothesis_updates_every_number():
    explorer = BleuExplorer()
    html = type_into(explorer, hypothesis="我 是 一位 学生")
    assert shown(html, "lmcore-p1") == "0.7500" and shown(html, "lmcore-p2") == "0.3333"
    assert shown(html, "lmcore-bleu-score") == "0.5000" and shown(html, "lmcore-sacrebleu-score") == "50.00"
    html = type_into(explorer, references=["", "我 是 一位 学生"])  # box 1 emptied: the other reference counts
    assert shown(html, "lmcore-bleu-score") == "1.0000" and explorer.result.reference_numbers == (2,)
    assert "reference 2 (4 tokens)" in html and "in ref 2" in html


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_every_tokenizer_agrees_with_sacrebleu(tokenize):
    hypothesis = "He said: the cat's mat, 我是学生 (2nd try)!"
    references = ["The cat sat on the mat.", "he said the cat's mat — 我是一个学生", "", "2nd: the mat"]
    explorer = BleuExplorer()
    html = type_into(explorer, hypothesis, references, tokenize=tokenize, max_order=3)
    assert explorer.result.result.score100 == pytest.approx(sacrebleu_score(hypothesis, references, tokenize, 3),
                                                           abs=1e-9)
    assert "the same" in html and "DIFFERENT" not in html


def test_empty_hypothesis_is_a_correct_zero_with_a_message():
    html = bleu_html(bleu_report("   ", ["a b c"]))
    assert shown(html, "lmcore-bleu-score") == "0.0000" and shown(html, "lmcore-sacrebleu-score") == "0.00"
    assert "The hypothesis is empty" in html and shown(html, "lmcore-bp") == "0.0000"


def test_no_reference_gives_a_message_and_no_score():
    report = bleu_report("a b c", ["", " ", "", ""])
    assert report.result is None and report.sacrebleu_score is None
    html = bleu_html(report)
    assert "Type at least one reference" in html and "lmcore-bleu-score" not in html


def test_a_2000_word_paste_is_scored_in_full_and_the_table_is_cut():
    words = [f"w{i % 700}" for i in range(2000)]
    hypothesis, reference = " ".join(words), " ".join(reversed(words))
    report = bleu_report(hypothesis, [reference])
    html = bleu_html(report)
    assert report.result.score100 == pytest.approx(sacrebleu_score(hypothesis, [reference]), abs=1e-9)
    assert html.count("<tr>") < 4 * bleu_widget.ROWS_SHOWN_PER_ORDER + 10
    assert "The table shows the first 30 of 700 distinct 1-grams" in html and "(+1,940 more)" in html


@pytest.mark.parametrize("hypothesis, references, tokenize, message", [
    ("我是一个学生", ["我是一个学生"], "13a", "Chinese without spaces"),
    ("我是 a student", ["我是 a teacher"], "13a", "Mixed scripts"),
    ("x", ["y"], "char", "No 1-gram of the hypothesis is in any reference"),
    ("a b", ["a b c"], "13a", "has 2 token(s), so no 3-grams at all"),
])
def test_odd_input_gets_a_message(hypothesis, references, tokenize, message):
    report = bleu_report(hypothesis, references, tokenize=tokenize)
    assert any(message in note for note in report.messages), report.messages
    assert report.result.score100 == pytest.approx(sacrebleu_score(hypothesis, references, tokenize), abs=1e-9)


def test_emoji_control_characters_and_scripts_never_raise():
    explorer = BleuExplorer()
    for text in ["😀 🎉 мир", "\t\x00 a", "ا ب ت", "a" * 5000, "<b>bold</b> & \"quotes\""]:
        html = type_into(explorer, hypothesis=text, references=[text, "", "", ""])
        assert "lmcore-bleu-score" in html and "Traceback" not in html
    assert "&lt;b&gt;bold" in explorer.output.value  # shown as text, never as HTML


def test_an_unexpected_error_becomes_a_message(monkeypatch):
    explorer = BleuExplorer()

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bleu_widget, "bleu_report", broken)
    explorer.hypothesis.value = "anything"
    assert "Could not score this input: disk on fire" in explorer.output.value and explorer.result is None


def test_each_keystroke_in_a_50_word_sentence_is_scored_again():
    """(How fast, under 100 ms a keystroke, is benchmarks/bench_widgets.py's.)"""
    explorer = BleuExplorer()
    words = "the cat sat on the mat and then it went home to sleep for a very long time".split()
    sentences = [" ".join(words[(i * k) % len(words)] for i in range(50)) for k in range(1, 6)]
    type_into(explorer, sentences[0], sentences[1:], max_order=4)
    for i in range(3):
        explorer.hypothesis.value = sentences[0] + f" w{i}"
        expected = sacrebleu_score(explorer.hypothesis.value, sentences[1:])
        assert explorer.result.result.score100 == pytest.approx(expected, abs=1e-9)


def test_extra_presets_static_picture_and_bad_arguments():
    preset = BleuPreset("a b c d", ("a b c d e",), "13a", 4)
    explorer = BleuExplorer(preset="mine", presets={"mine": preset})
    assert explorer.hypothesis.value == "a b c d" and "mine" in explorer.preset.options
    bundle = explorer._repr_mimebundle_()
    assert "lmcore-bleu-score" in bundle["text/html"] and bundle["text/plain"].startswith("BleuExplorer")
    with pytest.raises(ValueError, match="preset must be one of"):
        BleuExplorer(preset="nope")
    with pytest.raises(TypeError, match="must be a BleuPreset"):
        BleuExplorer(presets={"bad": ("a", ("b",))})
    with pytest.raises(ValueError, match=f"at most {MAX_REFERENCES} references"):
        bleu_report("a", ["a"] * 5)
    with pytest.raises(ValueError, match="tokenize must be one of"):
        bleu_report("a", ["a"], tokenize="spacy")
    with pytest.raises(TypeError, match="hypothesis must be a str"):
        bleu_report(["a"], ["a"])
    with pytest.raises(TypeError, match="references must be a list"):
        bleu_report("a", "a")


# --- edges the mutation run of issue 24 found unpinned -------------------------------------


def test_the_page_reads_as_every_count_of_bleu():
    # p_1 = (2 + 1 + 0) / 5 (the clipped at 2), p_2 = (0 + 1 + 0) / 4, r = 6 (closest to c = 5):
    # BLEU = exp(1 - 6/5) * sqrt(0.6 * 0.25) = 0.8187 * 0.3873 = 0.3171
    references = ["the cat is on the mat", "there is a cat on the mat"]
    page = visible_text(bleu_html(bleu_report("the the the cat dog", references, max_order=2)))
    assert page == (
        "hypothesis (5 tokens): the | the | the | cat | dog "
        "reference 1 (6 tokens): the | cat | is | on | the | mat "
        "reference 2 (7 tokens): there | is | a | cat | on | the | mat "
        "n n-gram count in hypothesis in ref 1 in ref 2 clip at (most in one ref) clipped count "
        "1 the 3 2 1 2 2 (clipped) 1 cat 1 1 1 1 1 1 dog 1 0 0 0 0 (in no reference) "
        "2 the the 2 0 0 0 0 (in no reference) 2 the cat 1 1 0 1 1 2 cat dog 1 0 0 0 0 (in no reference) "
        "order clipped matches hypothesis n-grams p n weight p 1 3 5 0.6000 0.5000 p 2 1 4 0.2500 0.5000 "
        "c = 5 hypothesis tokens, r = 6 (the closest reference length); brevity penalty BP = exp(1 − 6/5) = 0.8187 "
        "BLEU = 0.3171 (0-100 scale: 31.71 ); sacrebleu: 31.71 (its 0-100 scale; the same) "
        f"lmcore: #:2|c:mixed|e:no|tok:13a|s:none|N:2|w:uniform|v:lmcore-{__version__} "
        f"sacrebleu: nrefs:2|case:mixed|eff:no|tok:13a|smooth:none|version:{sacrebleu.__version__}")


def test_a_disagreement_with_sacrebleu_would_show():
    report = bleu_report("a b c", ["a b c"], max_order=2)
    assert "the same" in bleu_html(report)
    assert "(its 0-100 scale; DIFFERENT)" in visible_text(bleu_html(dataclasses.replace(report, sacrebleu_score=99.0)))


@pytest.mark.parametrize("hypothesis, reference, formula", [
    ("a b c", "a b", "1 (c > r) = 1.0000"), ("a b", "a b", "exp(1 − 2/2) = 1.0000"),
    ("a", "a b", "exp(1 − 2/1) = 0.3679"), ("", "a b", "0 (c = 0) = 0.0000"),
])
def test_the_brevity_penalty_formula_follows_c_and_r(hypothesis, reference, formula):
    assert f"brevity penalty BP = {formula}" in visible_text(bleu_html(bleu_report(hypothesis, [reference])))


def test_tokens_orders_without_ngrams_and_the_cut_of_long_lists():
    empty = visible_text(bleu_html(bleu_report("", ["a b"], max_order=1)))
    assert empty.startswith("hypothesis (0 tokens): (no tokens) reference 1 (2 tokens): a | b (no n-grams) order")
    assert shown(bleu_html(bleu_report("a b", ["a b c"])), "lmcore-p3") == "—"  # no trigram: p_3 is 0/0
    sixty = " ".join(f"w{i}" for i in range(bleu_widget.TOKENS_SHOWN))
    assert "more)" not in bleu_html(bleu_report(sixty, ["w0"], max_order=1))
    long_page = bleu_html(bleu_report(sixty + " w60 w61", ["w0"], max_order=1))
    assert "w59</code> … (+2 more)</div>" in long_page
    assert re.search(r">The table shows the first 30 of 62 distinct 1-grams; the counts and the scores below use "
                     r"all of them\.<", long_page)
    assert visible_text(bleu_html(bleu_report("a b", [""]))) == (
        "hypothesis (2 tokens): a | b Type at least one reference: BLEU compares the hypothesis with reference "
        "translations.")
    thirty = " ".join(f"w{i}" for i in range(bleu_widget.ROWS_SHOWN_PER_ORDER))
    page = bleu_html(bleu_report(thirty, ["w0"], max_order=1))
    assert page.count("<tr>") == 1 + 30 + 1 + 1 and "The table shows the first" not in page  # headers, rows, p_1


def test_messages_say_exactly_what_is_odd_and_in_order():
    unspaced = ("A sentence is Chinese without spaces, and tokenize='13a' splits only at spaces (and punctuation), "
                "so it is one single token. Choose zh or char to score it character by character, or put spaces "
                "between the words.")
    no_match = ("No {n}-gram of the hypothesis is in any reference, so p_{n} = 0 and the geometric mean is 0: "
                "unsmoothed BLEU is 0 (smoothing, in chapter 6's \"Going further\", avoids it).")
    assert bleu_report("我是学生", [""]).messages == (
        "Type at least one reference: BLEU compares the hypothesis with reference translations.", unspaced)
    assert bleu_report("", ["我是学生"]).messages == (
        "The hypothesis is empty: c = 0, so the brevity penalty is 0 and BLEU is 0.", unspaced)
    assert bleu_report("我是 a student", ["我是 a teacher"]).messages == (
        "Mixed scripts: with tokenize='13a', Chinese characters between two spaces count as one token; zh splits "
        "them into characters and keeps the rest as 13a does.", no_match.format(n=3))
    for tokenize in ("zh", "char"):  # these split Chinese characters: nothing mixed to say
        assert bleu_report("我是 a student", ["我是 a teacher"], tokenize=tokenize).messages == (no_match.format(n=4),)
    assert bleu_report("x", ["y"], tokenize="char").messages == (no_match.format(n=1),)
    too_short = bleu_report("a b", ["a b c"])
    assert too_short.messages == ("The hypothesis has 2 token(s), so no 3-grams at all: with N = 4, unsmoothed BLEU "
                                  "is 0 (lower N, or see sacrebleu's effective order).",)
    assert too_short.sacrebleu_score == 0.0  # sacrebleu without effective order, as lmcore
    assert bleu_report("the cat", ["the cat"], max_order=2).messages == ()


def test_presets_are_the_courses_examples():
    assert BleuPreset("a", ("a",)) == BleuPreset("a", ("a",), "13a", 4)
    assert BLEU_PRESETS["course example 2: two references, 0.7071"] == BleuPreset(
        "我 是 一位 老师", ("我 是 一个 学生", "我 是 一位 学生 。"), "none", 2)
    assert BLEU_PRESETS["course example 3, 2nd sentence: p₂ = 0"] == BleuPreset(
        "跟我 学 深度学习", ("跟我 一起 学 机器学习",), "none", 2)
    assert BLEU_PRESETS["clipping: the the the"] == BleuPreset(
        "the the the the the the the", ("the cat is on the mat", "there is a cat on the mat"), "13a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        BLEU_PRESETS["clipping: the the the"].max_order = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        bleu_report("a", ["a"]).max_order = 2


# --- the Chinese edition: the same explorer, its text in Chinese, its numbers the same ----------


def digits(html: str) -> list[str]:
    """Every number on the page as it reads, in order (the signatures left out: they name versions)."""
    return re.findall(r"\d+(?:\.\d+)?", visible_text(html.split("lmcore: <code>")[0]))


def test_the_chinese_explorer_shows_chinese_and_the_english_numbers():
    english = BleuExplorer()
    pages = {}
    for name in BLEU_PRESETS:
        english.preset.value = name
        pages[name] = english.output.value
    set_language("zh")
    try:
        explorer = BleuExplorer()
        assert explorer.preset.value == "course example 1: 0.4082" and explorer.preset.label == "课程例 1：0.4082"
        assert ("截断：the the the", "clipping: the the the") in explorer.preset.options  # shown, value
        assert (explorer.preset.description, explorer.hypothesis.description, explorer.references[1].description,
                explorer.tokenize.description, explorer.max_order.description) == (
            "预设", "候选译文", "参考译文 2", "分词器", "最大阶数 N")
        assert explorer.tokenize.options == tuple(bleu_widget.bleu.TOKENIZERS)  # values code compares: English
        for name in BLEU_PRESETS:
            explorer.preset.value = name
            html = explorer.output.value
            assert spans(html) == spans(pages[name]) and len(spans(html)) >= 5, name
            assert digits(html) == digits(pages[name]), name  # every count and score, in the same order
            assert "截断后的次数" in html and "简短惩罚 BP = " in html and "候选译文（" in html
        page = visible_text(explorer.output.value)  # the last preset: unspaced Chinese, tokenize zh
        assert page.startswith("候选译文（6 个词元）： 我 | 是 | 一 | 位 | 老 | 师 参考译文 1（6 个词元）：")
        assert "n n 元组 在候选译文中的次数 在参考译文 1 中 截断上限（单条参考译文中的最多次数） 截断后的次数" in page
        assert "阶数 截断后的匹配数 候选译文的 n 元组数 p n 权重" in page
        assert "（0～100 分制： 44.72 ）；sacrebleu： 44.72 （它用 0～100 分制；两者相同）" in page
        html = type_into(explorer, hypothesis="我是一个学生", references=["我是一个学生"], tokenize="13a")
        assert "有一个句子是不带空格的中文，而 tokenize=&#x27;13a&#x27; 只在空格（和标点）处切分" in html
        assert shown(html, "lmcore-bleu-score") == "0.0000"  # one token each, no 2-gram at all
        assert "候选译文只有 1 个词元，根本没有长度为 2 的 n 元组：N = 2 时，不加平滑的 BLEU 为 0" in html
        html = type_into(explorer, hypothesis="", references=["a b"])
        assert "候选译文为空：c = 0，所以简短惩罚为 0，BLEU 也为 0。" in html and "（没有词元）" in html
        assert "BLEU 是拿候选译文与参考译文作比较" in type_into(explorer, hypothesis="a", references=[""])
        assert "逐项计数看 BLEU" in explorer._repr_mimebundle_()["text/html"]
    finally:
        set_language("en")
    assert BleuExplorer().preset.label == "course example 1: 0.4082"  # English again, as it was


def test_chinese_messages_table_notes_and_errors(chinese, monkeypatch):
    assert bleu_report("x", ["y"], tokenize="char").messages == (
        "候选译文中长度为 1 的 n 元组没有一个出现在参考译文中，所以 p_1 = 0，几何平均也是 0：不加平滑的 BLEU 为 0"
        "（第 6 章“深入一步”中的平滑可以避免这种情况）。",)
    assert bleu_report("我是 a student", ["我是 a teacher"]).messages[0].startswith(
        "中英文混排：用 tokenize='13a' 时，两个空格之间的汉字算作一个词元")
    sixty = " ".join(f"w{i}" for i in range(bleu_widget.TOKENS_SHOWN + 2))
    page = bleu_html(bleu_report(sixty, ["w0 w1"], max_order=1))
    assert "w59</code> …（另有 2 个）</div>" in page and "0（不在任何参考译文中）" in page
    assert "长度为 1 的不同 n 元组共 62 个，表中只列出前 30 个；计数和下方的分数用到了全部 n 元组。" in page
    assert "<b>2</b>（已截断）" in bleu_html(bleu_report("a a a", ["a a"], max_order=1))
    assert "（它用 0～100 分制；两者不同！）" in bleu_html(dataclasses.replace(bleu_report("a b", ["a b"], max_order=2),
                                                           sacrebleu_score=99.0))
    extra = BleuExplorer(preset="mine", presets={"mine": BleuPreset("a b", ("a b c",), "13a", 2)})
    assert ("mine", "mine") in extra.preset.options and extra.preset.label == "mine"  # no translation: as given

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bleu_widget, "bleu_report", broken)
    extra.hypothesis.value = "anything"
    assert "无法为这组输入计分：disk on fire" in extra.output.value
