"""Chapter 4's explorers without a browser: the branching factor and the fair-comparison table.

Observers run synchronously when a test sets ``.value``, so each assertion reads
what a student would see after the same move.
"""

import math
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from widget_support import PNG, shown, spans

from lmcore import evaluate, info
from lmcore.ngram import Interpolated
from lmcore.text import Vocabulary
from lmcore.widgets import (
    BranchingExplorer,
    FairnessExplorer,
    FairnessRow,
    branching_figure,
    branching_html,
    branching_report,
    fairness_grid,
    fairness_html,
    fairness_report,
)

# --- branching factor: the pure function ------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 10, 26, 1000])
def test_uniform_choice_among_k_has_perplexity_k(k):
    report = branching_report(k)
    assert report.perplexity == pytest.approx(k, rel=1e-12)
    assert report.entropy == pytest.approx(math.log2(k)) == pytest.approx(report.max_entropy)
    assert report.p.sum() == pytest.approx(1.0)


def test_skew_moves_probability_to_the_first_outcome_and_lowers_perplexity():
    perplexities = [branching_report(10, s).perplexity for s in np.linspace(0, 1, 11)]
    assert all(a > b for a, b in zip(perplexities, perplexities[1:]))
    assert perplexities[-1] == 1.0                      # a certain outcome: a perfect model
    half = branching_report(4, 0.5)
    assert half.p.tolist() == pytest.approx([0.625, 0.125, 0.125, 0.125])
    assert half.perplexity == pytest.approx(2 ** info.entropy(half.p))
    assert 1 < half.perplexity < 4


@pytest.mark.parametrize("k, skew, error", [
    (0, 0.0, ValueError), (-3, 0.0, ValueError), (2.5, 0.0, TypeError), (True, 0.0, TypeError),
    (10, 1.5, ValueError), (10, -0.1, ValueError), (10, "a lot", TypeError),
])
def test_branching_report_rejects_bad_arguments(k, skew, error):
    with pytest.raises(error, match="k must|skew must"):
        branching_report(k, skew)


def test_branching_render():
    report = branching_report(10, 0.5)
    page = branching_html(report)
    assert shown(page, "lmcore-perplexity") == f"{report.perplexity:.4f}"
    assert shown(page, "lmcore-entropy") == f"{report.entropy:.4f}"
    assert shown(page, "lmcore-top-probability") == "0.5500"
    figure = branching_figure(report)
    assert len(figure.axes[0].patches) == 10
    plt.close(figure)


# --- branching factor: the widget --------------------------------------------------------


def test_branching_explorer_starts_at_ten_digits():
    explorer = BranchingExplorer()
    assert shown(explorer.output.value, "lmcore-perplexity") == "10.0000"
    assert shown(explorer.output.value, "lmcore-entropy") == "3.3219"
    assert bytes(explorer.figure.value).startswith(PNG)


def test_branching_explorer_follows_both_sliders():
    explorer = BranchingExplorer(k=10)
    explorer.k.value = 26
    assert shown(explorer.output.value, "lmcore-perplexity") == "26.0000"
    assert len(explorer._bars) == 26
    explorer.skew.value = 0.5
    expected = branching_report(26, 0.5)
    assert explorer.result.perplexity == expected.perplexity
    assert shown(explorer.output.value, "lmcore-perplexity") == f"{expected.perplexity:.4f}"
    assert [bar.get_height() for bar in explorer._bars] == pytest.approx(expected.p.tolist())
    explorer.skew.value = 1.0
    assert shown(explorer.output.value, "lmcore-perplexity") == "1.0000"
    explorer.k.value = 2                                   # a new picture with two bars, skew kept
    assert len(explorer._bars) == 2 and explorer.result.skew == 1.0


def test_branching_explorer_updates_do_not_pile_up_figures():
    explorer = BranchingExplorer()
    before = len(plt.get_fignums())
    first = bytes(explorer.figure.value)
    for value in (3, 7, 12, 30):
        explorer.k.value = value
        explorer.skew.value = value / 40
    assert len(plt.get_fignums()) == before
    assert bytes(explorer.figure.value) != first


def test_branching_explorer_checks_its_arguments_and_displays_as_its_widget():
    with pytest.raises(ValueError, match="between 2 and max_k"):
        BranchingExplorer(k=40)
    explorer = BranchingExplorer(k=5)
    bundle = explorer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id
    assert bundle["text/plain"].startswith("BranchingExplorer: an interactive widget")


# --- fair comparison: the pure functions ------------------------------------------------


