"""The BLEU explorer: type a hypothesis and up to four references, watch every count of BLEU.

What it teaches: BLEU counts the hypothesis's n-grams (n = 1..N), clips each count at the
most copies of that n-gram in any one reference, divides by the number of hypothesis
n-grams (p_n), takes the weighted geometric mean of p_1..p_N and multiplies by the brevity
penalty. The table shows each n-gram's count in the hypothesis and in every reference, the
clipping limit and the clipped count; beside it p_1..p_N, c, r, the brevity penalty, lmcore's
score and sacrebleu's score for the same input (they agree). The tokenizer (sacrebleu's
13a, intl, zh, char or none) decides what a "word" is, and changes the number.

The pattern, as in every explorer: pure compute (:func:`bleu_report`) -> render
(:func:`bleu_html`) -> thin wiring (:class:`BleuExplorer`).

>>> report = bleu_report("我 是 一位 老师", ["我 是 一个 学生"], tokenize="none", max_order=2)
>>> f"{report.result.score:.4f} {report.sacrebleu_score:.2f}"
'0.4082 40.82'
"""

from __future__ import annotations

import functools
import html
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from lmcore import bleu
from lmcore.checks import check_str
from lmcore.i18n import tr, translatable
from lmcore.widgets.base import (
    Explorer,
    format_number,
    help_box,
    notes_html,
    readable,
    scroll_box,
    span,
    table_html,
)

__all__ = ["MAX_REFERENCES", "BleuPreset", "BLEU_PRESETS", "BleuReport", "bleu_report", "bleu_html", "BleuExplorer"]

MAX_REFERENCES = 4
ROWS_SHOWN_PER_ORDER = 30  # a 2,000-word paste is scored in full, but its table would be 8,000 rows long
TOKENS_SHOWN = 60
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class BleuPreset:
    """A starting point for the explorer: a hypothesis, its references and the settings."""

    hypothesis: str
    references: tuple[str, ...]
    tokenize: str = "13a"
    max_order: int = 4


BLEU_PRESETS: dict[str, BleuPreset] = {
    translatable("course example 1: 0.4082"): BleuPreset("我 是 一位 老师", ("我 是 一个 学生",), "none", 2),
    translatable("course example 2: two references, 0.7071"): BleuPreset(
        "我 是 一位 老师", ("我 是 一个 学生", "我 是 一位 学生 。"), "none", 2),
    translatable("course example 3, 2nd sentence: p₂ = 0"): BleuPreset("跟我 学 深度学习", ("跟我 一起 学 机器学习",),
                                                                      "none", 2),
    translatable("clipping: the the the"): BleuPreset("the the the the the the the", ("the cat is on the mat",
                                                                                      "there is a cat on the mat"),
                                                      "13a", 1),
    translatable("too short: A B (brevity penalty)"): BleuPreset("A B", ("A B C D E F",), "13a", 2),
    translatable("unspaced Chinese: try zh, char, 13a"): BleuPreset("我是一位老师", ("我是一个学生",), "zh", 2),
}
"""The course's examples (chapter 6), by name; the explorer starts from one of them. The names are
the menu's values; the menu shows each in the course's language (``tr(name)``)."""


@dataclass(frozen=True)
class BleuReport:
    """Everything the explorer shows for one input.

    ``hyp_tokens`` and ``ref_tokens`` as the tokenizer split them; ``rows``: every distinct
    hypothesis n-gram (``lmcore.bleu.ngram_matches``); ``result``: lmcore's ``BleuResult``
    (None when no reference was given); ``sacrebleu_score``: sacrebleu's score for the same
    input on its 0-100 scale (None if sacrebleu is missing); ``sacrebleu_signature`` its
    signature; ``reference_numbers``: which reference boxes (1-based) held text;
    ``messages``: what the student should know about the input.
    """

    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[tuple[str, ...], ...]
    reference_numbers: tuple[int, ...]
    tokenize: str
    max_order: int
    rows: tuple[bleu.NgramRow, ...]
    result: bleu.BleuResult | None
    sacrebleu_score: float | None
    sacrebleu_signature: str | None
    messages: tuple[str, ...]


@functools.cache
def _sacrebleu_metric(tokenize: str, max_order: int):
    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        return None
    return BLEU(tokenize=tokenize, smooth_method="none", effective_order=False, max_ngram_order=max_order)


