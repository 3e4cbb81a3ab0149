"""The letter-game explorer: Shannon's 1951 experiment, played by the student.

What it teaches: guess each letter of an English sentence (27 symbols: a-z and space) until
right; the numbers of guesses are all Shannon needed to bound the entropy of English. The
explorer shows the student's guess counts under the letters, as Shannon printed them, the
frequencies q_i of 1, 2, 3, ... guesses, and the lower and upper bounds they give, beside the
same numbers for a character n-gram model that played the same letters.

The pattern, as in every explorer: pure compute (:func:`letter_report`, on top of
:mod:`lmcore.shannon`) -> render (:func:`letter_html`) -> thin wiring
(:class:`LetterGameExplorer`).

>>> explorer = LetterGameExplorer(["to be"])
>>> for symbol in "toa ":              # t, o, then a (wrong) and the space (right)
...     explorer.buttons[symbol].click()
>>> explorer.counts
[1, 1, 2]
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from lmcore.checks import check_int, check_str
from lmcore.i18n import tr, translatable
from lmcore.lm import LanguageModel
from lmcore.shannon import LETTERS, guess_frequencies, letter_game, shannon_bounds, to_letters
from lmcore.widgets.base import Explorer, format_number, help_box, notes_html, span

__all__ = ["LetterReport", "letter_report", "letter_html", "LetterGameExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LetterReport:
    """The letter game so far: the ``counts`` of guesses for the first ``len(counts)`` symbols of
    ``sentence``, their frequencies q_i and Shannon's ``lower``/``upper`` bounds (bits per
    symbol; ``nan`` before the first symbol); the same for the ``model`` on those symbols
    (``model_counts`` empty without a model). ``decreasing`` (``model_decreasing``): whether
    q_1 >= q_2 >= ... holds for the student's (the model's) counts, as for the ideal guesser
    Shannon's bounds assume; with few symbols it often does not, and then the lower bound can even
    exceed the upper."""

    sentence: str
    counts: tuple[int, ...]
    frequencies: np.ndarray
    lower: float
    upper: float
    model_counts: tuple[int, ...]
    model_lower: float
    model_upper: float
    decreasing: bool
    model_decreasing: bool


def _bounds(counts: Sequence[int]) -> tuple[np.ndarray, float, float, bool]:
    """q_i, the two bounds, and whether q_1 >= q_2 >= ... (``True`` with no counts)."""
    if not counts:
        return np.zeros(len(LETTERS)), float("nan"), float("nan"), True
    q = guess_frequencies(list(counts))
    return (q, *shannon_bounds(q), bool(np.all(np.diff(q) <= 0)))


def letter_report(sentence: str, counts: Sequence[int], model_ranks: Sequence[int] = ()) -> LetterReport:
    """Bounds from the student's guess ``counts`` so far, and from the model's ``model_ranks``
    (its guess counts for the whole sentence, :func:`lmcore.shannon.letter_game`) on the
    same symbols.

    Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".

    >>> r = letter_report("to be", [1, 1, 1, 2], model_ranks=[3, 1, 1, 4, 1])
    >>> round(r.upper, 4), r.model_counts
    (0.8113, (3, 1, 1, 4))
    """
    check_str(sentence, "sentence")
    counts, model_ranks = _guess_counts(counts, "counts"), _guess_counts(model_ranks, "model_ranks")
    if len(counts) > len(sentence):
        raise ValueError(f"counts has {len(counts)} entries for a sentence of {len(sentence)} symbols")
    q, lower, upper, decreasing = _bounds(counts)
    model_counts = model_ranks[:len(counts)]
    _, model_lower, model_upper, model_decreasing = _bounds(model_counts)
    return LetterReport(sentence, counts, q, lower, upper, model_counts, model_lower, model_upper, decreasing,
                        model_decreasing)


def _guess_counts(values: object, name: str) -> tuple[int, ...]:
    """``values`` (a list or an int array of numbers of guesses) as a tuple of ints, each 1 to 27."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a list of numbers of guesses, got {type(values).__name__}")
    return tuple(check_int(value, f"{name}[{i}]", maximum=len(LETTERS)) for i, value in enumerate(values))