def _text(n_sentences, seed):
    """Sentences of 'words' made of a few letters: a word unit and a character unit of the same text."""
    letters = np.random.default_rng(99)  # one lexicon for every part
    lexicon = sorted({"".join(letters.choice(list("abcdefgh"), size=letters.integers(1, 6))) for _ in range(400)})
    weights = 1 / np.arange(1, len(lexicon) + 1)
    rng = np.random.default_rng(seed)
    words = [list(rng.choice(lexicon, size=rng.integers(3, 9), p=weights / weights.sum()))
             for _ in range(n_sentences)]
    return words, [list("".join(s)) for s in words]


@pytest.fixture(scope="module")
def data():
    (w_train, c_train), (w_held, c_held), (w_test, c_test) = _text(300, 0), _text(60, 1), _text(60, 2)
    return {"word": (w_train, w_held, w_test), "char": (c_train, c_held, c_test)}


@pytest.fixture(scope="module")
def grid(data):
    return fairness_grid(data, min_counts=(1, 2, 5), order=2)


def test_grid_rows_are_lmcore_evaluate(data, grid):
    train, heldout, test = data["word"]
    model = Interpolated(2).fit(train, vocab=Vocabulary.build(train, 2))
    model.fit_lambdas(heldout)
    result = evaluate.evaluate(model, test)
    row = grid["word", 2]
    assert row.perplexity == result.perplexity and row.n_tokens == result.n_tokens
    assert row.vocabulary == len(model.outcomes)
    assert row.oov_rate == result.n_oov / sum(map(len, test))
    assert row.total_bits == pytest.approx(result.n_tokens * math.log2(result.perplexity))


def test_grid_bits_per_character_share_one_denominator(data, grid):
    test = data["char"][2]
    characters = sum(len(s) + 1 for s in test)  # one line break per sentence, as chapters 4 and 7 count
    assert characters == evaluate.count_characters(evaluate.texts(data["word"][2], "word", separator=""))
    assert {row.n_characters for row in grid.values()} == {characters}
    for row in grid.values():
        assert row.bits_per_character == pytest.approx(row.total_bits / characters)
    assert list(grid) == [(u, m) for u in ("word", "char") for m in (1, 2, 5)]


def test_a_character_model_pays_per_character_what_it_pays_per_token(grid):
    # each character and each line break is one token (the line break is </s>): the two denominators agree
    for min_count in (1, 2, 5):
        row = grid["char", min_count]
        assert row.n_tokens == row.n_characters
        assert row.bits_per_character == pytest.approx(row.bits_per_token)


def test_a_higher_cut_off_hides_more_words_and_lowers_perplexity(grid):
    rows = [grid["word", m] for m in (1, 2, 5)]
    assert rows[0].oov_rate <= rows[1].oov_rate < rows[2].oov_rate
    assert rows[0].vocabulary > rows[2].vocabulary
    assert rows[2].perplexity < rows[0].perplexity


def test_grid_rejects_test_sets_of_different_texts(data):
    words, _ = _text(20, 3)
    chars = [list("".join(s)) for s in words[:-1]]
    with pytest.raises(ValueError, match="spell the same text"):
        fairness_grid({"word": (words, words, words), "char": (chars, chars, chars)}, (1,), order=1)
    with pytest.raises(TypeError, match="data must be"):
        fairness_grid({}, (1,))
    with pytest.raises(TypeError, match="min_counts"):
        fairness_grid(data, 2)
    with pytest.raises(ValueError, match=r"\(train, heldout, test\)"):
        fairness_grid({"word": (words, words)}, (1,))


def test_report_compares_with_the_reference_and_says_why(grid):
    same = fairness_report(grid, "word", 1)
    assert same.perplexity_ratio == 1.0 and same.bits_per_character_change == 0.0
    assert "can be compared" in same.notes[0]
    chars = fairness_report(grid, "char", 1)
    assert chars.perplexity_ratio == grid["char", 1].perplexity / grid["word", 1].perplexity
    assert "bits per character" in chars.notes[0]
    cut = fairness_report(grid, "word", 5)
    assert "<unk>" in cut.notes[0] and f"{grid['word', 5].oov_rate:.1%}" in cut.notes[0]
    both = fairness_report(grid, "char", 5, reference=("char", 1))
    assert len(both.notes) == 1 and "min_count 1 to 5" in both.notes[0]
    with pytest.raises(ValueError, match="no setting"):
        fairness_report(grid, "byte", 1)