def bleu_report(hypothesis: str, references: Sequence[str], *, tokenize: str = "13a",
                max_order: int = 4) -> BleuReport:
    """Tokens, n-gram table, lmcore's BLEU and sacrebleu's for one hypothesis and its references.

    Unsmoothed sentence BLEU with uniform weights 1/N (N = ``max_order``), as in the course.
    Empty references are left out (their box numbers are kept in ``reference_numbers``); with
    none left there is no score, only a message. An empty hypothesis scores 0 (c = 0, so the
    brevity penalty is 0), with a message saying so.

    Introduced in notebooks/06_bleu.ipynb, section "The BLEU explorer".

    >>> report = bleu_report("the the the the the the the", ["the cat is on the mat"], max_order=1)
    >>> [(row.ngram, row.count, row.clipped_count) for row in report.rows]
    [(('the',), 7, 2)]
    """
    check_str(hypothesis, "hypothesis")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list of strings (one per reference box)")
    if len(references) > MAX_REFERENCES:
        raise ValueError(f"at most {MAX_REFERENCES} references, got {len(references)}")
    for i, reference in enumerate(references):
        check_str(reference, f"references[{i}]")
    bleu.BleuSettings(tokenize=tokenize, max_order=max_order)  # both checked, and named if wrong
    numbers = tuple(i + 1 for i, reference in enumerate(references) if reference.strip())
    used = [references[i - 1] for i in numbers]
    messages = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # lmcore warns about unspaced Chinese: said below in words instead
        hyp_tokens = bleu.bleu_tokens(hypothesis, tokenize)
        ref_tokens = [bleu.bleu_tokens(reference, tokenize) for reference in used]
    if caught:
        messages.append(tr("A sentence is Chinese without spaces, and tokenize={tokenize} splits only at spaces "
                           "(and punctuation), so it is one single token. Choose zh or char to score it character "
                           "by character, or put spaces between the words.", tokenize=repr(tokenize)))
    elif tokenize not in ("zh", "char") and any(_CJK.search(t) and _LATIN.search(t) for t in [hypothesis, *used]):
        messages.append(tr("Mixed scripts: with tokenize={tokenize}, Chinese characters between two spaces count "
                           "as one token; zh splits them into characters and keeps the rest as 13a does.",
                           tokenize=repr(tokenize)))
    if not used:
        messages.insert(0, tr("Type at least one reference: BLEU compares the hypothesis with reference "
                              "translations."))
        return BleuReport(tuple(hyp_tokens), (), (), tokenize, max_order, (), None, None, None, tuple(messages))
    if not hyp_tokens:
        messages.insert(0, tr("The hypothesis is empty: c = 0, so the brevity penalty is 0 and BLEU is 0."))
    rows = bleu.ngram_matches(hyp_tokens, ref_tokens, max_order=max_order)
    result = bleu.sentence_bleu(hyp_tokens, ref_tokens, max_order=max_order)
    result = bleu.bleu_from_stats(result.stats, nrefs=len(used), tokenize=tokenize)  # the signature of this input
    stats = result.stats
    order = next((n for n, m in enumerate(stats.matches, start=1) if m == 0), None)
    if hyp_tokens and order is not None and stats.totals[order - 1] == 0:
        messages.append(tr("The hypothesis has {count} token(s), so no {order}-grams at all: with N = {max_order}, "
                           "unsmoothed BLEU is 0 (lower N, or see sacrebleu's effective order).",
                           count=stats.hyp_len, order=order, max_order=max_order))
    elif hyp_tokens and order is not None:
        messages.append(tr("No {order}-gram of the hypothesis is in any reference, so p_{order} = 0 and the "
                           "geometric mean is 0: unsmoothed BLEU is 0 (smoothing, in chapter 6's \"Going "
                           "further\", avoids it).", order=order))
    metric = _sacrebleu_metric(tokenize, max_order)
    sacre, sacre_signature = None, None
    if metric is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sacre = metric.corpus_score([hypothesis], [[reference] for reference in used]).score
        sacre_signature = str(metric.get_signature())
    return BleuReport(tuple(hyp_tokens), tuple(map(tuple, ref_tokens)), numbers, tokenize, max_order, tuple(rows),
                      result, sacre, sacre_signature, tuple(messages))


# --- render ---------------------------------------------------------------------------------


