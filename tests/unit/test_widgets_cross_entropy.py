"""Chapter 3's explorers without a browser: the cross-entropy bars and the interval narrowing.

Observers run synchronously when a test sets ``.value`` (or clicks), so each assertion reads
what a student would see after the same move.
"""

import dataclasses
import math
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from widget_support import PNG, shown, visible_text

from lmcore import coding, info, plots
from lmcore.i18n import set_language
from lmcore.widgets import (
    CROSS_ENTROPY_PRESETS,
    CompressionExplorer,
    CrossEntropyExplorer,
    compression_html,
    compression_report,
    cross_entropy_html,
    cross_entropy_report,
    narrowing_figure,
    narrowing_svg,
)

# --- the cross-entropy explorer: the pure part ---------------------------------------------


@pytest.mark.parametrize("name, entropy, cross, kl", [
    ("toy corpus, add-one unigram", math.log2(7), 3.0028, 0.1954),
    ("the text 'A B', model P(A) = 0.8", 1.0, 1.3219, 0.3219),
    ("rain forecast", 0.8113, 1.0, 0.1887),
    ("horse race, uniform model", 2.0, 3.0, 1.0),
    ("8 teams, horse-race model", 3.0, 4.25, 1.25),
])
def test_presets_give_the_course_numbers(name, entropy, cross, kl):
    preset = CROSS_ENTROPY_PRESETS[name]
    report = cross_entropy_report(preset.p, preset.m, preset.labels)
    assert report.entropy == pytest.approx(entropy, abs=5e-5)
    assert report.cross_entropy == pytest.approx(cross, abs=5e-5)
    assert report.kl == pytest.approx(kl, abs=5e-5)
    assert report.perplexity == pytest.approx(2**report.cross_entropy)
    p, m = preset.p, preset.m
    assert report.cross_entropy == pytest.approx(info.cross_entropy([x / sum(p) for x in p], [x / sum(m) for x in m]))


def test_gibbs_inequality_and_the_notes():
    same = cross_entropy_report([1, 2, 3], [2, 4, 6])
    assert same.kl == 0 and same.cross_entropy == pytest.approx(same.entropy) and "m = p" in same.notes[0]
    ruled_out = cross_entropy_report([1, 1], [1, 0], ["A", "B"])
    assert ruled_out.cross_entropy == math.inf and ruled_out.kl == math.inf and ruled_out.perplexity == math.inf
    assert ruled_out.impossible == ("B",) and "probability 0 to B" in ruled_out.notes[0]
    # an outcome the model rules out that never happens costs nothing
    assert cross_entropy_report([1, 0], [1, 0]).cross_entropy == 0.0


@pytest.mark.parametrize("p, m, error, words", [
    ([0, 0], [1, 1], ValueError, "all weights of p are 0"),
    ([1, 1], [0, 0], ValueError, "all weights of m are 0"),
    ([1, -1], [1, 1], ValueError, "negative"),
    ([1, 1], [1, 1, 1], ValueError, "p has 2 outcomes but m has 3"),
    ("ab", [1, 1], TypeError, "p must be a sequence"),
])
def test_bad_weights_are_named(p, m, error, words):
    with pytest.raises(error, match=words):
        cross_entropy_report(p, m)
    with pytest.raises(ValueError, match="labels has 1"):
        cross_entropy_report([1, 1], [1, 1], ["A"])


def test_the_html_shows_the_numbers_and_an_infinite_bar_fits():
    page = cross_entropy_html(cross_entropy_report([1, 3], [1, 1], ["rain", "no rain"]))
    assert shown(page, "lmcore-entropy") == "0.8113"
    assert shown(page, "lmcore-cross-entropy") == "1.0000"
    assert shown(page, "lmcore-kl") == "0.1887"
    assert shown(page, "lmcore-model-perplexity") == "2.0000"
    assert "rain" in page and "lmcore-distributions" in page
    infinite = cross_entropy_html(cross_entropy_report([1, 1], [1, 0]))
    assert shown(infinite, "lmcore-cross-entropy") == "∞" and "beyond the scale" in infinite
    assert "width: 100.00%" in infinite  # the KL bar is drawn to the end of the scale, not beyond

