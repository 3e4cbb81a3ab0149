"""Bits per character: one denominator for every tokenization, so that models over words,
subword pieces and characters can be compared on the same text.

A perplexity is per *token*, and what a token is differs: a word, a BPE piece, a character.
Per-token perplexities of different tokenizations cannot be compared. The total number of
bits a model needs to send the whole test text can, and so can that total divided by one
count every tokenization shares, the characters of the text:

    bits per character = (Σ_t -log2 P(token_t | history_t) + spelling bits) / C

**Which characters count** (:func:`count_characters`): the text written one sentence per
line, every line ending in a line break. English: letters, digits, apostrophes and hyphens,
one space between words, one line break per sentence; Chinese: the characters, one line
break per sentence. So C is exactly the number of tokens a character model predicts (each
character, plus ``</s>`` for the line break), and a character model's bits per token *are*
its bits per character. Chapters 4 and 7 both count this way; chapter 3 counted the same
text without the last line break, one character less.

**Nothing is free**: a token outside a model's vocabulary is scored as ``<unk>``, which does
not say which token it was. As in chapter 3, such a token is then spelled out character by
character by a *speller* (:func:`lmcore.coding.fit_speller`), and a character the speller
never saw costs its Unicode code point, log2(0x110000) = 20.09 bits (:func:`spelling_bits`).

>>> count_characters(["in the beginning", "god"])     # 16 + 1 and 3 + 1
21
>>> texts([["▁in", "▁the", "▁begin", "ning"]], "bpe"), texts([["中国", "人民"]], "word", separator="")
(['in the beginning'], ['中国人民'])
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_int, check_sentences, check_str
from lmcore.coding import CODE_POINTS, fit_speller
from lmcore.evaluate.scoring import PerplexityResult, _check_logprobs, evaluate
from lmcore.i18n import display_width, pad, tr, translatable
from lmcore.lm import LanguageModel, Sentences, check_language_model
from lmcore.text import METASPACE, UNK_ID, join_tokens

__all__ = ["UNITS", "texts", "characters", "count_characters", "spelling_bits", "UnitScore", "score_text",
           "per_character", "UnitTable", "unit_table"]

#: The tokenizations :func:`texts` reads back into text.
UNITS = ("word", "bpe", "char")


def _sentences(sentences, name: str = "sentences") -> list:
    return list(check_sentences(sentences, name, allow_empty=True))


def texts(sentences: Sentences, unit: str, separator: str = " ") -> list[str]:
    """The text of each tokenized sentence, whatever the tokenization:

    - ``"word"``: the words joined by ``separator`` (``" "`` English, ``""`` Chinese);
    - ``"bpe"``: the pieces of :mod:`lmcore.text` joined, each ``▁`` a space, no leading space;
    - ``"char"``: the characters joined (an English space is a character token, ``" "``).

    >>> texts([["i", "spent"]], "word"), texts([["i", " ", "s"]], "char")
    (['i spent'], ['i s'])
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    check_str(separator, "separator")
    joined = join_tokens(sentences, separator if unit == "word" else "")
    return joined if unit != "bpe" else [text.replace(METASPACE, " ").removeprefix(" ") for text in joined]


def characters(sentences: Sentences, separator: str = " ") -> list[list[str]]:
    """Each sentence of words as a list of its text's characters (English spaces included).

    Introduced in notebooks/07_neural_models.ipynb, section "A small neural language model".

    >>> characters([["i", "spent"]])
    [['i', ' ', 's', 'p', 'e', 'n', 't']]
    """
    return [list(text) for text in texts(sentences, "word", separator)]


def count_characters(sentence_texts: Sequence[str]) -> int:
    """C, the characters of the test text: each sentence's text plus one line break, the one
    ``</s>`` stands for, C = Σ_sentences (len(text) + 1).

    >>> count_characters(["中国人民", "迈向新世纪"])   # 4 + 1 and 5 + 1
    11

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: words and characters";
    chapter 7 counts with it too.
    """
    if isinstance(sentence_texts, Iterable) and not isinstance(sentence_texts, (Sequence, str, bytes)):
        sentence_texts = list(sentence_texts)  # a generator: read once, counted once
    if isinstance(sentence_texts, (str, bytes)) or not isinstance(sentence_texts, Sequence) \
            or not all(isinstance(t, str) for t in sentence_texts):
        raise TypeError("sentence_texts must be a list of str, one per sentence (see lmcore.evaluate.texts)")
    return sum(len(t) + 1 for t in sentence_texts)


