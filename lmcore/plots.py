"""Small plotting functions the chapters share. Each returns a matplotlib ``Figure``.

The figures are made with ``pyplot`` so that, in a notebook, a cell that builds one
shows it; nothing here calls ``plt.show()`` or closes a figure it returns: that is
the caller's choice. Widgets turn a figure into PNG bytes with :func:`figure_png`
and then close it, so repeated updates never pile up figures.

>>> fig = bar_distribution([0.25, 0.75], ["rain", "no rain"])
>>> len(figure_png(fig)) > 0
True
>>> plt.close(fig)

Chinese in figures: importing this module makes every matplotlib figure take the
characters DejaVu Sans lacks from the Chinese font that ``pip install -r requirements.txt``
brings (:mod:`lmcore.fonts`), so Chinese labels render on any machine.

Axis labels and legends follow the course's language (:func:`lmcore.i18n.set_language`); a
caller's title and tick labels show as given, its model names as the catalogs translate them.

Together with :mod:`lmcore.fonts` and :mod:`lmcore.widgets`, the only modules that import matplotlib.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Mapping, Sequence

import matplotlib
import matplotlib.patches
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from numpy.typing import ArrayLike
from PIL import Image

from lmcore import fonts
from lmcore.i18n import tr, translatable

MODEL_COLOR = "#f28e2b"  # the model m, wherever it appears next to the data p
DATA_COLOR = "#4e79a7"


def figure_png(fig: Figure, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes (for an ``ipywidgets.Image``). Does not close it.

    >>> fig, ax = plt.subplots(); figure_png(fig)[:4] == b"\\x89PNG"; plt.close(fig)
    True
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


class QuickRedraw:
    """PNG frames of a figure in which only a few artists change: the rest is drawn once.

    Drawing a whole figure with its axes, ticks and colour bar takes tens of
    milliseconds; a widget that must answer a slider at once draws the unchanging
    part once, keeps its pixels, and per frame pastes them back and draws only the
    ``moving`` artists (the technique called blitting). ``settled`` artists change
    seldom (an explorer's axis labels when the number of bars changes): they are drawn
    into the kept pixels by :meth:`settle`, called after they change, and cost nothing
    per frame. The figure's layout is frozen after the first draw. Keep the figure out
    of pyplot (``plt.close(fig)``): this class gives it its own Agg canvas.

    >>> fig, ax = plt.subplots(); plt.close(fig)
    >>> (dot,) = ax.plot([0.5], [0.5], "o"); label = ax.text(0.1, 0.1, "start")
    >>> redraw = QuickRedraw(fig, [dot], settled=[label])
    >>> dot.set_data([0.2], [0.7]); redraw.png()[:4] == b"\\x89PNG"
    True
    >>> label.set_text("changed"); redraw.settle(); redraw.png()[:4] == b"\\x89PNG"
    True
    """

    def __init__(self, fig: Figure, moving: Sequence[Artist], settled: Sequence[Artist] = ()):
        self.figure = fig
        self.moving = list(moving)
        self.settled = list(settled)
        self.canvas = FigureCanvasAgg(fig)
        for artist in self.moving + self.settled:
            artist.set_animated(True)  # animated artists are left out of a full draw
        self.canvas.draw()
        fig.set_layout_engine("none")
        self._empty = self.canvas.copy_from_bbox(fig.bbox)
        self.settle()

    def settle(self) -> None:
        """Draw the ``settled`` artists as they are now into the kept background."""
        self.canvas.restore_region(self._empty)
        for artist in self.settled:
            self.figure.draw_artist(artist)
        self._background = self.canvas.copy_from_bbox(self.figure.bbox)

    def png(self) -> bytes:
        """The figure as it is now, as PNG bytes."""
        self.canvas.restore_region(self._background)
        for artist in self.moving:
            self.figure.draw_artist(artist)
        buffer = io.BytesIO()
        # Fast compression: these frames live a second in a browser, not in a file.
        Image.fromarray(np.asarray(self.canvas.buffer_rgba())).save(buffer, format="png", compress_level=1)
        return buffer.getvalue()


def bar_distribution(p: Sequence[float] | np.ndarray, labels: Sequence[str] | None = None,
                     m: Sequence[float] | np.ndarray | None = None, *, title: str | None = None,
                     p_name: str = translatable("p (what happens)"), m_name: str = translatable("m (the model)"),
                     figsize: tuple[float, float] = (5.0, 3.0)) -> Figure:
    """Bars of a distribution ``p``, and of a model ``m`` beside them if given.

    ``p_name`` and ``m_name`` (the legend) are shown in the course's language; ``labels`` and
    ``title`` as given.

    >>> fig = bar_distribution([0.5, 0.5], ["heads", "tails"], m=[0.8, 0.2]); plt.close(fig)
    """
    p = np.asarray(p, dtype=float)
    labels = [str(i) for i in range(p.size)] if labels is None else [str(x) for x in labels]
    if len(labels) != p.size:
        raise ValueError(f"labels has {len(labels)} entries but p has {p.size}")
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    x = np.arange(p.size)
    width = 0.4 if m is not None else 0.7
    ax.bar(x - (width / 2 if m is not None else 0), p, width, color=DATA_COLOR, label=tr(p_name))
    if m is not None:
        ax.bar(x + width / 2, np.asarray(m, dtype=float), width, color=MODEL_COLOR, label=tr(m_name))
        ax.legend(loc="upper right", fontsize="small", frameon=False)
    ax.set_xticks(x, labels, rotation=30 if max(map(len, labels)) > 6 else 0,
                  ha="right" if max(map(len, labels)) > 6 else "center", fontsize="small")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(tr("probability"))
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title)
    return fig


def surprisal_along(tokens: Sequence[str], surprisals_bits: ArrayLike, *, title: str | None = None) -> Figure:
    """Per-token surprisal (bits) along a sentence: one bar per token, ∞ drawn as a red mark.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: which tokens cost the bits".

    >>> fig = surprisal_along(["the", "cat", "sat"], [3.1, 9.4, float("inf")]); plt.close(fig)
    """
    values = np.asarray(surprisals_bits, dtype=float)
    if len(tokens) != values.size:
        raise ValueError(f"tokens has {len(tokens)} entries but surprisals_bits has {values.size}")
    finite = np.isfinite(values)
    top = float(values[finite].max()) if finite.any() else 1.0
    fig, ax = plt.subplots(figsize=(max(4.0, 0.55 * len(tokens) + 1), 3.0), layout="constrained")
    x = np.arange(values.size)
    ax.bar(x[finite], values[finite], color=DATA_COLOR)
    # An impossible token has no finite bar; draw it at the top so the reader sees it.
    for i in x[~finite]:
        ax.bar(i, top * 1.1, color="#e15759", alpha=0.35)
        ax.text(i, top * 1.1, "∞", ha="center", va="bottom", color="#e15759", fontsize="large")
    ax.set_xticks(x, list(tokens), rotation=45, ha="right")
    ax.set_ylabel(tr("surprisal (bits)"))
    ax.set_ylim(0, top * 1.25)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title)
    return fig


def learning_curve(sizes: ArrayLike, perplexities_by_order: Mapping, *, title: str | None = None) -> Figure:
    """Held-out perplexity against training size (log-log, both axes labelled so), one line per model order.

    ``perplexities_by_order`` maps a name (``1``, ``"bigram"``, ...) to one perplexity per size;
    a number ``n`` is shown as "order n", a name as the course's catalogs translate it.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: one fit, three rows, and the learning curve".

    >>> fig = learning_curve([1e3, 1e4], {1: [900, 700], 2: [800, 400]}); plt.close(fig)
    """
    sizes = np.asarray(sizes, dtype=float)
    fig, ax = plt.subplots(figsize=(5.0, 3.5), layout="constrained")
    for name, values in perplexities_by_order.items():
        values = np.asarray(values, dtype=float)
        if values.size != sizes.size:
            raise ValueError(f"perplexities_by_order[{name!r}] has {values.size} values for {sizes.size} sizes")
        label = tr("order {name}", name=name) if isinstance(name, (int, np.integer)) else tr(str(name))
        ax.plot(sizes, values, marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(tr("training tokens (log scale)"))
    ax.set_ylabel(tr("held-out perplexity (log scale)"))
    ax.legend(frameon=False)
    ax.grid(True, which="major", alpha=0.3)
    if title:
        ax.set_title(title)
    return fig


def perplexity_bars(table: Mapping, *, title: str | None = None, log: bool = False) -> Figure:
    """Horizontal bars of ``{model name: perplexity}``, each labelled with its value (∞ allowed);
    the names are shown as the course's catalogs translate them.

    >>> fig = perplexity_bars({"unigram": 962.1, "bigram": float("inf")}); plt.close(fig)
    """
    names = [str(name) for name in table]
    values = np.asarray(list(table.values()), dtype=float)
    finite = np.isfinite(values)
    top = float(values[finite].max()) if finite.any() else 1.0
    fig, ax = plt.subplots(figsize=(5.0, 0.45 * len(names) + 1.0), layout="constrained")
    y = np.arange(len(names))
    ax.barh(y, np.where(finite, values, top * 1.15), color=np.where(finite, DATA_COLOR, "#e15759"))
    for i, value in enumerate(values):
        text = "∞" if math.isinf(value) else f"{value:.1f}"
        ax.text(value if finite[i] else top * 1.15, i, f" {text}", va="center", fontsize="small")
    ax.set_yticks(y, [tr(name) for name in names])
    ax.invert_yaxis()  # first entry on top, as in the table
    ax.set_xlabel(tr("perplexity (lower is better)"))
    if log:
        ax.set_xscale("log")
    else:
        ax.set_xlim(0, top * 1.35)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title)
    return fig


def nice_ticks(low: float, high: float, n: int = 5) -> list[float]:
    """Round numbers from ``low`` to ``high`` for the ticks of a log colour scale: ``n`` to ``2 n``
    of them, 1, 2, 2.5 or 5 times a power of ten apart, when the range is narrow (at most
    4:1, where a log scale is nearly even); else 1, 2 and 5 times the powers of ten within it.

    >>> nice_ticks(81.57, 112.3)
    [85.0, 90.0, 95.0, 100.0, 105.0, 110.0]
    >>> nice_ticks(30, 1000)
    [50.0, 100.0, 200.0, 500.0, 1000.0]
    >>> nice_ticks(2.0, 2.0)
    [2.0]
    """
    if not high > low:
        return [float(low)]
    if low > 0 and high / low > 4:
        decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
        return [float(m * 10.0**e) for e in decades for m in (1, 2, 5) if low <= m * 10.0**e <= high]
    raw = (high - low) / max(n, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (5, 2.5, 2, 1) if m * power <= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def lambda_triangle_map(lambda1: ArrayLike, lambda2: ArrayLike, perplexity: ArrayLike, *,
                        current: Sequence[float] | None = None, optimum: Sequence[float] | None = None,
                        optimum_label: str = translatable("EM optimum"), figsize: tuple[float, float] = (4.8, 3.9),
                        data_name: str = translatable("held-out")) -> Figure:
    """Held-out perplexity over the λ triangle, drawn on the (λ1, λ2) square.

    ``perplexity[i, j]`` belongs to ``(lambda1[j], lambda2[i])`` (rows are λ2, as an
    image); NaN marks the invalid half where λ1 + λ2 > 1 (left blank: the map is cut
    along the diagonal λ1 + λ2 = 1, so its edge is a straight line, not a staircase of
    grid cells), ``inf`` the points where some held-out token gets probability 0 (grey).
    ``current`` and ``optimum`` are ``(λ1, λ2, ...)`` points to mark. The colours follow
    the perplexity on a log scale up to its 90th percentile, so that the valley around the
    best weights stays visible; the colour bar has round ticks. The current point's marker
    has gid ``"current"`` so that a widget can move it with ``set_data`` and redraw.
    ``optimum_label`` and ``data_name`` are English texts, shown in the course's language.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "The λ explorer".

    >>> g = np.linspace(0, 1, 3); pp = np.array([[9, 5, 7], [4, 3, np.nan], [np.inf, np.nan, np.nan]])
    >>> fig = lambda_triangle_map(g, g, pp, current=(0.5, 0.5)); plt.close(fig)
    """
    lambda1, lambda2 = np.asarray(lambda1, dtype=float), np.asarray(lambda2, dtype=float)
    values = np.asarray(perplexity, dtype=float)
    if values.shape != (lambda2.size, lambda1.size):
        raise ValueError(f"perplexity has shape {values.shape}, expected (len(lambda2), len(lambda1)) = "
                         f"{(lambda2.size, lambda1.size)}")
    finite = values[np.isfinite(values)]
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    cmap = matplotlib.colormaps["viridis"].with_extremes(over="#bbbbbb", bad=(1, 1, 1, 0))
    half_step1 = (lambda1[1] - lambda1[0]) / 2 if lambda1.size > 1 else 0.5
    half_step2 = (lambda2[1] - lambda2[0]) / 2 if lambda2.size > 1 else 0.5
    extent = (lambda1[0] - half_step1, lambda1[-1] + half_step1, lambda2[0] - half_step2, lambda2[-1] + half_step2)
    # The allowed triangle with the whole grid cells of its two straight edges, cut along λ1 + λ2 = 1.
    corners = [(extent[0], extent[2]), (1 - extent[2], extent[2]), (extent[0], 1 - extent[0])]
    triangle = matplotlib.patches.Polygon(corners, closed=True, transform=ax.transData)
    if finite.size:
        # The colours span the best perplexity up to the 90th percentile: the corners can be
        # ten times worse than the valley, and a full-range scale would hide the valley.
        vmax = max(float(np.percentile(finite, 90)), float(finite.min()) * 1.0001)
        norm = LogNorm(vmin=finite.min(), vmax=vmax)
        shown = np.where(np.isinf(values), vmax * 10, np.minimum(values, vmax))  # only inf is "over": grey
        # The grid cells on the diagonal are cut in half by it; fill their outer half with the row's
        # last valid value, then cut the image along the diagonal.
        for row in shown:
            valid = np.flatnonzero(~np.isnan(row))
            if valid.size:
                row[valid[-1] + 1:] = row[valid[-1]]
        image = ax.imshow(shown, origin="lower", extent=extent, cmap=cmap, norm=norm,
                          interpolation="nearest", aspect="equal")
        image.set_clip_path(triangle)
        colorbar = fig.colorbar(image, ax=ax, extend="max" if np.isinf(values).any() else "neither",
                                shrink=0.85)
        ticks = [t for t in nice_ticks(float(finite.min()), vmax) if finite.min() <= t <= vmax]
        colorbar.set_ticks(ticks, labels=[f"{t:g}" for t in ticks])
        colorbar.ax.minorticks_off()
        colorbar.set_label(tr("{data_name} perplexity (log colour scale)", data_name=tr(data_name))
                           + (tr(";\ngrey: ∞, some token gets probability 0") if np.isinf(values).any() else ""),
                           fontsize="small")
    ax.plot([0, 1], [1, 0], color="black", linewidth=0.8)
    ax.text(0.7, 0.7, tr("λ1 + λ2 > 1\n(not allowed)"), ha="center", va="center", fontsize="small", color="0.4")
    if optimum is not None:
        ax.plot(optimum[0], optimum[1], marker="*", markersize=14, color="white",
                markeredgecolor="black", linestyle="none", label=tr(optimum_label))
    if current is not None:
        ax.plot(current[0], current[1], marker="o", markersize=9, markerfacecolor="none",
                markeredgecolor="#e15759", markeredgewidth=2.5, linestyle="none", label=tr("your λ"), gid="current")
    if optimum is not None or current is not None:
        ax.legend(loc="upper right", fontsize="small", framealpha=0.9)
    ax.set_xlim(min(extent[0], 0) - 0.02, 1.03)
    ax.set_ylim(min(extent[2], 0) - 0.02, 1.03)
    ax.set_xlabel(tr("λ1 (unigram weight)"))
    ax.set_ylabel(tr("λ2 (bigram weight)"))
    ax.set_title(tr("{data_name} perplexity for each (λ1, λ2);\nλ3 = 1 − λ1 − λ2 (trigram weight)",
                    data_name=tr(data_name).capitalize()), fontsize="medium")
    return fig


MATCHED_COLOR, UNMATCHED_COLOR = "#9fd39f", "#e4e4e4"  # ngram_matches: green counts, grey does not
ORDER_NAMES = {1: translatable("1-grams"), 2: translatable("2-grams"), 3: translatable("3-grams"),
               4: translatable("4-grams")}


def _quoted(tokens: Sequence[str]) -> str:
    return "“" + " ".join(tokens) + "”"


def ngram_matches(hypothesis: Sequence[str], reference_sets: Sequence[Sequence[Sequence[str]]], *,
                  max_order: int = 2) -> Figure:
    """The n-grams of a tokenized ``hypothesis``, green where they count for BLEU's clipped
    precision: one panel per entry of ``reference_sets`` (a list of tokenized references).

    Each panel draws the hypothesis's n-grams of orders 1 to ``max_order`` (at most 4), one row
    per order, every n-gram centred under the words it spans. The k-th copy of an n-gram ``g`` is
    green when k ≤ max_j count_j(g), the most copies of ``g`` in one reference (the clipping
    limit), so the green boxes of row n are the numerator of p_n and all its boxes the
    denominator. The titles quote the hypothesis and the references, in the course's language.

    Introduced in notebooks/06_bleu.ipynb, section "Clipped n-gram precision".

    >>> fig = ngram_matches("the the cat".split(), [["the cat".split()]])  # the second "the" is grey: clipped
    >>> fig.axes[0].get_title()
    'hypothesis “the the cat” against reference “the cat”'
    >>> plt.close(fig)
    """
    hypothesis = [str(token) for token in hypothesis]
    if max_order not in ORDER_NAMES:
        raise ValueError(f"max_order must be 1 to {max(ORDER_NAMES)}, got {max_order!r}")
    if not hypothesis or not reference_sets or any(not refs for refs in reference_sets):
        raise ValueError("ngram_matches needs a non-empty hypothesis and at least one reference in every set")
    fig, axes = plt.subplots(len(reference_sets), 1, figsize=(max(6.4, 1.2 * len(hypothesis) + 1.6),
                                                              1.6 * len(reference_sets) * max_order / 2),
                             squeeze=False, layout="constrained")
    for ax, references in zip(axes[:, 0], reference_sets):
        for n in range(1, max_order + 1):
            y = max_order - n  # unigrams on top
            limit = Counter()
            for reference in references:
                counts = Counter(zip(*(list(reference)[i:] for i in range(n))))
                limit = limit | counts  # the most copies of each n-gram in one reference
            seen: Counter = Counter()
            for i, gram in enumerate(zip(*(hypothesis[i:] for i in range(n)))):
                seen[gram] += 1
                colour = MATCHED_COLOR if seen[gram] <= limit[gram] else UNMATCHED_COLOR
                ax.text(i + (n - 1) / 2, y, " ".join(gram), ha="center", va="center", fontsize=13 if n == 1 else 11,
                        bbox={"boxstyle": "round", "fc": colour, "ec": "none"})
            ax.text(-0.9, y, tr(ORDER_NAMES[n]), ha="right", va="center")
        if len(references) == 1:
            against = tr("reference {text}", text=_quoted(references[0]))
        else:
            against = tr("references {texts} and {last}", texts=tr(", ").join(map(_quoted, references[:-1])),
                         last=_quoted(references[-1]))
        ax.set(xlim=(-2.2, len(hypothesis) - 0.4), ylim=(-0.6, max_order - 0.4))
        ax.set_title(tr("hypothesis {hypothesis} against {references}", hypothesis=_quoted(hypothesis),
                        references=against), fontsize="medium")
        ax.axis("off")
    return fig


SYSTEM_COLORS = (DATA_COLOR, "#e15759", MODEL_COLOR, "#59a14f", "#b07aa1")  # score_histograms, in this order


def score_histograms(scores: Mapping[str, ArrayLike], *, xlabel: str, ylabel: str = translatable("sentences"),
                     title: str | None = None, bins: int = 20) -> Figure:
    """Step histograms of scores between 0 and 1 (sentence BLEU, say), one outline per system.

    ``scores`` maps a system's name (shown as given, in the legend) to its scores; ``xlabel`` and
    ``ylabel`` are English texts, shown in the course's language; ``title`` as given. The bins
    are ``bins`` equal widths from 0 to 1, the same for every system, so the outlines compare.

    Introduced in notebooks/06_bleu.ipynb, section "Going further: beyond BLEU".

    >>> fig = score_histograms({"A": [0.1, 0.5, 0.5], "B": [0.9]}, xlabel="sentence BLEU")
    >>> fig.axes[0].get_legend().get_texts()[1].get_text()
    'B'
    >>> plt.close(fig)
    """
    if not 1 <= len(scores) <= len(SYSTEM_COLORS):
        raise ValueError(f"score_histograms draws 1 to {len(SYSTEM_COLORS)} systems, got {len(scores)}")
    arrays = {name: np.asarray(values, dtype=float) for name, values in scores.items()}
    for name, values in arrays.items():
        if not np.all((values >= 0) & (values <= 1)):
            raise ValueError(f"scores[{name!r}] must lie between 0 and 1 (BLEU on its 0-1 scale)")
    edges = np.linspace(0, 1, bins + 1)
    fig, ax = plt.subplots(figsize=(6.4, 3.2), layout="constrained")
    for (name, values), colour in zip(arrays.items(), SYSTEM_COLORS):
        ax.hist(values, bins=edges, histtype="step", linewidth=2, color=colour, label=str(name))
    ax.set_xlabel(tr(xlabel))
    ax.set_ylabel(tr(ylabel))
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return fig


fonts.use_cjk_font(fonts.find_cjk_font())  # Chinese labels in every figure from here on