# Both ways scrolling: the n-gram table and the tokens, each in its own named box (a slide shows a
# 120-row table of a long verse in 15 lines); the table's header stays in view.
_NGRAM_TABLE_HEIGHT, _TOKENS_HEIGHT = "210px", "100px"
_BACKGROUND = "var(--jp-layout-color0, var(--pst-color-background, #fff))"  # the page's, as behind the table


def _sticky_header(table: str) -> str:
    """A table whose header row stays in view while its box scrolls down."""
    return table.replace('<th scope="col" style="',
                         f'<th scope="col" style="position: sticky; top: 0; background: {_BACKGROUND}; ')


def _tokens_html(tokens: Sequence[str]) -> str:
    shown = " | ".join(html.escape(token) for token in tokens[:TOKENS_SHOWN])
    more = tr(" … (+{count:,} more)", count=len(tokens) - TOKENS_SHOWN) if len(tokens) > TOKENS_SHOWN else ""
    return f"<code>{shown}</code>{more}" if tokens else f"<i>{tr('(no tokens)')}</i>"


def _ngram_rows(report: BleuReport) -> tuple[list[list[str]], list[str]]:
    rows, notes, shown = [], [], {}
    for row in report.rows:
        shown[row.order] = shown.get(row.order, 0) + 1
        if shown[row.order] > ROWS_SHOWN_PER_ORDER:
            continue
        limit = max(row.ref_counts)
        if not limit:
            cell = tr("0 (in no reference)")
        elif row.clipped_count < row.count:
            cell = tr("<b>{count}</b> (clipped)", count=row.clipped_count)
        else:
            cell = str(row.clipped_count)
        rows.append([str(row.order), html.escape(" ".join(row.ngram)), str(row.count),
                     *(str(count) for count in row.ref_counts), str(limit), cell])
    for order, count in shown.items():
        if count > ROWS_SHOWN_PER_ORDER:
            notes.append(tr("The table shows the first {shown} of {count:,} distinct {order}-grams; the counts "
                            "and the scores below use all of them.", shown=ROWS_SHOWN_PER_ORDER, count=count,
                            order=order))
    return rows, notes


# The boxes' names, for a screen reader.
_TOKENS_NAME = translatable("tokens of the hypothesis and the references")
_NGRAM_TABLE_NAME = translatable("the hypothesis's n-grams, counted and clipped")
_ORDER_TABLE_NAME = translatable("precision p_n of each order")


