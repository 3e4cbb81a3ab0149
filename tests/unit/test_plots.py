"""Chinese in figures: lmcore.plots' font fallback (title, tick labels and legend in Chinese
render as real glyphs, not missing-glyph boxes), Latin text unchanged by it, the font that
requirements.txt brings found with no system font and whatever state matplotlib's font cache
is in, and one clear warning where no Chinese font is there at all."""

import copy
import dataclasses
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties

from lmcore import fonts, plots

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = "Noto Sans CJK SC"  # the Simplified Chinese face of the noto-cjk-sans-otc collection


def chinese_figure():
    """Chinese in the title, the tick labels and the legend."""
    fig = plots.bar_distribution([0.5, 0.3, 0.2], ["我们", "人民", "中国"], m=[0.4, 0.4, 0.2],
                                 title="人民日报：一元模型", p_name="语料 p", m_name="模型 m")
    return fig


def rgba(fig) -> np.ndarray:
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba()).copy()
    plt.close(fig)
    return pixels


def missing_glyphs(caught) -> list[str]:
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_pick_cjk_font_follows_the_list_order():
    assert fonts.pick_cjk_font(["SimSun", "DejaVu Sans", "Microsoft YaHei"]) == "Microsoft YaHei"
    assert fonts.pick_cjk_font(["Noto Sans CJK JP", "Noto Sans CJK SC"]) == "Noto Sans CJK SC"
    assert fonts.pick_cjk_font([]) is None
    assert fonts.CJK_FONTS[0] == BUNDLED


def test_requirements_bring_the_chinese_font_and_it_follows_dejavu_sans():
    files = fonts.bundled_cjk_font_files()
    assert [Path(path).name for path in files] == ["NotoSansCJK-Regular.ttc"], "pip install -r requirements.txt"
    assert set(files) <= {entry.fname for entry in font_manager.fontManager.ttflist}
    assert fonts.cjk_font() == BUNDLED
    family = matplotlib.rcParams["font.family"]
    assert family == ["sans-serif", BUNDLED]
    assert matplotlib.rcParams["font.sans-serif"][0] == "DejaVu Sans"
    path = font_manager.findfont(FontProperties(family=BUNDLED), fallback_to_default=False)
    assert Path(path).exists()


