"""Chapter 7's context-window explorer without a browser: set ``.value``, read what a student would see."""

import re
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lmcore.widgets import ContextWindowExplorer, window_figure, window_html, window_report
from lmcore.windows import windowed_score

K, N = 6, 3000


def shown(html: str, css_class: str) -> str:
    (text,) = re.findall(rf'<span class="{css_class}">([^<]*)</span>', html)
    return text


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
    assert explorer.figure.value[:4] == b"\x89PNG"


def test_a_slider_move_answers_well_under_50_ms(explorer):
    explorer.window.value = 16
    times = []
    for stride in (1, 5, 9, 13, 16, 2, 7):
        start = time.perf_counter()
        explorer.stride.value = stride
        times.append(time.perf_counter() - start)
    assert float(np.median(times)) < 0.05, times
    start = time.perf_counter()
    explorer.window.value = 12  # a new window also redraws the perplexity axis's ticks
    assert time.perf_counter() - start < 0.1


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
    with pytest.raises(ValueError, match="n_characters must be a positive int"):
        window_report(table, positions, 0, window=4, stride=4)