def bleu_html(report: BleuReport) -> str:
    """The report as HTML: tokens, the n-gram table, p_n, brevity penalty, both scores, messages.
    Numbers sit in ``lmcore-...`` spans (``lmcore-bleu-score``, ``lmcore-sacrebleu-score``,
    ``lmcore-bp``, ``lmcore-p1``...), hooks for the tests.

    >>> "0.4082" in bleu_html(bleu_report("我 是 一位 老师", ["我 是 一个 学生"], tokenize="none", max_order=2))
    True
    """
    lines = [f"<div>{tr('hypothesis ({count} tokens):', count=len(report.hyp_tokens))} "
             f"{_tokens_html(report.hyp_tokens)}</div>"]
    for number, tokens in zip(report.reference_numbers, report.ref_tokens):
        lines.append(f"<div>{tr('reference {number} ({count} tokens):', number=number, count=len(tokens))} "
                     f"{_tokens_html(tokens)}</div>")
    tokens = scroll_box("".join(lines), tr(_TOKENS_NAME), _TOKENS_HEIGHT)
    result = report.result
    if result is None:
        return tokens + notes_html(report.messages)
    table_rows, table_notes = _ngram_rows(report)
    columns = ["n", tr("n-gram"), tr("count in hypothesis"),
               *(tr("in ref {number}", number=n) for n in report.reference_numbers),
               tr("clip at (most in one ref)"), tr("clipped count")]
    counts = [tokens]
    if table_rows:
        counts.append(_sticky_header(table_html(columns, table_rows, label=tr(_NGRAM_TABLE_NAME),
                                                max_height=_NGRAM_TABLE_HEIGHT)))
    else:
        counts.append(f"<p><i>{tr('(no n-grams)')}</i></p>")
    counts.append(notes_html(table_notes))
    parts = []
    stats = result.stats
    order_rows = [[f"p<sub>{n}</sub>", str(m), str(t), span(f"lmcore-p{n}", format_number(p) if t else "—"),
                   f"{w:.4f}"]
                  for n, (m, t, p, w) in enumerate(zip(stats.matches, stats.totals, result.precisions,
                                                       result.weights), start=1)]
    parts.append(table_html([tr("order"), tr("clipped matches"), tr("hypothesis n-grams"), "p<sub>n</sub>",
                             tr("weight")], order_rows, label=tr(_ORDER_TABLE_NAME)))
    bp_formula = "1 (c > r)" if stats.hyp_len > stats.ref_len else (
        f"exp(1 − {stats.ref_len}/{stats.hyp_len})" if stats.hyp_len else "0 (c = 0)")
    bp = span("lmcore-bp", format_number(result.brevity_penalty))
    parts.append("<p>" + tr("c = {c} hypothesis tokens, r = {r} (the closest reference length); brevity penalty "
                            "BP = {formula} = {bp}", c=stats.hyp_len, r=stats.ref_len, formula=bp_formula, bp=bp)
                 + "</p>")
    score = (f"<p><b>BLEU = {span('lmcore-bleu-score', format_number(result.score))}</b> "
             + tr("(0-100 scale: {score})", score=span("lmcore-bleu-score100", f"{result.score100:.2f}")))
    if report.sacrebleu_score is not None:
        sacre = span("lmcore-sacrebleu-score", f"{report.sacrebleu_score:.2f}")
        if abs(report.sacrebleu_score - result.score100) < 1e-9:
            score += tr("; sacrebleu: {score} (its 0-100 scale; the same)", score=sacre)
        else:
            score += tr("; sacrebleu: {score} (its 0-100 scale; DIFFERENT)", score=sacre)
    parts.append(score + "</p>")
    signatures = f"lmcore: <code>{html.escape(result.signature.format(short=True))}</code>"
    if report.sacrebleu_signature:
        signatures += f"<br>sacrebleu: <code>{html.escape(report.sacrebleu_signature)}</code>"
    parts.append(f'<p style="font-size: 90%; overflow-wrap: anywhere">{signatures}</p>')  # a signature has no space
    parts.append(notes_html(report.messages))
    # The tokens and the n-gram table beside the precisions and the scores, one above the other
    # where the column is narrow.
    return ('<div style="display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: flex-start">'
            f'<div style="flex: 1 1 34em; min-width: 0">{"".join(counts)}</div>'
            f'<div style="flex: 1 1 24em; min-width: 0">{"".join(parts)}</div></div>')


# --- wiring ---------------------------------------------------------------------------------


def _shown_options(names) -> list:
    """A menu's options for ``names``, each shown as ``tr(name)`` with the name itself as its value:
    (shown, name) pairs, or the names alone where every one reads as itself (English).

    >>> _shown_options(["clipping: the the the"])
    ['clipping: the the the']
    """
    pairs = [(tr(name), name) for name in names]
    return [name for _, name in pairs] if all(shown == name for shown, name in pairs) else pairs


_BLEU_HELP = translatable(
    "<b>BLEU, count by count.</b> Edit the hypothesis (a system's translation) and up to four references "
    "(human translations), or pick a preset. Every n-gram of the hypothesis is counted, and its count is "
    "<i>clipped</i> at the most copies in any one reference; p<sub>n</sub> = clipped matches / hypothesis "
    "n-grams; BLEU = BP × (p<sub>1</sub> ⋯ p<sub>N</sub>)<sup>1/N</sup>. sacrebleu's score for the same input "
    "stands beside lmcore's."
)


_TEXT_WIDTH, _BOXES_WIDTH = "540px", "630px"  # side by side in a 1280 x 720 slide's 1,198 px