def render_text(text: str, family: list[str]) -> np.ndarray:
    """``text`` drawn large in the font list ``family`` (matplotlib's warnings for missing glyphs held back)."""
    fig = Figure(figsize=(2.4, 0.8), dpi=100)
    fig.text(0.05, 0.25, text, family=family, fontsize=28)
    canvas = FigureCanvasAgg(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def test_chinese_labels_are_drawn_as_glyphs_not_as_missing_glyph_boxes():
    """A font without Chinese draws every character as the same box, so two different words of
    two characters give the same picture; the course's fonts must draw them differently."""
    boxes = [render_text(word, ["DejaVu Sans"]) for word in ("熵率", "困惑")]
    assert (boxes[0] == boxes[1]).all(), "DejaVu Sans has no Chinese: both words are two boxes"
    assert (boxes[0] < 128).any(), "the boxes are drawn"
    ours = [render_text(word, matplotlib.rcParams["font.family"]) for word in ("熵率", "困惑")]
    assert not (ours[0] == ours[1]).all()
    assert not (ours[0] == boxes[0]).all()
    font = font_manager.get_font(font_manager.findfont(FontProperties(family=fonts.cjk_font())))
    assert all(font.get_char_index(ord(char)) != 0 for char in "熵率困惑人民日报：（）。，一元模型")


def test_chinese_title_ticks_and_legend_render_without_missing_glyphs():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = chinese_figure()
        assert plots.figure_png(fig).startswith(b"\x89PNG")
        plt.close(fig)
    assert not missing_glyphs(caught), missing_glyphs(caught)
    assert not [w for w in caught if issubclass(w.category, fonts.CJKFontWarning)]


def test_latin_figures_look_exactly_as_without_the_fallback():
    def latin():
        return plots.bar_distribution([0.25, 0.75], ["rain", "no rain"], m=[0.5, 0.5], title="λ1 + λ2 = 1, ∞")

    with_fallback = rgba(latin())
    with matplotlib.rc_context({"font.family": ["sans-serif"]}):
        without = rgba(latin())
    assert with_fallback.shape == without.shape and (with_fallback == without).all()


def test_without_a_chinese_font_one_message_and_no_glyph_spam(monkeypatch):
    """Simulates a machine without a Chinese font: what import does when find_cjk_font() finds none."""
    monkeypatch.setattr(fonts, "find_cjk_font", lambda: None)
    monkeypatch.setattr(fonts, "_cjk_font", fonts.cjk_font())  # restored after the test
    monkeypatch.setattr(fonts, "_warned", False)
    with matplotlib.rc_context(), warnings.catch_warnings(record=True) as caught:
        fonts.use_cjk_font(fonts.find_cjk_font())
        assert fonts.cjk_font() is None and matplotlib.rcParams["font.family"] == ["sans-serif"]
        latin = plots.bar_distribution([0.5, 0.5], ["heads", "tails"], title="coin")
        plots.figure_png(latin)
        plt.close(latin)
        assert caught == [], "a figure without Chinese text gets no message"
        for _ in range(2):
            fig = chinese_figure()
            plots.figure_png(fig)
            plt.close(fig)
        with warnings.catch_warnings(record=True) as unfiltered:  # the spam lmcore's filter holds back
            warnings.simplefilter("always")
            rgba(chinese_figure())
    ours = [str(w.message) for w in caught if issubclass(w.category, fonts.CJKFontWarning)]
    assert len(ours) == 1, ours
    assert "pip install -r requirements.txt" in ours[0] and "noto-cjk-sans-otc" in ours[0]
    assert not missing_glyphs(caught), missing_glyphs(caught)
    assert len(missing_glyphs(unfiltered)) >= 10, "the simulation must really lack the Chinese glyphs"
    assert [str(w.message) for w in caught] == ours


def test_use_cjk_font_refuses_a_font_matplotlib_does_not_know():
    with pytest.raises(ValueError, match="name: matplotlib knows no font 'No Such Font'"):
        fonts.use_cjk_font("No Such Font")


def without_chinese_fonts():
    """A copy of matplotlib's font list without any Chinese font (this environment's bundled
    one, another environment's, a system one): a machine that has none."""
    manager = copy.copy(font_manager.fontManager)
    manager.ttflist = [entry for entry in manager.ttflist if "CJK" not in entry.name
                       and entry.name not in fonts.CJK_FONTS]
    return manager


@pytest.mark.parametrize("cache", ["none yet (a fresh machine)", "made before the font was installed",
                                   "holding the font of a deleted environment"])
def test_a_fresh_or_stale_matplotlib_font_cache_finds_the_bundled_font(tmp_path, cache):
    files = set(fonts.bundled_cjk_font_files())
    cache_file = tmp_path / f"fontlist-v{font_manager.FontManager.__version__}.json"
    gone = str(tmp_path / "deleted-venv" / "noto_cjk_sans_otc" / "NotoSansCJK-Regular.ttc")
    if cache != "none yet (a fresh machine)":
        stale = without_chinese_fonts()
        if cache.startswith("holding"):  # first in the list, so matplotlib would pick the missing file
            stale.ttflist = [dataclasses.replace(entry, fname=gone) for entry in font_manager.fontManager.ttflist
                             if entry.fname in files] + stale.ttflist
        font_manager.json_dump(stale, cache_file)
        assert not files & {entry["fname"] for entry in json.loads(cache_file.read_text())["ttflist"]}
    script = ("import lmcore.plots as p; f = p.bar_distribution([0.5, 0.5], ['下雨', '不下雨'], title='人民日报'); "
              "p.figure_png(f); print(p.fonts.cjk_font())")
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path), "MPLBACKEND": "Agg"}
    for _ in range(2):  # the second start reads the cache the first one saved
        result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == BUNDLED
        assert "findfont" not in result.stderr and "Warning" not in result.stderr, result.stderr
    cached = {entry["fname"] for entry in json.loads(cache_file.read_text())["ttflist"]}
    assert files <= cached, "the cache was not saved with the bundled font"
    assert gone not in cached