def test_the_html_draws_each_bar_to_scale_with_its_axis_and_reads_as_the_numbers():
    page = cross_entropy_html(cross_entropy_report([1, 3], [1, 1], ["rain", "no rain"]))  # scale: log2(4) = 2 bits
    entropy, kl = 0.811278, 0.188722  # H(1/4, 3/4) and 1 - H
    bars = re.findall(r"width: ([0-9.]+)%; background: (#[0-9a-f]{6})", page)
    p_colour, m_colour, kl_colour = "#4e79a7", "#f28e2b", "#e15759"
    assert bars == [
        (f"{50 * entropy:.2f}", p_colour),  # H(p)
        (f"{50 * entropy:.2f}", p_colour), (f"{50 * kl:.2f}", kl_colour),  # H(p, m) = H(p) + KL
        (f"{50 * kl:.2f}", kl_colour),  # KL
        ("25.00", p_colour), ("50.00", m_colour), ("75.00", p_colour), ("50.00", m_colour),  # p and m
    ]
    assert re.findall(r'left: ([0-9.]+)%">([0-9]+)</span>', page) == [("0.00", "0"), ("50.00", "1"), ("100.00", "2")]
    assert visible_text(page) == (
        "H(p) 0.8113 bits H(p, m) 1.0000 bits KL(p‖m) 0.1887 bits bits 0 1 2 "
        "H(p, m) = H(p) + KL(p‖m): 1.0000 = 0.8113 + 0.1887. The model's perplexity 2 H(p, m) = 2.0000 . "
        "outcome p (the data) m (the model) rain 0.2500 0.5000 no rain 0.7500 0.5000")


def test_bars_stay_between_0_and_100_percent_and_the_scale_edge_is_on_the_scale():
    beyond = cross_entropy_html(cross_entropy_report([1, 0], [1, 15]))  # H(p, m) = 4 bits on a 2-bit scale
    widths = [float(w) for w in re.findall(r"width: ([0-9.]+)%; background", beyond)]
    assert max(widths) == 100.0 and "4.0000 bits (beyond the scale) KL(p‖m)" in visible_text(beyond)
    certain = cross_entropy_html(cross_entropy_report([1, 0], [1, 1]))  # H(p) = 0: no bar at all, KL = 1 bit
    assert re.findall(r"width: ([0-9.]+)%; background: (#[0-9a-f]{6})", certain) == [
        ("50.00", "#e15759"), ("50.00", "#e15759"),  # H(p, m) and KL
        ("100.00", "#4e79a7"), ("50.00", "#f28e2b"), ("0.00", "#4e79a7"), ("50.00", "#f28e2b")]  # p and m
    assert "width: 0.40%" in cross_entropy_html(cross_entropy_report([1, 249], [1, 1]))  # p = 0.004
    edge = cross_entropy_report([1, 0], [1, 3])
    assert edge.cross_entropy == 2.0 and "beyond the scale" not in cross_entropy_html(edge)
    assert cross_entropy_report([1, 0], [2.0**-1024, 1]).perplexity == math.inf  # 2^1024 overflows a float


