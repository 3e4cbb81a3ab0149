"""Chinese in figures: lmcore.plots' font fallback (title, tick labels and legend in Chinese
render without a missing character), Latin text unchanged by it, one clear warning where no
Chinese font is installed, and a matplotlib font cache made before the font was installed."""

import copy
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import optional_extras as extras
import pytest
from matplotlib import font_manager
from matplotlib.font_manager import FontProperties

from lmcore import plots

ROOT = Path(__file__).resolve().parents[1]
INSTALL = "apt-get install fonts-noto-cjk"


def require_cjk_font() -> str:
    """The Chinese font in use; where there is none, skip, or fail in CI (tests/optional_extras.py)."""
    font = plots.cjk_font()
    if font is None:
        extras.unavailable(f"no Chinese font installed ({INSTALL})")
    return font


def chinese_figure():
    """Chinese in the title, the tick labels and the legend."""
    fig = plots.bar_distribution([0.5, 0.3, 0.2], ["我们", "人民", "中国"], q=[0.4, 0.4, 0.2],
                                 title="人民日报：一元模型", p_name="语料 p", q_name="模型 q")
    return fig


def rgba(fig) -> np.ndarray:
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba()).copy()
    plt.close(fig)
    return pixels


def missing_glyphs(caught) -> list[str]:
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_pick_cjk_font_follows_the_list_order():
    assert plots.pick_cjk_font(["SimSun", "DejaVu Sans", "Microsoft YaHei"]) == "Microsoft YaHei"
    assert plots.pick_cjk_font(["Noto Sans CJK JP", "Noto Sans CJK SC"]) == "Noto Sans CJK SC"
    assert plots.pick_cjk_font([]) is None
    assert plots.CJK_FONTS[0] == "Noto Sans CJK SC"  # what binder/apt.txt and .ci/run install


def test_the_chinese_font_follows_dejavu_sans_and_is_installed():
    font = require_cjk_font()
    family = matplotlib.rcParams["font.family"]
    assert family[-1] == font and family[0] == "sans-serif"
    assert matplotlib.rcParams["font.sans-serif"][0] == "DejaVu Sans"
    path = font_manager.findfont(FontProperties(family=font), fallback_to_default=False)
    assert Path(path).exists()


def test_chinese_title_ticks_and_legend_render_without_missing_glyphs():
    require_cjk_font()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = chinese_figure()
        assert plots.figure_png(fig).startswith(b"\x89PNG")
        plt.close(fig)
    assert not missing_glyphs(caught), missing_glyphs(caught)
    assert not [w for w in caught if issubclass(w.category, plots.CJKFontWarning)]


def test_latin_figures_look_exactly_as_without_the_fallback():
    def latin():
        return plots.bar_distribution([0.25, 0.75], ["rain", "no rain"], q=[0.5, 0.5], title="λ1 + λ2 = 1, ∞")

    with_fallback = rgba(latin())
    with matplotlib.rc_context({"font.family": ["sans-serif"]}):
        without = rgba(latin())
    assert with_fallback.shape == without.shape and (with_fallback == without).all()


def test_without_a_chinese_font_one_message_and_no_glyph_spam(monkeypatch):
    """Simulates a machine without a Chinese font: what import does when find_cjk_font() finds none."""
    monkeypatch.setattr(plots, "find_cjk_font", lambda: None)
    monkeypatch.setattr(plots, "_cjk_font", plots.cjk_font())  # restored after the test
    monkeypatch.setattr(plots, "_warned", False)
    with matplotlib.rc_context(), warnings.catch_warnings(record=True) as caught:
        plots.use_cjk_font(plots.find_cjk_font())
        assert plots.cjk_font() is None and matplotlib.rcParams["font.family"] == ["sans-serif"]
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
    ours = [str(w.message) for w in caught if issubclass(w.category, plots.CJKFontWarning)]
    assert len(ours) == 1, ours
    assert INSTALL in ours[0] and "font-ttf-noto-cjk" in ours[0]
    assert not missing_glyphs(caught), missing_glyphs(caught)
    assert len(missing_glyphs(unfiltered)) >= 10, "the simulation must really lack the Chinese glyphs"
    assert [str(w.message) for w in caught] == ours


def test_use_cjk_font_refuses_a_font_matplotlib_does_not_know():
    with pytest.raises(ValueError, match="name: matplotlib knows no font 'No Such Font'"):
        plots.use_cjk_font("No Such Font")


@pytest.mark.parametrize("cache", ["none yet (a fresh CI machine)", "made before the font was installed"])
def test_a_fresh_or_stale_matplotlib_font_cache_finds_the_font(tmp_path, cache):
    font = require_cjk_font()
    files = plots._fontconfig_chinese_files()
    if not files:
        extras.unavailable("fontconfig (fc-list) lists no Chinese font file here")
    cache_file = tmp_path / f"fontlist-v{font_manager.FontManager.__version__}.json"
    if cache.startswith("made before"):
        stale = copy.copy(font_manager.fontManager)
        stale.ttflist = [entry for entry in stale.ttflist if entry.fname not in files]
        font_manager.json_dump(stale, cache_file)
        assert plots.pick_cjk_font(entry["name"] for entry in json.loads(cache_file.read_text())["ttflist"]) is None
    script = "import lmcore.plots as p; print(p.cjk_font())"
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path), "MPLBACKEND": "Agg"}
    for _ in range(2):  # the second start reads the repaired cache
        result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == font
        assert "findfont" not in result.stderr and "Warning" not in result.stderr, result.stderr
    cached = {entry["fname"] for entry in json.loads(cache_file.read_text())["ttflist"]}
    assert files & cached, "the cache was not saved with the Chinese font files"


def texts_of(fig) -> list[str]:
    """Every text of a figure (title, axis labels, ticks, legend, colour bar), as drawn."""
    fig.canvas.draw()
    return [text.get_text() for text in fig.findobj(matplotlib.text.Text)]


def test_the_figures_labels_follow_the_language_without_a_missing_glyph(chinese):
    from lmcore.i18n import catalog

    require_cjk_font()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would fail here
        figures = {
            "bars": plots.bar_distribution([0.25, 0.75], ["下雨", "不下雨"], q=[0.5, 0.5]),
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
    assert {"p（实际发生的情况）", "q（模型）", "概率", "下雨"} <= set(texts["bars"])
    assert "惊奇度（比特）" in texts["surprisal"] and "∞" in texts["surprisal"]
    zh = catalog("zh")
    assert {"1 阶", zh.get("bigram", "bigram"), "训练词元数（对数刻度）",
            "留出集困惑度（对数刻度）"} <= set(texts["curve"])
    assert {"困惑度（越低越好）", zh.get("unigram", "unigram")} <= set(texts["perplexity"])
    assert {"λ1（一元模型权重）", "λ2（二元模型权重）", "EM 最优解", "你的 λ", "λ1 + λ2 > 1\n（不允许）",
            "每组 (λ1, λ2) 的留出集困惑度；\nλ3 = 1 − λ1 − λ2（三元模型权重）",
            "留出集困惑度（对数色标）；\n灰色：∞，有词元的概率为 0"} <= set(texts["map"])


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