def test_report_html_shows_both_rows(grid):
    page = fairness_html(fairness_report(grid, "char", 2))
    assert shown(page, "lmcore-reference-perplexity") == f"{grid['word', 1].perplexity:.4f}"
    assert shown(page, "lmcore-chosen-perplexity") == f"{grid['char', 2].perplexity:.4f}"
    assert shown(page, "lmcore-chosen-bpc") == f"{grid['char', 2].bits_per_character:.4f}"
    assert "&lt;unk&gt;" in page  # notes are escaped
    headings = re.findall(r"<th\b[^>]*>(.*?)</th>", page)
    assert headings[:2] == ["setting", "unit"] and all(headings), headings  # no empty heading (axe)


# --- fair comparison: the widget ---------------------------------------------------------


def test_fairness_explorer_looks_up_every_setting(grid):
    explorer = FairnessExplorer(grid)
    assert explorer.unit.value == "word" and explorer.min_count.value == 1
    assert shown(explorer.output.value, "lmcore-perplexity-ratio") == "1.0000"
    for unit in ("char", "word"):
        for min_count in (5, 2, 1):
            explorer.unit.value, explorer.min_count.value = unit, min_count
            row = grid[unit, min_count]
            assert explorer.result.chosen == row
            assert shown(explorer.output.value, "lmcore-chosen-perplexity") == f"{row.perplexity:.4f}"
            assert shown(explorer.output.value, "lmcore-chosen-bpc") == f"{row.bits_per_character:.4f}"
            ratio = row.perplexity / grid["word", 1].perplexity
            assert shown(explorer.output.value, "lmcore-perplexity-ratio") == f"{ratio:.4f}"


def test_fairness_explorer_never_fits_in_a_callback(grid, monkeypatch):
    explorer = FairnessExplorer(grid)

    def no_fitting(*args, **kwargs):
        raise AssertionError("a dropdown change must not fit a model")

    monkeypatch.setattr(Interpolated, "fit", no_fitting)
    explorer.unit.value = "char"
    explorer.min_count.value = 5
    assert explorer.result.chosen == grid["char", 5]


def test_fairness_explorer_from_data_and_missing_settings(data):
    explorer = FairnessExplorer.from_data(data, min_counts=(1, 3), order=1, reference=("char", 1))
    assert explorer.unit.value == "char" and list(explorer.min_count.options) == [1, 3]
    assert explorer.unit.options == (("words", "word"), ("characters", "char"))
    partial = {key: row for key, row in explorer.grid.items() if key != ("word", 3)}
    explorer = FairnessExplorer(partial)
    explorer.min_count.value = 3
    assert explorer.result is None and "No numbers" in explorer.output.value
    with pytest.raises(TypeError, match="grid must be"):
        FairnessExplorer({})
    with pytest.raises(ValueError, match="reference"):
        FairnessExplorer(partial, reference=("word", 3))
    assert FairnessExplorer(partial)._repr_mimebundle_()["text/plain"].startswith("FairnessExplorer")


def test_fairness_row_is_a_plain_record():
    row = FairnessRow(unit="word", min_count=1, vocabulary=10, oov_rate=0.0, n_tokens=10, perplexity=100.0,
                      bits_per_token=math.log2(100.0), total_bits=10 * math.log2(100.0), n_characters=20,
                      bits_per_character=3.3219)
    assert row.unit == "word" and row.total_bits == pytest.approx(66.4386, abs=1e-4)


# --- branching factor: labels, speed and sliders -----------------------------------------


def test_outcome_labels_never_collide():
    from lmcore.widgets.branching import outcome_ticks

    explorer = BranchingExplorer(k=10)
    renderer = explorer._redraw.canvas.get_renderer()
    for k in (2, 9, 15, 16, 20, 26, 30):
        explorer.k.value = k
        shown = [label for label in explorer._labels if label.get_visible()]
        assert [label.get_text() for label in shown] == [str(t) for t in outcome_ticks(k)]
        boxes = [label.get_window_extent(renderer) for label in shown]
        assert all(a.x1 + 2 <= b.x0 for a, b in zip(boxes, boxes[1:])), f"k = {k}: labels overlap"
    for k in (15, 30):  # the static figure's tick labels too
        figure = branching_figure(branching_report(k))
        figure.canvas.draw()
        ticks = [t.get_window_extent() for t in figure.axes[0].get_xticklabels() if t.get_text()]
        assert all(a.x1 + 2 <= b.x0 for a, b in zip(ticks, ticks[1:])), f"k = {k}: tick labels overlap"
        plt.close(figure)


def test_a_change_of_k_redraws_only_bars_and_labels():
    explorer = BranchingExplorer(k=10)
    figure = explorer._redraw.figure
    explorer.k.value = 25
    assert explorer._redraw.figure is figure  # no new figure per change of k
    assert sum(bar.get_visible() for bar in explorer._all_bars) == 25
    assert explorer._axes.get_xlim() == pytest.approx((-0.7, 24.7))


