"""The BLEU explorer without a browser: type into its boxes (set ``.value``), read what it shows."""

import re
import statistics
import time

import pytest
from sacrebleu.metrics import BLEU

from lmcore.widgets import BLEU_PRESETS, MAX_REFERENCES, BleuExplorer, BleuPreset, bleu_html, bleu_report
from lmcore.widgets import bleu as bleu_widget


def shown(html: str, css_class: str) -> str:
    match = re.search(rf'<span class="{css_class}">([^<]*)</span>', html)
    assert match, f"no {css_class} in {html[:300]}"
    return match.group(1)


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
    start = time.perf_counter()
    report = bleu_report(hypothesis, [reference])
    html = bleu_html(report)
    assert time.perf_counter() - start < 2.0
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


def test_an_update_takes_under_100_ms_for_50_word_sentences():
    explorer = BleuExplorer()
    words = "the cat sat on the mat and then it went home to sleep for a very long time".split()
    sentences = [" ".join(words[(i * k) % len(words)] for i in range(50)) for k in range(1, 6)]
    type_into(explorer, sentences[0], sentences[1:], max_order=4)
    times = []
    for i in range(7):
        start = time.perf_counter()
        explorer.hypothesis.value = sentences[0] + f" w{i}"
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.1, times


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
