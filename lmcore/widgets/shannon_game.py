"""The Shannon game explorer: guess the next word of a held-out sentence, then see what the models said.

What it teaches: a language model is a guesser. Before each word (or Chinese character) the
student types a guess; then the word is revealed, with what each model would have said: its
top 10 next words with their probabilities, the rank (its guess number) and probability it
gave the true word, and a running tally of hits and of each model's total surprisal in bits.
"Let the models play" finishes the sentence without the student.

The pattern, as in every explorer: pure compute (:func:`lmcore.shannon.play_step`, and
:func:`sentence_tokens` for a typed sentence) -> render (:func:`game_html`) -> thin wiring
(:class:`ShannonGameExplorer`).

>>> from lmcore.ngram import MLE
>>> train = [["i", "spent", "three", "years"], ["i", "spent", "money"]]
>>> setup = GameSetup({"unigram": MLE(1).fit(train), "bigram": MLE(2).fit(train)}, train, "word", 3, 4)
>>> explorer = ShannonGameExplorer({"toy": setup})
>>> explorer.guess.value = "i"; explorer.guess_button.click()
>>> explorer.steps[-1].hit, explorer.steps[-1].predictions[1].rank
(True, 1)
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from lmcore.checks import check_probabilities, check_str
from lmcore.i18n import localised, tr, translatable
from lmcore.shannon import Step, check_guess, check_models, check_sentence, draw_sentence, play_step
from lmcore.text import chinese_characters, english_words
from lmcore.widgets.base import INFINITY, Explorer, help_box, notes_html, on_enter, span

__all__ = ["GameSetup", "sentence_tokens", "format_probability", "css_name", "game_html", "ShannonGameExplorer"]


# --- pure part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSetup:
    """One language of the game: its ``models`` (name -> fitted model, shown in this order), the
    held-out ``sentences`` to draw from, the ``unit`` of a token (``"word"`` or ``"char"``) and
    the lengths of the sentences drawn (``min_tokens`` to ``max_tokens`` tokens)."""

    models: Mapping
    sentences: Sequence[Sequence[str]]
    unit: str = "word"
    min_tokens: int = 6
    max_tokens: int = 14


def sentence_tokens(text: str, unit: str = "word") -> list[str]:
    """A typed sentence split as the corpus is: lower-case English words without punctuation
    (``unit="word"``) or Chinese characters without punctuation (``unit="char"``).

    >>> sentence_tokens("In the beginning, God created."), sentence_tokens("我们的新年。", unit="char")
    (['in', 'the', 'beginning', 'god', 'created'], ['我', '们', '的', '新', '年'])
    """
    check_str(text, "text")
    if unit == "word":
        return english_words(text)
    if unit == "char":
        return chinese_characters(text)
    raise ValueError(f"unit must be 'word' or 'char', got {unit!r}")


def format_probability(p: float) -> str:
    """A probability as the explorer shows it: 4 decimals, or 3 significant digits below 0.001.

    >>> format_probability(0.12345), format_probability(0.0000123), format_probability(0.0)
    ('0.1235', '1.23e-05', '0')
    """
    p = float(check_probabilities([p], "p")[0])
    if p == 0:
        return "0"
    return f"{p:.4f}" if p >= 0.001 else f"{p:.2e}"


def css_name(name: str) -> str:
    """A model name as part of a CSS class: ``"4-gram (KN)"`` -> ``"4-gram--kn-"``.

    >>> css_name("trigram")
    'trigram'
    """
    return re.sub(r"[^a-z0-9_-]", "-", check_str(name, "name").lower())


def _bits(value: float) -> str:
    return INFINITY if math.isinf(value) else f"{value:.2f}"


def _joined(tokens: Sequence[str], unit: str) -> str:
    return ("" if unit == "char" else " ").join(html.escape(t) for t in tokens)


def _sentence_line(sentence: Sequence[str], n_shown: int, unit: str) -> str:
    shown = _joined(sentence[:n_shown], unit)
    if n_shown >= len(sentence):
        return f'<p style="font-size: 120%">{shown} <i>{tr("(end)")}</i></p>'
    blank = "<b>___</b>" if unit == "word" else "<b>＿</b>"
    left = len(sentence) - n_shown - 1
    rest = f" <span style='color: #6b6b6b'>{tr('(+{left} more)', left=left)}</span>" if left else ""
    return f'<p style="font-size: 120%">{shown}{" " if shown and unit == "word" else ""}{blank}{rest}</p>'


def _prediction_table(step: Step) -> str:
    headers = "".join(f"<th style='padding: 1px 10px'>{html.escape(tr(p.name))}</th>" for p in step.predictions)
    depth = max(len(p.top) for p in step.predictions)
    rows = []
    for i in range(depth):
        cells = []
        for p in step.predictions:
            if i >= len(p.top):
                cells.append("<td></td>")
                continue
            token, prob = p.top[i]
            style = "background: #d9f2d9; font-weight: 600;" if token == p.scored_as else ""
            cells.append(f"<td style='padding: 1px 10px; {style}'>{i + 1}. {html.escape(token)} "
                         f"<span style='color: #555'>{format_probability(prob)}</span></td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    truth = []
    for p in step.predictions:
        name = css_name(p.name)
        unknown = tr(" (as &lt;unk&gt;)") if p.scored_as != p.token else ""
        cell = tr("rank {rank}{unknown}<br>P = {prob}<br>{bits} bits", rank=span(f"lmcore-rank-{name}", str(p.rank)),
                  unknown=unknown, prob=span(f"lmcore-prob-{name}", format_probability(p.prob)),
                  bits=span(f"lmcore-bits-{name}", _bits(p.surprisal)))
        truth.append(f"<td style='padding: 3px 10px; border-top: 1px solid #ccc'>{cell}</td>")
    return (f'<table class="lmcore-table lmcore-shannon-top" style="border-collapse: collapse">'
            f"<tr>{headers}</tr>{''.join(rows)}<tr>{''.join(truth)}</tr></table>")


def _tally_table(step: Step) -> str:
    yours = tr("{hits} of {guesses} guesses", hits=span("lmcore-tally-you", str(step.hits)), guesses=step.guesses)
    rows = [f"<tr><td style='padding: 1px 10px'>{tr('you')}</td><td style='padding: 1px 10px'>{yours}</td>"
            "<td></td></tr>"]
    for p, hits, bits in zip(step.predictions, step.model_hits, step.model_bits):
        name = css_name(p.name)
        right = tr("{hits} of {tokens} tokens", hits=span(f"lmcore-tally-hits-{name}", str(hits)),
                   tokens=step.position + 1)
        total = tr("{bits} bits", bits=span(f"lmcore-tally-bits-{name}", _bits(bits)))
        rows.append(f"<tr><td style='padding: 1px 10px'>{html.escape(tr(p.name))}</td>"
                    f"<td style='padding: 1px 10px'>{right}</td><td style='padding: 1px 10px'>{total}</td></tr>")
    header = (f"<tr><th style='padding: 1px 10px'></th><th style='padding: 1px 10px'>{tr('right at the first guess')}"
              f"</th><th style='padding: 1px 10px'>{tr('total surprisal')}</th></tr>")
    return f'<table class="lmcore-table lmcore-tally" style="border-collapse: collapse">{header}{"".join(rows)}</table>'


def game_html(sentence: Sequence[str], steps: Sequence[Step], unit: str = "word", message: str = "") -> str:
    """The game as HTML: the sentence revealed so far, a message, the last step's top guesses of
    every model (the true token highlighted) with its rank, probability and surprisal, and the
    running tally. CSS classes: ``lmcore-step`` (the token's number), ``lmcore-rank-<model>``, ``lmcore-prob-<model>``,
    ``lmcore-bits-<model>``, ``lmcore-tally-you``, ``lmcore-tally-hits-<model>``,
    ``lmcore-tally-bits-<model>``, ``lmcore-message``.

    >>> from lmcore.ngram import MLE
    >>> from lmcore.shannon import play
    >>> model = MLE(1).fit([["a", "b", "a"]])
    >>> page = game_html(["a", "b"], play(["a", "b"], ["a"], {"unigram": model}))
    >>> '<span class="lmcore-rank-unigram">1</span>' in page
    True
    """
    parts = [_sentence_line(sentence, len(steps), unit), notes_html([message] if message else [])]
    if steps:
        step = steps[-1]
        told = "" if step.guess is None else tr(" You guessed <b>{guess}</b>.", guess=html.escape(step.guess))
        revealed = (translatable("Word {number} was <b>{token}</b>.{told} What each model would have guessed "
                                 "(top {k}):") if unit == "word" else
                    translatable("Character {number} was <b>{token}</b>.{told} What each model would have guessed "
                                 "(top {k}):"))
        parts.append("<p>" + tr(revealed, number=span("lmcore-step", str(step.position + 1)),
                                token=html.escape(step.token), told=told,
                                k=max(len(p.top) for p in step.predictions)) + "</p>")
        parts.append(_prediction_table(step))
        parts.append(f"<p style='margin-top: 8px'><b>{tr('So far')}</b></p>" + _tally_table(step))
    return "".join(parts)


# --- wiring ---------------------------------------------------------------------------------

_GAME_HELP = translatable(
    "<b>The Shannon game.</b> A sentence the models never saw is hidden behind the blank. Type your guess "
    "for the next word (中文: the next character) and press Enter or <i>Guess</i>: the word is revealed, with "
    "what each model would have guessed. <i>Let the models play</i> finishes the sentence; <i>New sentence</i> "
    "draws another; or type a sentence of your own."
)

# The names the course's chapters give the game's models and languages (keys of ``setups`` and of a
# setup's ``models``, which stay as they are): shown translated; any other name is shown as given.
_SHOWN_NAMES = (translatable("unigram"), translatable("bigram"), translatable("trigram"),
                translatable("English (words)"), translatable("中文 (characters)"))

class ShannonGameExplorer(Explorer):
    """The Shannon game against n-gram models, on held-out sentences of one or more languages.

    ``setups`` maps a language name to a :class:`GameSetup`. Controls: ``language`` (Dropdown),
    ``new_button``, ``own`` (Text) with ``own_button``, ``guess`` (Text) with ``guess_button``,
    ``auto_button``. ``sentence`` is the sentence in play, ``steps`` the
    :class:`~lmcore.shannon.Step` records so far, ``output`` the HTML shown.

    Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".
    """

    def __init__(self, setups: Mapping[str, GameSetup], language: str | None = None, seed: int = 0,
                 n_guesses: int = 10):
        if not isinstance(setups, Mapping) or not setups:
            raise ValueError("setups must be a non-empty mapping of language names to GameSetup")
        for name, setup in setups.items():
            if not isinstance(setup, GameSetup):
                raise TypeError(f"setups[{name!r}] must be a GameSetup, got {type(setup).__name__}")
            check_models(setup.models)
        language = next(iter(setups)) if language is None else language
        if language not in setups:
            raise ValueError(f"language must be one of {list(setups)}, got {language!r}")
        self.setups, self.n_guesses, self.seed = dict(setups), n_guesses, seed
        self.sentence: tuple[str, ...] = ()
        self.steps: list[Step] = []
        self.message = ""
        wide = {"description_width": "8em"}
        self.language = widgets.Dropdown(options=[(tr(name), name) for name in setups], value=language,
                                         description=tr("language"),
                                         style=wide, layout=widgets.Layout(width="22em"))
        self.language.add_class("lmcore-shannon-language")
        self.new_button = widgets.Button(description=tr("New sentence"), layout=widgets.Layout(width="12em"))
        self.new_button.add_class("lmcore-shannon-new")
        self.own = widgets.Text(description=tr("own sentence"), placeholder=tr("or type a sentence of your own"),
                                style={"description_width": "initial"}, layout=widgets.Layout(width="34em"))
        self.own.add_class("lmcore-shannon-own")
        self.own_button = widgets.Button(description=tr("Play this sentence"), layout=widgets.Layout(width="12em"))
        self.own_button.add_class("lmcore-shannon-own-button")
        self.guess = widgets.Text(placeholder=tr("your guess"), description=tr("next token"), style=wide,
                                  layout=widgets.Layout(width="22em"))
        self.guess.add_class("lmcore-shannon-guess")
        self.guess_button = widgets.Button(description=tr("Guess"), button_style="primary",
                                           layout=widgets.Layout(width="8em"))
        self.guess_button.add_class("lmcore-shannon-guess-button")
        self.auto_button = widgets.Button(description=tr("Let the models play"), layout=widgets.Layout(width="12em"))
        self.auto_button.add_class("lmcore-shannon-auto")
        self.output = widgets.HTML()
        self.output.add_class("lmcore-result")
        self.output.add_class("lmcore-shannon-result")
        self.widget = widgets.VBox([
            help_box(tr(_GAME_HELP)),
            widgets.HBox([self.language, self.new_button]),
            widgets.HBox([self.own, self.own_button]),
            widgets.HBox([self.guess, self.guess_button, self.auto_button]),
            self.output,
        ])
        self.widget.add_class("lmcore-shannon-game")
        self.language.observe(self._on_language, names="value")
        self.new_button.on_click(self._on_new)
        self.own_button.on_click(self._on_own)
        self.guess_button.on_click(self._on_guess)
        on_enter(self.guess, self._on_guess)
        on_enter(self.own, self._on_own)
        self.auto_button.on_click(self._on_auto)
        self._draw()

    @property
    def setup(self) -> GameSetup:
        return self.setups[self.language.value]

    def _say(self, words: str, characters: str, **fields) -> str:
        """The text for a game of words or the one for a game of characters, in the course's language."""
        return tr(words if self.setup.unit == "word" else characters, **fields)

    def _start(self, sentence: Sequence[str], message: str) -> None:
        self.sentence, self.steps, self.message = tuple(sentence), [], message
        self.guess.disabled = self.guess_button.disabled = self.auto_button.disabled = False
        self.guess.placeholder = self._say(translatable("your guess: one word"),
                                           translatable("your guess: one character"))
        self._render()

    def _draw(self) -> None:
        setup = self.setup
        sentence = draw_sentence(setup.sentences, self.seed, setup.min_tokens, setup.max_tokens)
        self._start(sentence, self._say(translatable("Sentence number {number} ({n} words). Guess word 1."),
                                        translatable("Sentence number {number} ({n} characters). Guess character 1."),
                                        number=self.seed, n=len(sentence)))

    def _render(self) -> None:
        self.output.value = game_html(self.sentence, self.steps, self.setup.unit, self.message)

    def _finish_if_done(self) -> None:
        if len(self.steps) == len(self.sentence):
            self.guess.disabled = self.guess_button.disabled = self.auto_button.disabled = True
            last = self.steps[-1]
            yours = tr(" You had {hits} of {guesses} right.", hits=last.hits, guesses=last.guesses) \
                if last.guesses else ""
            self.message += tr(" The sentence is complete.{yours} Press New sentence for another.", yours=yours)

    def _on_language(self, change=None) -> None:
        self._draw()

    def _on_new(self, button=None) -> None:
        self.seed += 1
        self._draw()

    def _on_own(self, button=None) -> None:
        tokens = sentence_tokens(self.own.value, self.setup.unit)
        try:
            check_sentence(tokens, self.setup.models)
        except ValueError as error:
            if not tokens:
                self.message = self._say(
                    translatable("That sentence has no words to play: type a sentence first."),
                    translatable("That sentence has no characters to play: type a sentence first."))
            else:
                self.message = tr("Cannot play that sentence: {error}.", error=localised(error.args[0]))
            self._render()
            return
        first = next(iter(self.setup.models.values()))
        unknown = [t for t in tokens if t not in first.vocab]
        note = self._say(
            translatable(" {count} of its words the models never saw in training ({unknown}); they score them "
                         "as <unk>."),
            translatable(" {count} of its characters the models never saw in training ({unknown}); they score "
                         "them as <unk>."),
            count=len(unknown), unknown=", ".join(unknown[:5])) if unknown else ""
        self._start(tokens, self._say(translatable("Your sentence ({n} words).{note} Guess word 1."),
                                      translatable("Your sentence ({n} characters).{note} Guess character 1."),
                                      n=len(tokens), note=note))

    def _play(self, guess: str | None) -> None:
        previous = self.steps[-1] if self.steps else None
        self.steps.append(play_step(self.sentence, len(self.steps), guess, self.setup.models, previous,
                                    n_guesses=self.n_guesses, unit=self.setup.unit))

    def _on_guess(self, button=None) -> None:
        if len(self.steps) >= len(self.sentence):
            self.message = tr("The sentence is complete: press New sentence for another.")
            self._render()
            return
        try:
            guess = check_guess(self.guess.value, self.setup.unit)
        except (ValueError, TypeError) as error:
            self.message = tr("Not a guess yet: {error}.", error=localised(error.args[0]))
            self._render()
            return
        self._play(guess)
        step = self.steps[-1]
        first = next(iter(self.setup.models.values()))
        verdict = tr("Right!") if step.hit else tr("Not this time: it was '{token}'.", token=step.token)
        if not step.guess_known:
            verdict += tr(" ('{guess}' is not in the models' vocabulary: no model could have guessed it.)",
                          guess=guess)
        self.message = verdict + ("" if step.token in first.vocab else
                                  tr(" '{token}' never occurs in the training text: every model scores it as <unk>.",
                                     token=step.token))
        self.guess.value = ""
        self._finish_if_done()
        self._render()

    def _on_auto(self, button=None) -> None:
        if len(self.steps) >= len(self.sentence):
            return
        start = len(self.steps)
        while len(self.steps) < len(self.sentence):
            self._play(None)
        self.message = self._say(translatable("The models played words {first} to {last}."),
                                 translatable("The models played characters {first} to {last}."),
                                 first=start + 1, last=len(self.sentence))
        self._finish_if_done()
        self._render()