def spelling_bits(speller: LanguageModel, words: Sequence[str]) -> float:
    """Bits to spell ``words`` out with ``speller`` (a character model of words, chapter 3):

        Σ_words Σ_c -log2 P_speller(c | previous characters)  +  20.09 bits per character it lacks

    where c runs over each word's characters and its ``</s>`` (the end of the word).

    >>> from lmcore.coding import fit_speller
    >>> speller = fit_speller([["ab", "ba", "ab"]], min_count=1)
    >>> spelling_bits(speller, []), round(spelling_bits(speller, ["é"]) - spelling_bits(speller, ["a"]), 2) > 19
    (0.0, True)
    """
    if isinstance(words, Iterable) and not isinstance(words, (Sequence, str, bytes)):
        words = list(words)  # a generator: read once
    if isinstance(words, (str, bytes)) or not isinstance(words, Sequence) \
            or not all(isinstance(w, str) and w for w in words):
        raise TypeError("words must be a list of non-empty str")
    check_language_model(speller, "speller")
    if not words:
        return 0.0
    scores = speller.score_tokens([list(w) for w in words])
    _check_logprobs(speller, scores)  # NaN bits would pass for a price
    logprobs = scores.logprobs
    n_points = sum(speller.vocab.id(c) == UNK_ID for w in words for c in w)
    return -float(np.sum(logprobs)) / math.log(2) + n_points * math.log2(CODE_POINTS)


@dataclass(frozen=True)
class UnitScore:
    """One model on one tokenized test text: per token and per character.

    ``perplexity`` and ``bits_per_token`` are :func:`lmcore.evaluate.evaluate`'s (``</s>``
    counted, unknown tokens as ``<unk>``) over ``n_tokens`` tokens; ``token_bits`` is their
    total, ``spelling_bits`` what spelling the ``n_unknown`` unknown tokens adds, and
    ``bits_per_character = (token_bits + spelling_bits) / n_characters``.
    """

    n_tokens: int
    perplexity: float
    bits_per_token: float
    token_bits: float
    n_unknown: int
    spelling_bits: float
    n_characters: int
    bits_per_character: float


def score_text(model: LanguageModel, sentences: Sentences, n_characters: int,
               speller: LanguageModel | None = None, *, result: PerplexityResult | None = None) -> UnitScore:
    """Score ``model`` (an n-gram model or a :class:`lmcore.neural.NeuralLM`) on ``sentences`` in
    its own tokens, with :func:`lmcore.evaluate.evaluate`, and per character of the text
    (``n_characters`` from :func:`count_characters`); unknown tokens are spelled by ``speller``.
    ``result``: ``evaluate(model, sentences)`` when it is already computed (a neural model's
    forward pass is worth not repeating); it must count the tokens these sentences have.

    Introduced in notebooks/07_neural_models.ipynb, section "Perplexity depends on the unit".

    >>> from lmcore.ngram import AddK
    >>> model = AddK(1).fit([["a", "b"]])    # add-one: a, b, </s> 2/7 each, <unk> 1/7
    >>> score = score_text(model, [["b", "a"]], n_characters=count_characters(["b a"]))
    >>> f"{score.perplexity:.4f} per token, {score.bits_per_character:.4f} bits per character"
    '3.5000 per token, 1.3555 bits per character'
    """
    n_characters = check_int(n_characters, "n_characters")  # see count_characters
    sentences = _sentences(sentences)
    if speller is not None:
        check_language_model(speller, "speller")
    if result is not None and not isinstance(result, PerplexityResult):
        raise TypeError(f"result must be a PerplexityResult (evaluate(model, sentences)), got {type(result).__name__}")
    if result is None:
        result = evaluate(model, sentences)
    elif result.n_tokens != sum(len(s) + 1 for s in sentences) or (result.unknown, result.eos) != ("unk", "count"):
        raise ValueError("result must be evaluate(model, sentences) with the default conventions, for these sentences")
    token_bits = result.cross_entropy * result.n_tokens
    unknown = [t for s in sentences for t in s if model.vocab.id(t) == UNK_ID]
    if unknown and speller is None:
        raise ValueError(f"sentences has tokens outside the model's vocabulary ({unknown[0]!r}, ...): pass a "
                         "speller (lmcore.coding.fit_speller) so that they are paid for")
    spelled = spelling_bits(speller, unknown) if unknown else 0.0
    return UnitScore(result.n_tokens, result.perplexity, result.cross_entropy, token_bits, len(unknown), spelled,
                     int(n_characters), (token_bits + spelled) / n_characters)