class BleuExplorer(Explorer):
    """Text boxes for a hypothesis and ``MAX_REFERENCES`` references, menus for the preset, the
    tokenizer and the max order N; the report (:func:`bleu_html`) follows every keystroke.

    Controls: ``preset``, ``tokenize``, ``max_order`` (Dropdowns), ``hypothesis`` (Text),
    ``references`` (a list of Text). ``result`` is the last :class:`BleuReport`. Extra presets
    (e.g. a verse read from ``lmcore.text``) can be passed as ``presets``.

    Introduced in notebooks/06_bleu.ipynb, section "The BLEU explorer".

    >>> explorer = BleuExplorer()
    >>> explorer.references[1].value = "我 是 一位 学生 。"
    >>> f"{explorer.result.result.score:.4f}"
    '0.7071'
    """

    def __init__(self, preset: str = "course example 1: 0.4082", presets: Mapping[str, BleuPreset] | None = None):
        self.presets = {**BLEU_PRESETS, **dict(presets or {})}
        if preset not in self.presets:
            raise ValueError(f"preset must be one of {tuple(self.presets)}, got {preset!r}")
        for name, value in self.presets.items():
            if not isinstance(value, BleuPreset) or len(value.references) > MAX_REFERENCES:
                raise TypeError(f"presets[{name!r}] must be a BleuPreset with at most {MAX_REFERENCES} references")
        self.result: BleuReport | None = None
        # Widths in px: a slide's em is its large font's (RISE), not the controls'.
        style, wide = {"description_width": "90px"}, widgets.Layout(width="100%")
        self.preset = widgets.Dropdown(options=_shown_options(self.presets), value=preset, description=tr("preset"),
                                       style=style, layout=widgets.Layout(width="420px"))
        self.hypothesis = widgets.Text(description=tr("hypothesis"), continuous_update=True, style=style,
                                       layout=wide)
        self.references = [widgets.Text(description=tr("reference {number}", number=i + 1), continuous_update=True,
                                        style=style, layout=wide) for i in range(MAX_REFERENCES)]
        self.tokenize = widgets.Dropdown(options=list(bleu.TOKENIZERS), description=tr("tokenize"), style=style,
                                         layout=widgets.Layout(width="210px"))
        self.max_order = widgets.Dropdown(options=[1, 2, 3, 4], description=tr("max order N"), style=style,
                                          layout=widgets.Layout(width="210px"))
        self.output = widgets.HTML()
        for control, css in [(self.preset, "lmcore-bleu-preset"), (self.hypothesis, "lmcore-bleu-hypothesis"),
                             (self.tokenize, "lmcore-bleu-tokenize"), (self.max_order, "lmcore-bleu-max-order"),
                             (self.output, "lmcore-result")]:
            control.add_class(css)
        for i, box in enumerate(self.references):
            box.add_class("lmcore-bleu-reference")
            box.add_class(f"lmcore-bleu-reference{i + 1}")
        # The explanation and the menus beside the text boxes, then the report (itself two columns):
        # on a 1280 x 720 slide it fits without scrolling (one below the other, it was 858 px tall);
        # each row wraps where the column is narrow.
        wrap = {"flex_flow": "row wrap", "grid_gap": "4px 24px", "align_items": "flex-start"}
        self.widget = widgets.VBox([
            widgets.HBox([
                widgets.VBox([help_box(tr(_BLEU_HELP), None), self.preset,
                              widgets.HBox([self.tokenize, self.max_order], layout=widgets.Layout(**wrap))],
                             layout=widgets.Layout(width=_TEXT_WIDTH)),
                widgets.VBox([self.hypothesis, *self.references], layout=widgets.Layout(width=_BOXES_WIDTH)),
            ], layout=widgets.Layout(**wrap)),
            self.output,
        ])
        self.widget.add_class("lmcore-bleu-explorer")
        self._holding = False
        self._load_preset()
        self.preset.observe(self._load_preset, names="value")
        for control in [self.hypothesis, *self.references, self.tokenize, self.max_order]:
            control.observe(self._update, names="value")
        self._update()

    def _load_preset(self, change=None) -> None:
        chosen = self.presets[self.preset.value]
        self._holding = True  # one update for the whole preset, not one per box
        try:
            self.hypothesis.value = chosen.hypothesis
            for i, box in enumerate(self.references):
                box.value = chosen.references[i] if i < len(chosen.references) else ""
            self.tokenize.value, self.max_order.value = chosen.tokenize, chosen.max_order
        finally:
            self._holding = False
        if change is not None:
            self._update()

    def _update(self, change=None) -> None:
        if self._holding:
            return
        try:
            report = bleu_report(self.hypothesis.value, [box.value for box in self.references],
                                 tokenize=self.tokenize.value, max_order=self.max_order.value)
        except Exception as error:  # an explorer shows a message, never a traceback
            self.output.value = readable(notes_html([tr("Could not score this input: {error}", error=error)]))
            self.result = None
            return
        self.output.value = readable(bleu_html(report))  # single-spaced, not at a control's 28 px
        self.result = report