# Whose fractions q_i do not fall yet, by (the student's fall, the model's fall).
_WHOSE = {(False, True): translatable("yours"), (True, False): translatable("the model's"),
          (False, False): translatable("yours and the model's")}


def _symbol(char: str) -> str:
    return "␣" if char == " " else html.escape(char)


def letter_html(report: LetterReport, tried: str = "", message: str = "") -> str:
    """The sentence revealed so far with the guess counts under each symbol (the model's below
    them), the symbols tried for the current one, and the bounds. CSS classes: ``lmcore-lower``,
    ``lmcore-upper``, ``lmcore-model-lower``, ``lmcore-model-upper``, ``lmcore-done``.

    >>> "lmcore-upper" in letter_html(letter_report("to be", [1, 1]))
    True
    """
    done = len(report.counts)
    cell = "padding: 0 3px; text-align: center; font-family: monospace"
    symbols = [f"<td style='{cell}; font-size: 130%'>{_symbol(c)}</td>" for c in report.sentence[:done]]
    if done < len(report.sentence):
        symbols.append(f"<td style='{cell}; font-size: 130%; background: #ffe9a8'>?</td>")
    rows = [f"<tr><th style='text-align: left; padding-right: 8px'>{tr('text')}</th>" + "".join(symbols) + "</tr>",
            f"<tr><th style='text-align: left; padding-right: 8px'>{tr('you')}</th>"
            + "".join(f"<td style='{cell}'>{c}</td>" for c in report.counts) + "</tr>"]
    if report.model_counts:
        rows.append(f"<tr><th style='text-align: left; padding-right: 8px; color: #a0522d'>{tr('model')}</th>"
                    + "".join(f"<td style='{cell}; color: #a0522d'>{c}</td>" for c in report.model_counts) + "</tr>")
    parts = [f'<table class="lmcore-letter-counts" style="border-collapse: collapse">{"".join(rows)}</table>']
    if done < len(report.sentence):
        tried_text = " ".join(_symbol(c) for c in tried) if tried else tr("none yet")
        parts.append("<p>" + tr("Symbol {number} of {total}; tried so far: {tried}", number=done + 1,
                                total=len(report.sentence), tried=tried_text) + "</p>")
    parts.append(notes_html([message] if message else []))
    if done:
        shown = max(report.counts + report.model_counts)  # q_i up to the largest count seen
        q_cells = "".join(f"<td style='{cell}'>{report.frequencies[i]:.2f}</td>" for i in range(shown))
        heads = "".join(f"<th style='{cell}'>{i}</th>" for i in range(1, shown + 1))
        fraction = tr("Fraction of symbols guessed at try i (q<sub>i</sub>), over your {done} symbols:",
                      done=span("lmcore-done", str(done)))
        parts.append(f"<p>{fraction}</p>"
                     f'<table style="border-collapse: collapse"><tr><th>i</th>{heads}</tr>'
                     f"<tr><th>q<sub>i</sub></th>{q_cells}</tr></table>")
        lines = [tr("Your bounds: {lower} ≤ H ≤ {upper} bits per symbol",
                    lower=span("lmcore-lower", format_number(report.lower)),
                    upper=span("lmcore-upper", format_number(report.upper)))]
        if report.model_counts:
            lines.append(tr("The model's, on the same symbols: {lower} ≤ H ≤ {upper}",
                            lower=span("lmcore-model-lower", format_number(report.model_lower)),
                            upper=span("lmcore-model-upper", format_number(report.model_upper))))
        parts.append("<ul>" + "".join(f"<li>{line}</li>" for line in lines) + "</ul>")
        whose = _WHOSE.get((report.decreasing, report.model_decreasing))
        if whose:
            parts.append(notes_html([tr("Shannon's bounds assume q1 ≥ q2 ≥ q3 ≥ ..., as for a player who always "
                                        "guesses the likeliest symbol first. The fractions ({whose}) do not fall like "
                                        "that yet, so those bounds mean little (the lower one can even exceed the "
                                        "upper): play more symbols.", whose=tr(whose))]))
    return "".join(parts)


# --- wiring ---------------------------------------------------------------------------------