@dataclass(frozen=True)
class UnitTable:
    """Models over different tokenizations of one test text, side by side (:func:`unit_table`).

    ``scores[unit, label]`` is the :class:`UnitScore` of the model ``label`` over the tokens
    ``unit`` (one of :data:`UNITS`). All share the text's ``n_characters`` characters in
    ``n_sentences`` sentences: their bits per character compare, their perplexities do not.
    """

    n_characters: int
    n_sentences: int
    scores: dict[tuple[str, str], UnitScore]

    def format(self) -> str:
        """The table as text in the course's language, one row per model: tokens, unknown tokens,
        perplexity per token (2 decimals), bits per token, ``spelling`` (the bits per character that
        spelling the unknown tokens adds) and bits per character (4 decimals)."""
        columns = [(tr(title), width, align) for title, width, align in (
            (translatable("unit"), 5, "<"), (translatable("model"), 19, "<"), (translatable("tokens"), 7, ">"),
            (translatable("unknown"), 8, ">"), (translatable("PP/token"), 10, ">"),
            (translatable("bits/token"), 11, ">"), (translatable("spelling"), 9, ">"),
            (translatable("bits/char"), 10, ">"))]
        widths = [max(width, display_width(title) + 1) for title, width, _ in columns]  # a space between titles
        lines = [tr("{n_characters:,} characters in {n_sentences:,} test sentences",
                    n_characters=self.n_characters, n_sentences=self.n_sentences),
                 "  " + "".join(pad(title, width, align) for (title, _, align), width in zip(columns, widths))]
        unit_w, label_w, tokens_w, unknown_w, pp_w, bits_w, spelling_w, char_w = widths
        for (unit, label), s in self.scores.items():
            lines.append(f"  {unit:{unit_w}}{pad(label, label_w)}{s.n_tokens:{tokens_w},}{s.n_unknown:{unknown_w},}"
                         f"{s.perplexity:{pp_w}.2f}{s.bits_per_token:{bits_w}.4f}"
                         f"{s.spelling_bits / s.n_characters:{spelling_w}.4f}{s.bits_per_character:{char_w}.4f}")
        return "\n".join(lines)