def test_presets_label_their_outcomes_and_sit_on_the_sliders_grid():
    labels = {name: preset.labels for name, preset in CROSS_ENTROPY_PRESETS.items()}
    assert labels["toy corpus, add-one unigram"] == ("i", "spent", "three", "years", "before", "the", "mast", "money")
    assert labels["the text 'A B', model P(A) = 0.8"] == ("A", "B")
    assert labels["rain forecast"] == ("rain", "no rain")
    assert labels["horse race, uniform model"] == tuple(f"horse {i}" for i in range(1, 9))
    assert labels["8 teams, horse-race model"] == tuple(f"team {i}" for i in range(1, 9))
    for preset in CROSS_ENTROPY_PRESETS.values():  # sliders run from 0 to 1 in steps of 0.01
        assert all(0 <= w <= 1 and round(100 * w) == pytest.approx(100 * w) for w in preset.p + preset.m)
    with pytest.raises(dataclasses.FrozenInstanceError):
        CROSS_ENTROPY_PRESETS["rain forecast"].p = (0.5, 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cross_entropy_report([1, 1], [1, 1]).kl = 1.0


def test_outcomes_ruled_out_are_named_only_where_they_happen():
    assert cross_entropy_report([1, 1, 1], [1, 0, 0]).impossible == ("2", "3")  # outcomes numbered from 1
    report = cross_entropy_report([1, 1, 0], [1, 0, 0], ["A", "B", "C"])  # C: never happens, never predicted
    assert report.impossible == ("B",)
    assert report.notes == ("The model gives probability 0 to B, which does happen: H(p, m) and KL are infinite, "
                            "as is the perplexity of a language model that meets a word it ruled out.",)
    assert "probability 0 to B, C," in cross_entropy_report([1, 1, 1], [1, 0, 0], "ABC").notes[0]
    assert cross_entropy_report([1, 0], [1, 0]).notes == (
        "m = p: the model is the truth, KL = 0 and H(p, m) = H(p), the lowest it can be.",)


# --- the cross-entropy explorer: the widget ----------------------------------------------------


def test_explorer_starts_at_the_toy_corpus_and_follows_the_sliders():
    explorer = CrossEntropyExplorer()
    assert shown(explorer.output.value, "lmcore-cross-entropy") == "3.0028"
    assert [s.value for s in explorer.p_sliders] == [0.5] * 7 + [0.0]
    explorer.m_sliders[-1].value = 0.0  # money: a word the test sentence never uses
    assert shown(explorer.output.value, "lmcore-cross-entropy") == "2.8329"
    assert explorer.result.cross_entropy == pytest.approx(
        cross_entropy_report([0.5] * 7 + [0.0], [0.3, 0.3] + [0.2] * 5 + [0.0]).cross_entropy)
    explorer.m_sliders[0].value = 0.0  # 'i' occurs: infinitely many bits
    assert shown(explorer.output.value, "lmcore-cross-entropy") == "∞"
    assert "probability 0 to i" in explorer.output.value


def test_presets_rebuild_the_sliders_and_swap_exchanges_p_and_m():
    explorer = CrossEntropyExplorer("rain forecast")
    old = explorer.p_sliders[0]
    explorer.preset.value = "horse race, uniform model"
    assert len(explorer.p_sliders) == 8 and explorer.p_sliders[0] is not old
    assert shown(explorer.output.value, "lmcore-kl") == "1.0000"
    explorer.swap.click()
    assert [s.value for s in explorer.p_sliders] == [0.5] * 8
    assert shown(explorer.output.value, "lmcore-kl") == "1.2500"  # KL(m‖p) ≠ KL(p‖m)
    assert "horse race" in explorer.story.value and "Swapped" in explorer.story.value
    explorer.preset.value = "rain forecast"
    assert "Swapped" not in explorer.story.value


def test_weights_that_are_no_distribution_get_a_message_not_a_traceback():
    explorer = CrossEntropyExplorer("rain forecast")
    for slider in explorer.p_sliders:
        slider.value = 0.0
    assert explorer.result is None and "all weights of p are 0" in explorer.error
    assert "Not a distribution yet" in explorer.output.value
    explorer.p_sliders[0].value = 0.3
    assert explorer.result is not None and shown(explorer.output.value, "lmcore-entropy") == "0.0000"


def test_explorer_refuses_an_unknown_preset_and_displays_as_its_widget():
    with pytest.raises(ValueError, match="preset must be one of"):
        CrossEntropyExplorer("weather")
    bundle = CrossEntropyExplorer()._repr_mimebundle_()
    assert bundle["text/plain"].startswith("CrossEntropyExplorer: an interactive widget")
    assert "3.0028" in bundle["text/html"]  # the static picture carries the numbers


# --- the compression explorer ---------------------------------------------------------------


def test_compression_report_and_html():
    report = compression_report(" a a b ", 0.8)
    assert report.message == "AAB" and report.narrowing == coding.narrow_interval("AAB", {"A": 0.8, "B": 1 - 0.8})
    page = compression_html(report)
    assert shown(page, "lmcore-surprisal") == "2.9658"
    assert shown(page, "lmcore-code") == "1001" and shown(page, "lmcore-code-bits") == "4"
    assert report.code_bits <= math.ceil(report.narrowing.surprisal) + 1
    figure = narrowing_figure(report)
    assert len(figure.axes) == 1
    plt.close(figure)
    svg = narrowing_svg(report)
    assert svg.count("<rect") == 2 * 3 + 2 and "0.1001" in svg and "−2.97" in svg


@pytest.mark.parametrize("message, p_a, error, words", [
    ("", 0.5, ValueError, "message is empty"), ("ABC", 0.5, ValueError, "only the letters A and B, not 'C'"),
    ("A" * 13, 0.5, ValueError, "at most 12"), ("AB", 1.0, ValueError, "p_a must be strictly between 0 and 1"),
    ("AB", "half", TypeError, "p_a must be a number, got str"),
])
def test_compression_report_refuses_odd_input(message, p_a, error, words):
    with pytest.raises(error, match=words):
        compression_report(message, p_a)
    with pytest.raises(TypeError, match="message must be a str"):
        compression_report(["A"], 0.5)


def test_compression_explorer_codes_typed_messages():
    explorer = CompressionExplorer("AAB", p_a=0.8)
    assert explorer.figure.value == narrowing_svg(compression_report("AAB", 0.8))
    explorer.message.value = "BBB"
    assert explorer.result.message == "AAB"  # typing alone does not code; the button does
    explorer.code.click()
    assert explorer.result.narrowing.code == "1111111"
    explorer.p_a.value = 0.2
    assert shown(explorer.output.value, "lmcore-code") == compression_report("BBB", 0.2).narrowing.code
    explorer.message.value = "ABX"
    explorer.code.click()
    assert explorer.result is None and "not 'X'" in explorer.output.value
    assert "lmcore-message" in explorer.output.value


# --- in Chinese: the same explorers, their texts and figure in Chinese, the same numbers ------------


def numbers(page: str) -> list[tuple[str, str]]:
    """Every number a page shows in an ``lmcore-...`` span, with the span's class, and the bars' widths."""
    return (re.findall(r'<span class="(lmcore-[^"]+)">([^<]*)</span>', page)
            + re.findall(r"width: ([0-9.]+)%; background", page))


def test_the_cross_entropy_explorer_in_chinese_reads_chinese_with_the_english_numbers(chinese):
    def moves(explorer) -> list[str]:
        pages = [explorer.output.value]
        explorer.m_sliders[0].value = 0.0  # rain ruled out: infinite
        pages.append(explorer.output.value)
        explorer.swap.click()
        pages.append(explorer.output.value)
        for slider in explorer.p_sliders:
            slider.value = 0.0
        return [*pages, explorer.output.value]

    set_language("en")
    english = CrossEntropyExplorer("rain forecast")
    english_pages = moves(english)
    set_language("zh")
    explorer = CrossEntropyExplorer("rain forecast")
    assert (explorer.preset.description, explorer.preset.label, explorer.preset.value) == (
        "示例", "降雨预报", "rain forecast")
    assert explorer.swap.description == "交换 p 和 m"
    assert [s.description for s in explorer.p_sliders] == ["下雨", "不下雨"] and explorer.labels == ("rain", "no rain")
    assert "四天里有一天下雨（p），而预报员总是说 50/50（m）" in explorer.story.value
    pages = moves(explorer)
    assert [numbers(page) for page in pages] == [numbers(page) for page in english_pages]
    start, ruled_out, _, no_distribution = pages
    assert "0.1887</span> 比特" in start and "模型的困惑度 2<sup>H(p, m)</sup> = " in start
    table = CrossEntropyExplorer("rain forecast").distributions.value  # beside the sliders
    assert "<th" in table and "p（数据）" in table and "m（模型）" in table and ">不下雨</td>" in table
    assert "（超出刻度）" in ruled_out and "模型给 下雨 的概率是 0，可它确实会出现" in ruled_out
    assert "<b>已交换：</b>左栏现在是说明里的 m，右栏是 p。" in explorer.story.value
    assert "还不是一个概率分布：p 的权重全是 0：请至少给一个结果正的权重。" in no_distribution
    assert explorer.error == "all weights of p are 0: give at least one outcome a positive weight"  # English
    assert "bits" not in re.sub("<[^>]+>", " ", start + ruled_out)
    explorer.preset.value = "horse race, uniform model"
    assert explorer.p_sliders[2].description == "3 号马" and explorer.labels[2] == "horse 3"
    assert "赛马的熵是 2 比特" in explorer.story.value
    same = cross_entropy_html(cross_entropy_report([1, 1], [1, 1]))
    assert "m = p：模型就是真实分布，KL = 0，H(p, m) = H(p)，达到了可能的最小值。" in same


def test_the_compression_explorer_and_figure_in_chinese(chinese, caplog):
    explorer = CompressionExplorer("AAB", p_a=0.8)
    assert (explorer.message.description, explorer.code.description) == ("消息", "编码")
    set_language("en")
    english = compression_html(compression_report("AAB", 0.8))
    set_language("zh")
    assert numbers(explorer.output.value) == numbers(english)
    assert "−log₂ P(消息) = " in explorer.output.value and "码字 0." in explorer.output.value
    assert "（绝不超过 ⌈2.9658⌉ + 1 = 4）" in explorer.output.value
    assert "“AAB”：最终宽度 0.128 = 2" in explorer.figure.value and ">码字</text>" in explorer.figure.value
    assert "code" not in re.sub("<[^>]+>", " ", explorer.figure.value + explorer.output.value)
    explorer.message.value = "ABX"
    explorer.code.click()
    assert "消息只能包含字母 A 和 B，不能有 'X'。" in explorer.output.value
    assert explorer.error == "message may hold only the letters A and B, not 'X'"  # English
    explorer.message.value = ""
    explorer.code.click()
    assert "消息是空的：请输入几个字母 A 和 B。" in explorer.output.value
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph ("Glyph ... missing from font") fails the test
        figure = narrowing_figure(compression_report("AAB", 0.8))
        assert plots.figure_png(figure)[:4] == PNG
    # mathtext logs (not warns) when its font lacks a character: a $...$ title drew Chinese as boxes
    assert "does not have a glyph" not in caplog.text
    axes = figure.axes[0]
    assert axes.get_title() == "“AAB”：最终宽度 0.128 = 2^(−2.97)，码字 4 比特"
    assert [label.get_text() for label in axes.get_yticklabels()] == ["1. A", "2. A", "3. B", "码字"]
    plt.close(figure)


def test_labels_that_are_no_list_are_named():
    with pytest.raises(TypeError, match="^labels must be a list of outcome names, got int$"):
        cross_entropy_report([1, 1], [1, 1], labels=2)  # was TypeError: 'int' object is not iterable
    assert cross_entropy_report([1, 1], [1, 1], labels="ab").labels == ("a", "b")
