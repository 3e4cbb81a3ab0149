"""Chinese in figures, on every machine: the font, found and registered with matplotlib.

:mod:`lmcore.plots` (and so every explorer) calls ``use_cjk_font(find_cjk_font())`` when it is
imported: every matplotlib figure then falls back, character by character, from DejaVu Sans
(matplotlib's default, so Latin text looks as always) to a Chinese font (:data:`CJK_FONTS`,
first found wins; :func:`cjk_font` names it). The font comes with ``pip install -r
requirements.txt``: the PyPI package ``noto-cjk-sans-otc`` (:data:`BUNDLED_CJK_FONT`) carries
Noto Sans CJK, which :func:`find_cjk_font` registers with matplotlib, so no system font or
``apt-get`` step is needed. Where neither that package nor a system font is there, the first
figure that holds Chinese text gets one :class:`CJKFontWarning` saying what to install,
instead of one matplotlib warning per missing character.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterable
from pathlib import Path

import matplotlib
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.text import Text

CJK_FONTS: tuple[str, ...] = (
    "Noto Sans CJK SC",  # the bundled font (BUNDLED_CJK_FONT); also Debian's and Ubuntu's fonts-noto-cjk
    "Source Han Sans SC", "Noto Sans SC",  # the same design under its Adobe and its one-language names
    "PingFang SC", "Hiragino Sans GB", "Heiti SC", "STHeiti", "Songti SC",  # macOS
    "Microsoft YaHei", "SimHei", "SimSun",  # Windows
    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",  # other Linux
    # Older matplotlib names a font collection (.ttc) after its first face only.
    "Noto Sans CJK JP", "Noto Sans CJK TC", "Noto Sans CJK HK", "Noto Sans CJK KR", "Heiti TC", "Arial Unicode MS",
)
"""Fonts with Chinese characters, in order of preference: the first one installed is used."""

BUNDLED_CJK_FONT = "noto_cjk_sans_otc"
"""The module of the PyPI package ``noto-cjk-sans-otc`` (in requirements.txt): Noto Sans CJK
Regular as Google publishes it (one OpenType collection, 19.5 MB, SIL Open Font License 1.1),
the font Chinese figure text is set in on every machine."""

MISSING_CJK_FONT = (
    "No font with Chinese characters is installed, so the Chinese text in this figure shows as empty boxes. "
    "Install the course's requirements (`pip install -r requirements.txt`, which brings the font package "
    "noto-cjk-sans-otc), then restart the kernel. A system font works too: `apt-get install fonts-noto-cjk` "
    "(Debian, Ubuntu); macOS and Windows come with one. lmcore.fonts.CJK_FONTS lists the fonts looked for. "
    "(matplotlib's own warning for each missing character is silenced.)"
)


class CJKFontWarning(UserWarning):
    """A figure holds Chinese text but no font with Chinese characters is installed."""


# Han characters, CJK punctuation and symbols, kana, hangul, full-width forms. A pattern
# string, compiled on first use (compiling it costs a few ms, needed only without a font).
_CJK_CHAR = ("[\u2e80-\u2fdf\u3000-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
             "\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f]")
# matplotlib's warning for one such character, e.g. "Glyph 20320 (\N{CJK UNIFIED IDEOGRAPH-4F60})
# missing from font(s) DejaVu Sans."; other missing glyphs (an emoji, say) still warn.
_CJK_GLYPH_WARNING = (r"Glyph \d+ \(\\N\{(CJK|IDEOGRAPHIC|FULLWIDTH|HALFWIDTH|HIRAGANA|KATAKANA|HANGUL|BOPOMOFO"
                      r"|KANGXI|(LEFT|RIGHT) [A-Z ]*BRACKET)\b")
_HOOK = "lmcore.fonts:_watch_for_chinese"  # an rcParams["figure.hooks"] entry
_cjk_font: str | None = None
_warned = False


def pick_cjk_font(available: Iterable[str]) -> str | None:
    """The first font of :data:`CJK_FONTS` among the font names ``available``, or None.

    >>> pick_cjk_font(["DejaVu Sans", "SimHei", "Noto Sans CJK SC"])
    'Noto Sans CJK SC'
    >>> pick_cjk_font(["DejaVu Sans", "Liberation Serif"]) is None
    True
    """
    available = set(available)
    return next((name for name in CJK_FONTS if name in available), None)


def find_cjk_font() -> str | None:
    """The font to take Chinese characters from: the first of :data:`CJK_FONTS` that
    matplotlib knows once the bundled font is registered, else one that fontconfig says
    covers Chinese, else None.

    matplotlib keeps its list of fonts in a cache (``fontlist-*.json`` in
    ``matplotlib.get_cachedir()``) made the first time it runs, from the system's font
    folders only. The files of :data:`BUNDLED_CJK_FONT` are added to that list
    (``fontManager.addfont``) and the cache saved again, so that later starts find them
    at once (reading the collection costs about half a second, once). Only when no font of
    the list is known this way, fontconfig (``fc-list :lang=zh``, where it exists) is asked
    for the files of Chinese fonts installed after the cache was made.

    >>> find_cjk_font()  # requirements.txt brings it
    'Noto Sans CJK SC'
    """
    manager = font_manager.fontManager
    _add_fonts(bundled_cjk_font_files())
    found = pick_cjk_font(manager.get_font_names())
    if found is not None:
        return found
    files = _fontconfig_chinese_files()
    _add_fonts(files)
    names = {entry.name for entry in manager.ttflist if entry.fname in files}
    # A list font if there is one, else a sans-serif one, proportional, by name for a stable choice.
    return pick_cjk_font(names) or min(names, key=lambda name: ("Sans" not in name, "Mono" in name, name),
                                       default=None)


def bundled_cjk_font_files() -> list[str]:
    """The font files of the installed :data:`BUNDLED_CJK_FONT` package, or [] where it is missing.

    >>> all(path.endswith((".ttc", ".otf", ".ttf")) for path in bundled_cjk_font_files())
    True
    """
    spec = importlib.util.find_spec(BUNDLED_CJK_FONT)
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(str(path) for path in folder.iterdir() if path.suffix.lower() in {".ttc", ".otf", ".ttf"})


def _add_fonts(paths: Iterable[str]) -> None:
    """Add the font files matplotlib's list misses, drop the entries whose files are gone, and
    save its cache if anything changed.

    A font file that is gone (the virtual environment that held ``noto-cjk-sans-otc`` was
    deleted) would make matplotlib rebuild its list from the system's folders at the first
    figure, losing the bundled font, and log "findfont: Font family ... not found" for every
    text after that, which a notebook shows.
    """
    manager = font_manager.fontManager
    kept = [entry for entry in manager.ttflist if os.path.exists(entry.fname)]
    changed = len(kept) < len(manager.ttflist)
    manager.ttflist = kept
    for path in sorted(set(paths) - {entry.fname for entry in kept}):
        try:
            manager.addfont(path)
            changed = True
        except Exception:  # a file FreeType cannot read: fontconfig knows more formats
            continue
    if changed:
        cache = Path(matplotlib.get_cachedir(), f"fontlist-v{font_manager.FontManager.__version__}.json")
        # Where the cache cannot be written, the font is simply added again at the next start
        # (json_dump would log a warning, which a notebook shows on stderr).
        if os.access(cache.parent, os.W_OK) and (not cache.exists() or os.access(cache, os.W_OK)):
            font_manager.json_dump(manager, cache)


def _fontconfig_chinese_files() -> set[str]:
    """The font files fontconfig says cover Chinese, in the formats matplotlib reads."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:  # no fontconfig (Windows, most macOS): matplotlib's list is all there is
        return set()
    try:
        listing = subprocess.run([fc_list, ":lang=zh", "--format=%{file}\\n"], capture_output=True,
                                 text=True, timeout=20, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return set()
    return {line for line in listing.splitlines() if line.lower().endswith((".ttf", ".otf", ".ttc"))}


def use_cjk_font(name: str | None) -> None:
    """Let every figure take the characters DejaVu Sans lacks from the font ``name``.

    ``rcParams["font.family"]`` becomes its families so far (by default ``["sans-serif"]``,
    which is DejaVu Sans) followed by ``name``: matplotlib (3.6 and later) takes each
    character from the first font in that list that has it, so Latin text looks exactly as
    without it. The list holds one installed font only: for a font it cannot find,
    matplotlib would log "findfont: Font family ... not found" for every text it draws.

    ``name=None`` (no Chinese font installed) makes the first figure with Chinese text
    that is drawn warn once per process (:class:`CJKFontWarning`, what to install) and
    silences matplotlib's warnings about each missing Chinese character. Importing
    :mod:`lmcore.plots` calls ``use_cjk_font(find_cjk_font())``; ``plt.rcdefaults()`` undoes it.
    """
    global _cjk_font
    if name is not None and name not in font_manager.fontManager.get_font_names():
        raise ValueError(f"name: matplotlib knows no font {name!r} (find_cjk_font() names an installed one)")
    family = [family for family in matplotlib.rcParams["font.family"] if family != _cjk_font]
    hooks = [hook for hook in matplotlib.rcParams["figure.hooks"] if hook != _HOOK]
    if name is None:
        hooks.append(_HOOK)
        warnings.filterwarnings("ignore", message=_CJK_GLYPH_WARNING, category=UserWarning)
    else:
        family.append(name)
    matplotlib.rcParams["font.family"] = family
    matplotlib.rcParams["figure.hooks"] = hooks
    _cjk_font = name


def cjk_font() -> str | None:
    """The font figures take Chinese characters from, or None where no Chinese font is installed.

    >>> cjk_font() is None or cjk_font() in matplotlib.rcParams["font.family"]
    True
    """
    return _cjk_font


def _watch_for_chinese(fig: Figure) -> None:
    """Called on each new pyplot figure (``rcParams["figure.hooks"]``) where no Chinese font is installed."""
    fig.canvas.mpl_connect("draw_event", _warn_if_chinese)


def _warn_if_chinese(event) -> None:
    """After a figure is drawn: the one CJKFontWarning, if the figure holds Chinese text."""
    global _warned
    if _warned or _cjk_font is not None:
        return
    if any(re.search(_CJK_CHAR, text.get_text()) for text in event.canvas.figure.findobj(Text)):
        _warned = True
        # Once more, in case a catch_warnings block has dropped the filter set at import.
        warnings.filterwarnings("ignore", message=_CJK_GLYPH_WARNING, category=UserWarning)
        # Shown at the first line outside matplotlib and lmcore: the code that drew the figure.
        frame, level = inspect.currentframe(), 1
        while frame is not None and re.match(r"(matplotlib|lmcore)(\.|$)", frame.f_globals.get("__name__", "")):
            frame, level = frame.f_back, level + 1
        warnings.warn(MISSING_CJK_FONT, CJKFontWarning, stacklevel=level)