def unit_table(units: Mapping[str, tuple[Sentences, Sentences]], models: Mapping[tuple[str, str], LanguageModel],
               separator: str = " ", *, results: Mapping[tuple[str, str], PerplexityResult] | None = None,
               ) -> UnitTable:
    """Score models of one test text, each in its own tokens, per token and per character.

    ``units`` maps a tokenization (``"word"``, ``"bpe"`` or ``"char"``, see :func:`texts`) to its
    ``(training, test)`` sentences: the same sentences cut into words (joined by ``separator``),
    BPE pieces or characters. ``models`` maps ``(unit, label)`` to a model over that unit's
    tokens. Every tokenization of the test must spell out the same text, of
    C = :func:`count_characters` characters (checked), and each model is scored by
    :func:`score_text`:

        bits per character = (Σ_t -log2 P(token_t | history_t) + spelling bits) / C

    with a unit's unknown tokens spelled by a speller fitted on that unit's training sentences
    (:func:`lmcore.coding.fit_speller`). ``results``: ``evaluate(model, test)`` of some models,
    by the same keys, when it is already computed.

    Introduced in notebooks/07_neural_models.ipynb, section "Perplexity depends on the unit".

    >>> from lmcore.ngram import AddK
    >>> words = ([["a", "b"], ["b", "a"]], [["b", "a"]])
    >>> chars = tuple([characters(part) for part in words])
    >>> table = unit_table({"word": words, "char": chars},
    ...                    {("word", "add-one"): AddK(1).fit(words[0]), ("char", "add-one"): AddK(1).fit(chars[0])})
    >>> print(table.format())     # "b a" and its line break: 4 characters; P(b) = P(a) = P(</s>) = 3/10 per word
    4 characters in 1 test sentences
      unit model               tokens unknown  PP/token bits/token spelling bits/char
      word add-one                  3       0      3.33     1.7370   0.0000    1.3027
      char add-one                  4       0      4.33     2.1155   0.0000    2.1155
    """
    if not isinstance(units, Mapping) or not units or not set(units) <= set(UNITS):
        raise TypeError(f"units must be a dict from some of {UNITS} to (training, test) sentences, got {units!r:.80}")
    if not isinstance(models, Mapping) or not models:
        raise TypeError("models must be a non-empty dict from (unit, label) to a language model")
    results = {} if results is None else results
    if not isinstance(results, Mapping):
        raise TypeError(f"results must be a dict from (unit, label) to evaluate's result, got {type(results).__name__}")
    check_str(separator, "separator")
    parts = {}
    for unit, pair in units.items():
        if isinstance(pair, (str, bytes)) or not (isinstance(pair, Sequence) and len(pair) == 2):
            raise TypeError(f"units[{unit!r}] must be (training, test) sentences")
        parts[unit] = (_sentences(pair[0], f"units[{unit!r}] training"), _sentences(pair[1], f"units[{unit!r}] test"))
    counts = {unit: count_characters(texts(test, unit, separator)) for unit, (_, test) in parts.items()}
    lengths = {unit: len(test) for unit, (_, test) in parts.items()}
    if len(set(counts.values())) != 1 or len(set(lengths.values())) != 1:
        raise ValueError(f"the tokenizations spell out different texts (characters {counts}, sentences {lengths}): "
                         "cut the same test sentences, and pass the separator that joins their words")
    for key in [*models, *results]:
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] in parts):
            raise ValueError(f"model keys must be (unit, label) with a unit of units ({list(parts)}), got {key!r}")
    for key, model in models.items():
        check_language_model(model, f"models[{key!r}]")
    spellers = {}
    for unit, (train, test) in parts.items():   # a speller only for a unit whose test meets an unknown token
        vocabs = [model.vocab for (u, _), model in models.items() if u == unit]
        unknown = any(vocab.id(t) == UNK_ID for vocab in vocabs for s in test for t in s)
        spellers[unit] = fit_speller(train) if unknown else None
    scores = {(unit, label): score_text(model, parts[unit][1], counts[unit], spellers[unit],
                                        result=results.get((unit, label)))
              for (unit, label), model in models.items()}
    return UnitTable(next(iter(counts.values())), next(iter(lengths.values())), scores)


def per_character(bits_per_token: float, n_tokens: int, n_characters: int) -> float:
    """Bits per token to bits per character: ``bits_per_token * n_tokens / n_characters`` (no spelling).

    ``bits_per_token`` is a number >= 0 (``inf`` passes: a token of probability 0 costs infinitely
    many bits); ``n_tokens`` and ``n_characters`` are counts, at least 1.

    >>> per_character(6.0, 100, 500)      # 600 bits over 500 characters
    1.2
    >>> per_character(-3.0, 100, 500)
    Traceback (most recent call last):
    ...
    ValueError: bits_per_token must be at least 0 (bits are -log2 of a probability <= 1), got -3.0
    """
    bits = _bits(bits_per_token, "bits_per_token")
    n_tokens, n_characters = check_int(n_tokens, "n_tokens"), check_int(n_characters, "n_characters")
    if bits == 0:
        return 0.0
    try:
        return bits * n_tokens / n_characters
    except OverflowError:  # counts beyond a float's range: their ratio may still be one
        try:
            return bits * (n_tokens / n_characters)
        except OverflowError:
            return math.inf


def _bits(value: object, name: str) -> float:
    """A number of bits as a float: a real number >= 0 (not a bool, not a str, not NaN); ``inf`` passes."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf if value > 0 else -math.inf
    if math.isnan(number):
        raise ValueError(f"{name} is NaN, not a number of bits")
    if number < 0:
        raise ValueError(f"{name} must be at least 0 (bits are -log2 of a probability <= 1), got {value}")
    return number