_LETTER_HELP = translatable(
    "<b>Shannon's letter game.</b> Guess the next symbol of an English sentence (a-z or space, ␣) by "
    "clicking it; a wrong guess turns its button red and disables it, until you find the symbol. Your number "
    "of tries for each symbol is written under it, and Shannon's bounds on the entropy of English are "
    "computed from those numbers. Short sentences give rough bounds: Shannon's subjects saw about 100 "
    "letters of the text before each guess."
)


class LetterGameExplorer(Explorer):
    """Shannon's letter game: the student clicks symbols until right, symbol after symbol.

    ``sentences``: texts to play (each passed through :func:`~lmcore.shannon.to_letters`);
    ``model``: optional letter model (:func:`~lmcore.shannon.fit_letter_model`) that plays
    the same sentence. Controls: ``buttons`` (symbol -> Button), ``new_button``. ``counts`` holds the
    student's guess counts so far, ``report`` the last :class:`LetterReport`.

    Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".
    """

    def __init__(self, sentences: Sequence[str], model: LanguageModel | None = None, index: int = 0):
        if isinstance(sentences, str):
            sentences = [sentences]
        self.sentences = [to_letters(s) for s in sentences]
        if not self.sentences or not all(self.sentences):
            raise ValueError("sentences must hold at least one sentence with letters in it")
        self.model, self.index = model, index % len(self.sentences)
        self.counts: list[int] = []
        self.tried = ""
        self.message = ""
        self.report: LetterReport | None = None
        self.buttons: dict[str, widgets.Button] = {}
        for symbol in LETTERS:
            button = widgets.Button(description="␣" if symbol == " " else symbol, tooltip=repr(symbol),
                                    layout=widgets.Layout(width="2.6em", padding="0"))
            button.add_class("lmcore-letter-" + ("space" if symbol == " " else symbol))
            button.on_click(lambda _, symbol=symbol: self._on_symbol(symbol))
            self.buttons[symbol] = button
        keys = list(self.buttons.values())
        self.new_button = widgets.Button(description=tr("New sentence"), layout=widgets.Layout(width="10em"))
        self.new_button.add_class("lmcore-letter-new")
        self.new_button.on_click(self._on_new)
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.output.add_class("lmcore-letter-result")
        self.widget = widgets.VBox([
            help_box(tr(_LETTER_HELP)),
            widgets.HBox(keys[:14]), widgets.HBox(keys[14:] + [self.new_button]),
            self.output,
        ])
        self.widget.add_class("lmcore-letter-game")
        self._start()

    @property
    def sentence(self) -> str:
        return self.sentences[self.index]

    def _start(self) -> None:
        self.counts, self.tried = [], ""
        self._model_ranks = letter_game(self.model, self.sentence).ranks if self.model is not None else ()
        self.message = tr("A sentence of {n} symbols. Guess symbol 1.", n=len(self.sentence))
        self._enable_all()
        self._render()

    def _enable_all(self) -> None:
        for button in self.buttons.values():
            button.disabled = False
            button.button_style = ""

    def _render(self) -> None:
        self.report = letter_report(self.sentence, self.counts, self._model_ranks)
        self.output.value = letter_html(self.report, self.tried, self.message)

    def _on_symbol(self, symbol: str) -> None:
        position = len(self.counts)
        if position >= len(self.sentence) or symbol in self.tried:
            return
        self.tried += symbol
        if symbol != self.sentence[position]:
            self.buttons[symbol].disabled = True
            self.buttons[symbol].button_style = "danger"
            self.message = tr("Not {symbol}: try again.", symbol="␣" if symbol == " " else symbol)
        else:
            self.counts.append(len(self.tried))
            self.message = (tr("Right, in {n} try.", n=1) if len(self.tried) == 1 else
                            tr("Right, in {n} tries.", n=len(self.tried)))
            self.tried = ""
            self._enable_all()
            if len(self.counts) == len(self.sentence):
                for button in self.buttons.values():
                    button.disabled = True
                self.message += tr(" Sentence complete: press New sentence for another.")
        self._render()

    def _on_new(self, button=None) -> None:
        self.index = (self.index + 1) % len(self.sentences)
        self._start()