def test_branching_sliders_follow_the_drag():
    explorer = BranchingExplorer()
    assert explorer.k.continuous_update and explorer.skew.continuous_update
    assert explorer.output.value.startswith('<div class="lmcore-text"')


# --- the Chinese edition: the same explorers and numbers, in Chinese -----------------------------


def decimals(html: str) -> list[str]:
    return re.findall(r"[+-]?\d+\.\d+%?", html)


def test_branching_explorer_in_chinese_shows_the_english_numbers(chinese):
    from matplotlib.text import Text

    from lmcore.i18n import set_language

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing Chinese glyph ("Glyph ... missing from font") fails the test
        explorer = BranchingExplorer(k=10)
        explorer.k.value = 26
        explorer.skew.value = 0.5
        figure = branching_figure(explorer.result)  # the static figure, with its title
        figure.canvas.draw()
        texts = [text.get_text() for text in figure.findobj(Text)]
        plt.close(figure)
        explorer._redraw.figure.canvas.draw()  # the explorer's own picture, its axis label in Chinese
    page = explorer.output.value
    assert explorer.k.description == "结果数 k" and explorer.skew.description == "偏斜度"
    assert explorer._axes.get_xlabel() == "结果" and "每个结果的概率" in texts and "结果" in texts
    assert "26 个结果；结果 1 的概率为" in page and "其余 25 个结果各为" in page
    assert "熵 H = " in page and "比特（在 26 个结果中均匀选择" in page and "困惑度 2<sup>H</sup> = " in page
    assert "困惑度即分支因子" in explorer.widget.children[0].value  # the heading of the explanation
    assert explorer._repr_mimebundle_()["text/plain"].startswith("BranchingExplorer：交互式探索器")

    set_language("en")
    english = BranchingExplorer(k=10)
    english.k.value = 26
    english.skew.value = 0.5
    assert spans(page) == spans(english.output.value) and len(spans(page)) == 3
    assert decimals(page) == decimals(english.output.value)
    assert explorer.result.perplexity == english.result.perplexity
    assert explorer.result.p.tolist() == english.result.p.tolist()


def test_fairness_explorer_in_chinese_shows_the_english_numbers(chinese, grid):
    from lmcore.i18n import set_language

    explorer = FairnessExplorer(grid)
    assert explorer.unit.options == (("词", "word"), ("字", "char")) and explorer.unit.description == "单位"
    assert "单位相同，词表相同：这些数可以相互比较。" in explorer.output.value
    pages = {}
    for unit, min_count in (("char", 1), ("word", 5), ("char", 5)):
        explorer.unit.value, explorer.min_count.value = unit, min_count
        pages[unit, min_count] = explorer.output.value
        assert explorer.result.chosen == grid[unit, min_count]
    assert "每词元困惑度" in pages["char", 1] and "每字符比特数" in pages["char", 1]  # table headings
    assert ">设置</th>" in pages["char", 1]
    assert "<td style=\"padding: 1px 6px; text-align: left\">参照</td>" in pages["char", 1]
    assert "单位变了（从词变为字）：每词元困惑度现在是在字中猜，而不是在词中猜" in pages["char", 1]
    assert f"词表变了（min_count 从 1 变为 5）：测试集中 {grid['word', 5].oov_rate:.1%} 的词现在成了 &lt;unk&gt;" \
        in pages["word", 5]
    assert "每词元困惑度 × " in pages["char", 5] and "；每字符比特数 " in pages["char", 5]
    assert "The unit changed (word to char)" in explorer.result.notes[0]  # the result stays English
    partial = FairnessExplorer({key: row for key, row in grid.items() if key != ("char", 2)})
    partial.unit.value, partial.min_count.value = "char", 2
    assert "没有 (&#x27;char&#x27;, 2) 的数据。" in partial.output.value  # the message, escaped

    set_language("en")
    english = FairnessExplorer(grid)
    for key, page in pages.items():
        english.unit.value, english.min_count.value = key
        assert spans(page) == spans(english.output.value) and len(spans(page)) == 6
        assert decimals(page) == decimals(english.output.value)
        assert "每字符比特数" not in english.output.value


def test_a_report_of_an_empty_or_missing_grid_is_named(grid):
    with pytest.raises(TypeError, match=r"^grid must be a non-empty dict .* got dict \(empty\)$"):
        fairness_report({}, "word", 1)  # was StopIteration
    with pytest.raises(TypeError, match="^grid must be a non-empty dict .* got NoneType$"):
        fairness_report(None, "word", 1)
    with pytest.raises(TypeError, match="^unit must be a str, got list$"):
        fairness_report(grid, ["word"], 1)  # was unhashable
