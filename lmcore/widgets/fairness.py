"""The fair-comparison explorer: which perplexities may be compared with each other.

What it teaches: perplexity per token depends on what a token is and on the
vocabulary. Scoring the same test text with characters instead of words, or with
a higher vocabulary cut-off (more words become ``<unk>``), changes the number
without the model predicting the text any better. Bits per character, the total
information divided by the same character count, is what compares across units.
The characters are counted as chapters 4 and 7 count them
(:func:`lmcore.evaluate.count_characters`): every character of the text plus one
line break per sentence, the one ``</s>`` stands for.

The pattern, as in every explorer: pure compute (:func:`fairness_grid`, slow, run
once; :func:`fairness_report`, a look-up) -> render (:func:`fairness_html`) -> thin
wiring (:class:`FairnessExplorer`).

>>> from dataclasses import replace
>>> word = FairnessRow(unit="word", min_count=1, vocabulary=10, oov_rate=0.0, n_tokens=10, perplexity=512.0,
...                    bits_per_token=9.0, total_bits=90.0, n_characters=30, bits_per_character=3.0)
>>> grid = {("word", 1): word, ("char", 1): replace(word, unit="char", perplexity=5.0, bits_per_character=2.5)}
>>> fairness_report(grid, "char", 1).bits_per_character_change
-0.5
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import ipywidgets as widgets

from lmcore.checks import check_str
from lmcore.evaluate import count_characters, evaluate
from lmcore.i18n import Message, localised, tr, translatable
from lmcore.ngram import Interpolated
from lmcore.text import Vocabulary
from lmcore.widgets.base import (
    Explorer,
    format_number,
    help_box,
    notes_html,
    readable,
    span,
    table_html,
)

__all__ = ["FairnessRow", "fairness_grid", "FairnessReport", "fairness_report", "fairness_html", "FairnessExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FairnessRow:
    """An interpolated model's test score under one tokenization ``unit`` and vocabulary cut-off.

    ``vocabulary`` is |V|, the number of outcomes the model predicts among (known
    units, ``<unk>`` and ``</s>``); ``oov_rate`` the fraction of test units (without
    ``</s>``) outside the vocabulary, scored as ``<unk>``; ``n_tokens`` the count N
    (units and one ``</s>`` per sentence). ``total_bits = n_tokens * bits_per_token``
    and ``bits_per_character = total_bits / n_characters``, with ``n_characters`` the
    characters of the test text plus one line break per sentence
    (:func:`lmcore.evaluate.count_characters`), the same whatever the unit: the one
    number here that compares units.
    """

    unit: str
    min_count: int
    vocabulary: int
    oov_rate: float
    n_tokens: int
    perplexity: float
    bits_per_token: float
    total_bits: float
    n_characters: int
    bits_per_character: float


def fairness_grid(data: Mapping[str, Sequence], min_counts: Sequence[int] = (1, 2, 5),
                  order: int = 2) -> dict[tuple[str, int], FairnessRow]:
    """Test perplexity of an interpolated model for every tokenization unit and vocabulary cut-off.

    ``data`` maps a unit name (say ``"word"`` and ``"char"``) to ``(train, heldout,
    test)`` sentences of that unit, tokens written without a separator (Chinese words,
    or characters); every unit's test sentences must spell the same text, whose
    characters, one line break per sentence included, divide every unit's total bits
    (:func:`lmcore.evaluate.count_characters`). For each unit and ``min_count`` (words
    seen fewer times in training become ``<unk>``), an :class:`lmcore.ngram.Interpolated`
    model of ``order`` is fitted on train, its λ by EM on held-out, and scored on test with lmcore's defaults
    (``<unk>`` scored, ``</s>`` counted). Slow (one fit per cell): explorers call it once.

    >>> words = [["ab", "c"], ["c", "ab"], ["ab", "ab", "c"]]
    >>> chars = [list("".join(s)) for s in words]
    >>> grid = fairness_grid({"word": (words, words, words), "char": (chars, chars, chars)}, (1,), order=1)
    >>> grid["word", 1].n_characters == grid["char", 1].n_characters == 11 + 3   # 3 line breaks
    True
    """
    if not isinstance(data, Mapping) or not data:
        raise TypeError("data must be a non-empty dict {unit: (train, heldout, test)}")
    if isinstance(min_counts, (str, bytes)) or not isinstance(min_counts, Sequence) or not min_counts:
        raise TypeError(f"min_counts must be a non-empty sequence of integers >= 1, got {min_counts!r}")
    grid, characters = {}, {}
    for unit, parts in data.items():
        if isinstance(parts, (str, bytes)) or len(parts) != 3:
            raise ValueError(f"data[{unit!r}] must be (train, heldout, test) sentences")
        train, heldout, test = parts
        characters[unit] = count_characters(["".join(sentence) for sentence in test])
        n_units = sum(len(sentence) for sentence in test)
        for min_count in min_counts:
            vocab = Vocabulary.build(train, min_count)
            model = Interpolated(order).fit(train, vocab=vocab)
            model.fit_lambdas(heldout)
            result = evaluate(model, test)
            total_bits = result.cross_entropy * result.n_tokens
            grid[unit, min_count] = FairnessRow(
                unit=unit, min_count=int(min_count), vocabulary=len(model.outcomes),
                oov_rate=result.n_oov / n_units, n_tokens=result.n_tokens, perplexity=result.perplexity,
                bits_per_token=result.cross_entropy, total_bits=total_bits,
                n_characters=characters[unit], bits_per_character=total_bits / characters[unit])
    if len(set(characters.values())) > 1:
        raise ValueError(f"data: the units' test sets must spell the same text, but their character counts "
                         f"differ: {characters}")
    return grid


@dataclass(frozen=True)
class FairnessReport:
    """A chosen setting against a reference one: ``chosen.perplexity / reference.perplexity``
    and the change in bits per character, with ``notes`` saying what changed (English
    :class:`~lmcore.widgets.base.Message` s, shown in the course's language)."""

    reference: FairnessRow
    chosen: FairnessRow
    perplexity_ratio: float
    bits_per_character_change: float
    notes: tuple[str, ...]


def fairness_report(grid: Mapping[tuple[str, int], FairnessRow], unit: str, min_count: int,
                    reference: tuple[str, int] | None = None) -> FairnessReport:
    """Compare ``grid[unit, min_count]`` with ``grid[reference]`` (default: the grid's first entry).

    >>> def row(unit, perplexity, bits_per_character):
    ...     return FairnessRow(unit=unit, min_count=1, vocabulary=10, oov_rate=0.0, n_tokens=10,
    ...                        perplexity=perplexity, bits_per_token=0.0, total_bits=0.0, n_characters=5,
    ...                        bits_per_character=bits_per_character)
    >>> grid = {("word", 1): row("word", 500.0, 6.0), ("char", 1): row("char", 100.0, 6.5)}
    >>> report = fairness_report(grid, "char", 1)
    >>> round(report.perplexity_ratio, 2), report.bits_per_character_change
    (0.2, 0.5)
    """
    if not isinstance(grid, Mapping) or not grid:
        raise TypeError(f"grid must be a non-empty dict {{(unit, min_count): FairnessRow}} (from fairness_grid), "
                        f"got {type(grid).__name__}" + (" (empty)" if isinstance(grid, Mapping) else ""))
    check_str(unit, "unit")
    reference = next(iter(grid)) if reference is None else tuple(reference)
    for key in (reference, (unit, min_count)):
        if key not in grid:
            raise ValueError(f"no setting {key!r} in the grid; it has {sorted(grid)}")
    base, chosen = grid[reference], grid[unit, min_count]
    notes = []
    if chosen.unit != base.unit:
        notes.append(Message(translatable(
            "The unit changed ({base_unit} to {chosen_unit}): perplexity per token now counts guesses "
            "among {chosen_units}, not {base_units}, so it cannot be compared. Compare bits per character: "
            "every model pays for the same characters."),
            base_unit=Message(base.unit), chosen_unit=Message(chosen.unit),
            chosen_units=_plural(chosen.unit), base_units=_plural(base.unit)))
    if chosen.min_count != base.min_count:
        notes.append(Message(translatable(
            "The vocabulary changed (min_count {base_min_count} to {chosen_min_count}): "
            "{oov_rate:.1%} of the test {units} are now <unk> (was {base_oov_rate:.1%}). "
            "Predicting '<unk>' is easier than predicting the word it hides, so the score improves "
            "without the model predicting the text any better."),
            base_min_count=base.min_count, chosen_min_count=chosen.min_count, oov_rate=chosen.oov_rate,
            units=_plural(chosen.unit), base_oov_rate=base.oov_rate))
    if not notes:
        notes.append(translatable("Same unit, same vocabulary: these numbers can be compared with each other."))
    return FairnessReport(base, chosen, chosen.perplexity / base.perplexity,
                          chosen.bits_per_character - base.bits_per_character, tuple(notes))


# The course's units, singular and plural (``"words"`` is a menu's name below), which the notes
# and the table show in the course's language; other units show as given.
_UNITS = (translatable("word"), translatable("char"), translatable("chars"))


def _plural(unit: str) -> Message:
    """``"words"`` for the unit ``"word"``, as the notes and the table say it (a plural "s" in English)."""
    return Message(f"{unit}s")


# --- render ---------------------------------------------------------------------------------


_FAIRNESS_CELL_PADDING = "1px 6px"


def fairness_html(report: FairnessReport) -> str:
    """A two-row table (reference and chosen setting) and the notes, as HTML.

    >>> def row(unit, perplexity):
    ...     return FairnessRow(unit=unit, min_count=1, vocabulary=10, oov_rate=0.0, n_tokens=10,
    ...                        perplexity=perplexity, bits_per_token=1.0, total_bits=10.0, n_characters=5,
    ...                        bits_per_character=2.0)
    >>> grid = {("word", 1): row("word", 1.0), ("char", 1): row("char", 123.4)}
    >>> "123.4000" in fairness_html(fairness_report(grid, "char", 1))
    True
    """
    # Every column is named, the first one too (its rows are the two settings): a screen reader
    # reads a cell's heading with it, and an empty one says nothing (axe: "empty-table-header").
    columns = [tr("setting"), tr("unit"), "min_count", "|V|", tr("test OOV"), tr("tokens N"),
               tr("perplexity per token"), tr("bits per token"), tr("bits per character")]
    rows = []
    for name, row, css in ((tr("reference"), report.reference, "lmcore-reference"),
                           (tr("your choice"), report.chosen, "lmcore-chosen")):
        rows.append([name, html.escape(localised(_plural(row.unit))), str(row.min_count), f"{row.vocabulary:,}",
                     f"{row.oov_rate:.2%}", f"{row.n_tokens:,}",
                     span(f"{css}-perplexity", format_number(row.perplexity)), format_number(row.bits_per_token),
                     span(f"{css}-bpc", format_number(row.bits_per_character))])
    summary = tr("Perplexity per token × {ratio}; bits per character {change}.",
                 ratio=span("lmcore-perplexity-ratio", f"{report.perplexity_ratio:.4f}"),
                 change=span("lmcore-bpc-change", f"{report.bits_per_character_change:+.4f}"))
    # Nine columns: a narrower gap between them keeps the table within a laptop's column (the course
    # website's is 746 px at 1366 px) with room to spare for a wider font.
    table = table_html(columns, rows, padding=_FAIRNESS_CELL_PADDING)
    return f"{table}<p>{summary}</p>{notes_html(report.notes)}"


# --- wiring ---------------------------------------------------------------------------------

_FAIRNESS_HELP = translatable(
    "<b>Fair comparison.</b> The same model family on the same test text, scored under different "
    "settings: the tokenization unit (words or characters) and the vocabulary cut-off min_count "
    "(words seen fewer times in training become &lt;unk&gt;). The first row is the reference setting. "
    "Bits per character divide the total bits by the test text's characters, one line break per "
    "sentence included (the &lt;/s&gt; each sentence ends with)."
)


class FairnessExplorer(Explorer):
    """Dropdowns for the tokenization unit and the vocabulary cut-off; the score table follows.

    Every setting's numbers are computed once, when the explorer is built
    (:meth:`from_data` runs :func:`fairness_grid`); a dropdown change only looks them
    up and renders (:func:`fairness_report`, :func:`fairness_html`). Controls: ``unit``,
    ``min_count`` (Dropdowns); ``result`` is the last :class:`FairnessReport`.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: vocabulary, unknown words and genre".

    >>> def row(unit, perplexity):
    ...     return FairnessRow(unit=unit, min_count=1, vocabulary=10, oov_rate=0.0, n_tokens=10,
    ...                        perplexity=perplexity, bits_per_token=1.0, total_bits=10.0, n_characters=5,
    ...                        bits_per_character=2.0)
    >>> explorer = FairnessExplorer({("word", 1): row("word", 500.0), ("char", 1): row("char", 100.0)})
    >>> explorer.unit.value = "char"
    >>> round(explorer.result.perplexity_ratio, 4)
    0.2
    """

    #: The units' names in the menu (shown in the course's language); the menu's values are the grid's units.
    UNIT_NAMES: ClassVar[dict[str, str]] = {"word": translatable("words"), "char": translatable("characters")}

    def __init__(self, grid: Mapping[tuple[str, int], FairnessRow], reference: tuple[str, int] | None = None):
        if not isinstance(grid, Mapping) or not grid:
            raise TypeError("grid must be a non-empty dict {(unit, min_count): FairnessRow}, see fairness_grid")
        self.grid = dict(grid)
        self.reference = next(iter(self.grid)) if reference is None else tuple(reference)
        if self.reference not in self.grid:
            raise ValueError(f"reference {self.reference!r} is not in the grid")
        units = list(dict.fromkeys(unit for unit, _ in self.grid))
        min_counts = sorted({m for _, m in self.grid})
        self.result: FairnessReport | None = None
        self.unit = widgets.Dropdown(options=[(tr(self.UNIT_NAMES.get(u, u)), u) for u in units],
                                     value=self.reference[0], description=tr("unit"))
        self.unit.add_class("lmcore-unit")
        self.min_count = widgets.Dropdown(options=min_counts, value=self.reference[1], description="min_count")
        self.min_count.add_class("lmcore-min-count")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.widget = widgets.VBox([
            help_box(tr(_FAIRNESS_HELP)),
            widgets.HBox([self.unit, self.min_count]),
            self.output,
        ])
        self.widget.add_class("lmcore-fairness-explorer")
        self.unit.observe(self._update, names="value")
        self.min_count.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_data(cls, data: Mapping[str, Sequence], min_counts: Sequence[int] = (1, 2, 5), order: int = 2,
                  reference: tuple[str, int] | None = None) -> FairnessExplorer:
        """Build the grid with :func:`fairness_grid` (one model fit per setting), then the explorer."""
        return cls(fairness_grid(data, min_counts, order), reference)

    def _update(self, change=None) -> None:
        key = (self.unit.value, self.min_count.value)
        if key not in self.grid:
            self.output.value = readable('<p class="lmcore-message">'
                                         f"{html.escape(tr('No numbers for {key}.', key=str(key)))}</p>")
            self.result = None
            return
        report = fairness_report(self.grid, *key, reference=self.reference)
        self.output.value = readable(fairness_html(report))
        self.result = report