def test_a_system_font_that_only_fontconfig_knows_is_found(tmp_path, monkeypatch):
    """Without the font package, a Chinese font installed after matplotlib made its cache is found
    through fontconfig (here the same file, offered as a system font) and the cache saved."""
    files = fonts.bundled_cjk_font_files()
    monkeypatch.setattr(font_manager, "fontManager", without_chinese_fonts())
    monkeypatch.setattr(matplotlib, "get_cachedir", lambda: str(tmp_path))
    monkeypatch.setattr(fonts, "bundled_cjk_font_files", lambda: [])
    monkeypatch.setattr(fonts, "_fontconfig_chinese_files", lambda: set(files))
    assert fonts.find_cjk_font() == BUNDLED
    saved = tmp_path / f"fontlist-v{font_manager.FontManager.__version__}.json"
    assert set(files) <= {entry["fname"] for entry in json.loads(saved.read_text())["ttflist"]}


def test_no_font_at_all_is_none(monkeypatch):
    monkeypatch.setattr(font_manager, "fontManager", without_chinese_fonts())
    monkeypatch.setattr(fonts, "bundled_cjk_font_files", lambda: [])
    monkeypatch.setattr(fonts, "_fontconfig_chinese_files", lambda: set())
    assert fonts.find_cjk_font() is None


def texts_of(fig) -> list[str]:
    """Every text of a figure (title, axis labels, ticks, legend, colour bar), as drawn."""
    fig.canvas.draw()
    return [text.get_text() for text in fig.findobj(matplotlib.text.Text)]


def test_the_figures_labels_follow_the_language_without_a_missing_glyph(chinese):
    from lmcore.i18n import catalog

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would fail here
        figures = {
            "bars": plots.bar_distribution([0.25, 0.75], ["下雨", "不下雨"], m=[0.5, 0.5]),
            "surprisal": plots.surprisal_along(["我们", "的", "</s>"], [3.1, 9.4, float("inf")]),
            "curve": plots.learning_curve([1e3, 1e4], {1: [900, 700], "bigram": [800, 400]}),
            "perplexity": plots.perplexity_bars({"unigram": 962.1, "bigram": float("inf")}),
            "map": plots.lambda_triangle_map(np.linspace(0, 1, 3), np.linspace(0, 1, 3),
                                             np.array([[9, 5, 7], [4, 3, np.nan], [np.inf, np.nan, np.nan]]),
                                             current=(0.5, 0.5), optimum=(0.4, 0.3)),
        }
        texts = {name: texts_of(fig) for name, fig in figures.items()}
    for fig in figures.values():
        plt.close(fig)
    assert {"p（实际发生的情况）", "m（模型）", "概率", "下雨"} <= set(texts["bars"])
    assert "惊奇度（比特）" in texts["surprisal"] and "∞" in texts["surprisal"]
    zh = catalog("zh")
    assert {"1 阶", zh.get("bigram", "bigram"), "训练词元数（对数刻度）",
            "验证集困惑度（对数刻度）"} <= set(texts["curve"])
    assert {"困惑度（越低越好）", zh.get("unigram", "unigram")} <= set(texts["perplexity"])
    assert {"λ1（一元模型权重）", "λ2（二元模型权重）", "EM 最优解", "你的 λ", "λ1 + λ2 > 1\n（不允许）",
            "每组 (λ1, λ2) 的验证集困惑度；\nλ3 = 1 − λ1 − λ2（三元模型权重）",
            "验证集困惑度（对数色标）；\n灰色：∞，有词元的概率为 0"} <= set(texts["map"])


def test_the_figures_are_english_by_default_and_their_data_the_same_in_both_languages():
    from lmcore.i18n import set_language

    def curve():
        fig = plots.learning_curve([1e3, 1e4], {1: [900, 700], 2: [800, 400]}, title="English title")
        ax = fig.axes[0]
        found = (ax.get_xlabel(), [t.get_text() for t in ax.get_legend().get_texts()], ax.get_title(),
                 [line.get_xydata().tolist() for line in ax.get_lines()])
        plt.close(fig)
        return found

    english = curve()
    assert english[:3] == ("training tokens (log scale)", ["order 1", "order 2"], "English title")
    set_language("zh")
    try:
        chinese = curve()
    finally:
        set_language("en")
    assert chinese[:3] == ("训练词元数（对数刻度）", ["1 阶", "2 阶"], "English title")  # a caller's title as given
    assert chinese[3] == english[3]
