"""Chapter 7's context-window explorer without a browser: set ``.value``, read what a student would see."""

import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from widget_support import PNG, shown, spans

from lmcore import plots
from lmcore.evaluate import windowed_score
from lmcore.i18n import set_language
from lmcore.widgets import ContextWindowExplorer, window_figure, window_html, window_report

K, N = 6, 3000

@pytest.fixture(scope="module")
def stream():
    """A table in which context helps, for a stream of sentences 40 tokens long."""
    rng = np.random.default_rng(0)
    table = np.log(np.array([np.full(N, 0.05 + 0.1 * c) for c in range(K + 1)]) * rng.uniform(0.9, 1.0, N))
    positions = np.arange(N) % 40
    return table, positions, 4 * N


def test_the_report_is_the_windowed_score_per_token_and_per_character(stream):
    table, positions, n_chars = stream
    report = window_report(table, positions, n_chars, window=8, stride=8)
    score = windowed_score(table, 8, 8, positions)
    assert report.score.perplexity == score.perplexity and report.score.plan.n_passes == N // 8
    assert report.bits_per_character == pytest.approx(score.bits / n_chars)
    assert report.full.perplexity < report.score.perplexity  # chunks lose context
    assert report.strides.tolist() == list(range(1, 9))
    assert report.perplexities[-1] == score.perplexity and report.passes[0] == N - 8 + 1
    html = window_html(report)
    assert shown(html, "lmcore-passes") == f"{N // 8:,}"
    assert shown(html, "lmcore-window-perplexity") == f"{score.perplexity:.4f}"
    assert shown(html, "lmcore-full-perplexity") == f"{report.full.perplexity:.4f}"


@pytest.fixture(scope="module")
def explorer(stream):
    table, positions, n_chars = stream
    return ContextWindowExplorer(table, positions, n_chars, window=8, max_window=24)


def test_the_explorer_follows_its_sliders(explorer):
    explorer.window.value, explorer.stride.value = 8, 8
    assert explorer.stride.max == 8
    chunks = explorer.result.score.perplexity
    explorer.stride.value = 1
    assert explorer.result.stride == 1 and explorer.result.score.plan.n_passes == N - 8 + 1
    assert explorer.result.score.perplexity == pytest.approx(explorer.result.full.perplexity)  # W > k, stride 1
    assert explorer.result.score.perplexity < chunks
    assert shown(explorer.output.value, "lmcore-passes") == f"{N - 8 + 1:,}"
    explorer.window.value = 20
    assert explorer.stride.max == 20 and explorer.stride.value == 1 and explorer.result.window == 20
    explorer.stride.value = 20
    explorer.window.value = 5  # the stride cannot stay longer than the window
    assert explorer.stride.value == 5 and explorer.result.stride == 5 and explorer.result.window == 5
    assert explorer.figure.value[:4] == PNG


def test_every_slider_move_shows_the_windowed_score(explorer, stream):
    """(How fast, under 50 ms a move, is benchmarks/bench_widgets.py's.)"""
    table = stream[0]
    explorer.window.value = 16
    for stride in (1, 5, 16):
        explorer.stride.value = stride
        assert explorer.result.score.perplexity == windowed_score(table, 16, stride, stream[1]).perplexity
    explorer.window.value = 12  # a new window also redraws the perplexity axis's ticks
    assert explorer.result.score.perplexity == windowed_score(table, 12, 12, stream[1]).perplexity


def test_the_explorer_starts_with_a_picture_for_static_views(explorer):
    bundle = explorer._repr_mimebundle_()
    assert "lmcore-static" in bundle["text/html"] and "window W" in bundle["text/html"]
    assert bundle["text/plain"].startswith("ContextWindowExplorer: an interactive widget")


def test_the_figure_marks_the_stride_and_the_full_score(stream):
    table, positions, n_chars = stream
    report = window_report(table, positions, n_chars, window=10, stride=4)
    fig = window_figure(report, max_window=20)
    top, bottom = fig.axes
    assert top.lines[1].get_xdata().tolist() == [4] and bottom.get_yscale() == "log"
    assert "log" in bottom.get_ylabel() and bottom.get_xlim() == (0.5, 20.5)
    assert top.lines[2].get_ydata()[0] == pytest.approx(report.full.perplexity)
    plt.close(fig)


def test_bad_settings_are_named(stream):
    table, positions, n_chars = stream
    with pytest.raises(ValueError, match="window must be between 1 and max_window=10"):
        ContextWindowExplorer(table, positions, n_chars, window=12, max_window=10)
    with pytest.raises(ValueError, match="stride must be at most the window"):
        window_report(table, positions, n_chars, window=4, stride=5)
    with pytest.raises(ValueError, match="n_characters must be at least 1"):
        window_report(table, positions, 0, window=4, stride=4)


# --- the Chinese edition: the same explorer, its text and figure in Chinese, its numbers the same


def digits(html: str) -> list[str]:
    """Every number the page reads as (3,000, 1.8895, +4.2%), in order."""
    return re.findall(r"[+-]?\d(?:[\d,]*\d)?(?:\.\d+)?%?", re.sub(r"<[^>]+>", " ", html))


def test_the_chinese_explorer_reads_in_chinese_with_the_english_numbers(stream):
    settings = [(8, 8), (8, 1), (20, 1), (12, 5)]
    english = ContextWindowExplorer(*stream, window=8, max_window=24)
    pages = []
    for window, stride in settings:
        english.window.value, english.stride.value = window, stride
        pages.append(english.output.value)
    set_language("zh")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a missing glyph ("Glyph ... missing from font") fails the test
            explorer = ContextWindowExplorer(*stream, window=8, max_window=24)
            assert (explorer.window.description, explorer.stride.description) == ("窗口 W", "步长 s")
            for (window, stride), page in zip(settings, pages):
                explorer.window.value, explorer.stride.value = window, stride
                html = explorer.output.value
                assert spans(html) == spans(page) and len(spans(html)) == 7
                assert digits(html) == digits(page) and len(digits(html)) == 16  # every number, in order
                assert explorer.figure.value[:4] == PNG
            assert html.startswith('<div class="lmcore-text"') and "<p>窗口 12，步长 5，共 3,000 个词元；" in html
            for text in ("前向传播次数", "计算的位置数", "每词元困惑度", "每字符比特数", "当前窗口与步长",
                         "不分窗口", "每个词元平均计算了"):
                assert text in html, text
            assert "步长与窗口" in explorer._repr_mimebundle_()["text/html"]
            assert explorer._top.get_ylabel() == "每词元困惑度"
    finally:
        set_language("en")
    assert ContextWindowExplorer(*stream, window=8, max_window=24).window.description == "window W"


def test_the_chinese_figure_has_chinese_labels_and_every_glyph(stream):
    report = window_report(*stream, window=10, stride=4)
    set_language("zh")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fig = window_figure(report, max_window=20)
            assert plots.figure_png(fig)[:4] == PNG  # drawn: every character has its glyph
    finally:
        set_language("en")
        plt.close(fig)
    top, bottom = fig.axes
    assert (top.get_ylabel(), bottom.get_ylabel(), bottom.get_xlabel()) == (
        "每词元困惑度", "前向传播次数（对数刻度）", "步长（词元）")
    legend = [text.get_text() for text in fig.legends[0].get_texts()]
    assert legend == ["当前窗口", "当前步长", "不分窗口（完整上下文）"]
    assert top.lines[1].get_xdata().tolist() == [4] and bottom.get_xlim() == (0.5, 20.5)
