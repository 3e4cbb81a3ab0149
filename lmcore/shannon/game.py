"""The Shannon game: guess the next word (or character) of a real sentence, against n-gram models.

Before each token of a held-out sentence, a player guesses it; then each model shows what it
would have said: its top next tokens with their probabilities, the *rank* it gave the true
token (its guess number: 1 = its first guess) and the probability it gave it, whose surprisal
``-log2 P`` is the model's cost for that token in bits. Added up over a whole test text, these
costs are what chapters 2-4 turn into entropy, cross-entropy and perplexity.

- :func:`top_guesses`, :func:`rank_of` and :func:`predict` read one model at one context;
- :func:`play_step` plays one token, :func:`play` a whole guessed sentence (per-step records,
  :class:`Step`, with running tallies); :func:`check_guess` and :func:`check_sentence` say what
  is wrong with a guess or a sentence;
- :func:`context_profile`: the mean surprisal of the true token and the entropy of the
  prediction, model by model (0, 1, 2, ... tokens of context).

Shannon's 1951 letter game and his bounds are in :mod:`lmcore.shannon`.

Ranks and ties: a model guesses its outcomes in order of probability; equal probabilities are
guessed in the model's outcome order (vocabulary order: more frequent in training first, then
alphabetical), the order :meth:`~lmcore.lm.LanguageModel.next_word_distribution` lists them in.
So the rank of a token is ``1 + #(outcomes more probable) + #(equally probable ones listed
before it)``, its position in that list.

Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".

>>> from lmcore.ngram import MLE
>>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
>>> top_guesses(model, ["spent"], n_guesses=3)
(('money', 0.5), ('three', 0.5), ('<unk>', 0.0))
>>> rank_of(model, ["spent"], "three")   # a tie with "money", listed first (same count, alphabetical)
(2, 0.5)
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_int, check_sentences, check_str, check_tokens
from lmcore.i18n import Message, translatable
from lmcore.lm import LanguageModel, check_language_model, model_context
from lmcore.text import MARKERS, is_punctuation

__all__ = [
    "PIZZA", "Prediction", "Step", "top_guesses", "rank_of", "predict",
    "check_guess", "check_sentence", "check_models", "play_step", "play", "draw_sentence",
    "ContextProfile", "context_profile",
]

#: The course's worked example: "I always order pizza with cheese and ___", candidates and probabilities.
PIZZA = {"mushrooms": 0.1, "pepperoni": 0.1, "anchovies": 0.01, "fried rice": 0.0001, "and": 1e-100}

#: What a guess may be: a word, or one character (Chinese).
GUESS_UNITS = ("word", "char")


# --- one model, one context ----------------------------------------------------------------


def _sorted_top(probs: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` largest ``probs``, largest first, ties by index (a stable sort's order)."""
    k = min(k, probs.size)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    threshold = np.partition(probs, probs.size - k)[probs.size - k]
    candidates = np.flatnonzero(probs >= threshold)
    ordered = candidates[np.lexsort((candidates, -probs[candidates]))]
    return ordered[:k]


def top_guesses(model: LanguageModel, context: Sequence[str] = (),
                n_guesses: int = 10) -> tuple[tuple[str, float], ...]:
    """The ``n_guesses`` outcomes ``model`` finds most probable after ``context``, with their probabilities,
    most probable first; equal probabilities in the model's outcome order (as
    :meth:`~lmcore.lm.LanguageModel.next_word_distribution`, whose first items these are).

    Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".

    >>> from lmcore.ngram import MLE
    >>> top_guesses(MLE(1).fit([["a", "b", "a"]]), n_guesses=2)   # c(a) = 2 of 4 tokens (</s> included)
    (('a', 0.5), ('</s>', 0.25))
    """
    probs = check_language_model(model).distribution(context)
    best = _sorted_top(probs, check_int(n_guesses, "n_guesses"))
    return tuple(zip(model.vocab.decode(model.outcome_ids[best]), probs[best].tolist()))


def _outcome_index(model: LanguageModel, token: str) -> int:
    """Index of ``token`` (``<unk>`` if unknown) in ``model.outcome_ids``, or -1 if it is no outcome."""
    token_id = model.vocab.id(token)
    index = int(np.searchsorted(model.outcome_ids, token_id))
    return index if index < model.outcome_ids.size and model.outcome_ids[index] == token_id else -1


def _rank(probs: np.ndarray, index: int) -> int:
    p = probs[index]
    return int(1 + np.count_nonzero(probs > p) + np.count_nonzero(probs[:index] == p))


def rank_of(model: LanguageModel, context: Sequence[str], token: str) -> tuple[int, float]:
    """``(rank, probability)`` that ``model`` gives ``token`` after ``context``.

    The rank is the model's guess number: 1 + the number of outcomes it finds more probable +
    the equally probable ones it lists before ``token`` (vocabulary order). A word outside the
    vocabulary is scored as ``<unk>``.

    Introduced in notebooks/01_shannon_game.ipynb, section "Going further: ranks, ties and speed".

    >>> from lmcore.ngram import MLE
    >>> rank_of(MLE(1).fit([["a", "b", "a"]]), [], "b")   # a tie with </s> (4 tokens), listed first
    (3, 0.25)
    """
    prediction = predict(model, context, token, n_guesses=1)
    return prediction.rank, prediction.prob


@dataclass(frozen=True)
class Prediction:
    """What one model said before one token.

    ``top``: its ``n_guesses`` best guesses with their probabilities; ``token``: the true token,
    ``scored_as`` the token the model scored (``<unk>`` for a word outside its vocabulary);
    ``rank``: the model's guess number for it; ``prob``: P(token | context); ``surprisal``:
    ``-log2 prob`` in bits (``inf`` for 0).
    """

    name: str
    context: tuple[str, ...]
    top: tuple[tuple[str, float], ...]
    token: str
    scored_as: str
    rank: int
    prob: float
    surprisal: float

    @property
    def hit(self) -> bool:
        """Whether the model's first guess was the (known) true token."""
        return self.rank == 1 and self.scored_as == self.token


def predict(model: LanguageModel, context: Sequence[str], token: str, n_guesses: int = 10,
            name: str = "") -> Prediction:
    """Top ``n_guesses``, rank and probability of ``token``, from one evaluation of the model's distribution.

    >>> from lmcore.ngram import MLE
    >>> p = predict(MLE(1).fit([["a", "b", "a"]]), [], "b", n_guesses=2, name="unigram")
    >>> p.top, p.rank, p.prob, p.surprisal
    ((('a', 0.5), ('</s>', 0.25)), 3, 0.25, 2.0)
    """
    check_str(token, "token")
    check_str(name, "name")
    probs = check_language_model(model).distribution(context)
    best = _sorted_top(probs, check_int(n_guesses, "n_guesses"))
    top = tuple(zip(model.vocab.decode(model.outcome_ids[best]), probs[best].tolist()))
    index = _outcome_index(model, token)
    if index >= 0:
        rank, prob = _rank(probs, index), float(probs[index])
    else:  # not an outcome (an unknown word under a closed vocabulary): after every outcome
        rank, prob = model.outcome_ids.size + 1, 0.0
    bits = math.inf if prob == 0 else -math.log2(prob) + 0.0
    return Prediction(name, tuple(context), top, token, model.vocab.tokens[model.vocab.id(token)], rank, prob, bits)


# --- checking a player's input ----------------------------------------------------------------


def check_guess(guess: object, unit: str = "word") -> str:
    """A player's guess, normalised (NFKC, lower case, outer spaces dropped), or a ``ValueError``
    that says what is wrong: empty, more than one word (or character), punctuation.

    Apostrophes and hyphens inside an English word are kept (``don't``, ``burnt-offering``), as
    in the corpus. Whether the word is in a model's vocabulary is not checked here: an unknown
    guess is a fair guess that no model could have made (:class:`Step` says so).

    Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".

    >>> check_guess("  Lord "), check_guess("don't"), check_guess("天", unit="char")
    ('lord', "don't", '天')
    >>> check_guess("the lord")
    Traceback (most recent call last):
    ...
    ValueError: guess 'the lord' has a space in it: type one word, the models guess one word at a time
    """
    if unit not in GUESS_UNITS:
        raise ValueError(f"unit must be one of {GUESS_UNITS}, got {unit!r}")
    text = unicodedata.normalize("NFKC", check_str(guess, "guess")).strip().lower()
    word = unit == "word"
    # Messages (lmcore.i18n): English here, shown in the course's language by the Shannon game explorer.
    if not text:
        raise ValueError(Message(translatable("guess is empty: type one word") if word else
                                 translatable("guess is empty: type one character")))
    if any(char.isspace() for char in text):
        raise ValueError(Message(
            translatable("guess {guess} has a space in it: type one word, the models guess one word at a time")
            if word else translatable("guess {guess} has a space in it: type one character, the models guess one "
                                      "character at a time"), guess=repr(guess)))
    if text in MARKERS:
        raise ValueError(Message(translatable("guess {guess} is a marker the models use internally: type a word")
                                 if word else translatable("guess {guess} is a marker the models use internally: "
                                                           "type a character"), guess=repr(guess)))
    if unit == "char" and len(text) != 1:
        raise ValueError(Message(translatable("guess {guess} has {n} characters: type one character"),
                                 guess=repr(guess), n=len(text)))
    inner = text[1:-1] if word else ""
    marks = sorted({char for char in text if is_punctuation(char) and not (char in "'-" and char in inner)})
    if marks:
        raise ValueError(Message(translatable("guess {guess} has punctuation ({marks}): the corpus's tokens have none "
                                              "(an apostrophe or hyphen inside a word is fine)") if word else
                                 translatable("guess {guess} has punctuation ({marks}): the corpus's tokens have "
                                              "none"), guess=repr(guess), marks=" ".join(marks)))
    return text


def check_models(models: object) -> dict[str, LanguageModel]:
    """``models`` (a mapping name -> fitted n-gram model) as a dict, checked.

    >>> check_models({})
    Traceback (most recent call last):
    ...
    ValueError: models is empty: give at least one fitted model, e.g. {'unigram': KneserNey(1).fit(train)}
    """
    if not isinstance(models, Mapping):
        raise TypeError(f"models must be a mapping of names to fitted models, got {type(models).__name__}")
    if not models:
        raise ValueError("models is empty: give at least one fitted model, e.g. {'unigram': KneserNey(1).fit(train)}")
    return {str(name): check_language_model(model, f"models[{name!r}]") for name, model in models.items()}


def check_sentence(sentence: object, models: Mapping[str, LanguageModel]) -> tuple[str, ...]:
    """``sentence`` (a list of str tokens) as a tuple, checked against ``models``: no markers, and at
    least as many tokens as the largest model order, so that the largest model uses a context of
    real tokens at least once.

    >>> from lmcore.ngram import MLE
    >>> check_sentence(["in", "the"], {"trigram": MLE(3).fit([["a", "b", "c"]])})
    Traceback (most recent call last):
    ...
    ValueError: sentence has 2 tokens, fewer than the largest model order (3): choose a sentence of at least 3 tokens
    """
    models = check_models(models)
    for position, token in enumerate(check_tokens(sentence, "sentence")):
        if token in MARKERS:
            raise ValueError(f"sentence[{position}] is the marker {token!r}: pass the sentence's own tokens")
    largest = max(model.context_length + 1 for model in models.values())
    if len(sentence) < largest:
        raise ValueError(Message(translatable("sentence has {n} tokens, fewer than the largest model order ({order}): "
                                              "choose a sentence of at least {order} tokens"),
                                 n=len(sentence), order=largest))
    return tuple(sentence)


# --- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One token of the game: the player's guess, every model's :class:`Prediction`, running tallies.

    ``guess`` is ``None`` where the player let the models play; ``hit`` is then ``None`` too.
    ``guess_known``: whether the guess is in the (first) model's vocabulary. Running tallies up
    to and including this step: ``guesses`` and ``hits`` of the player, ``model_hits`` (first
    guesses that were right) and ``model_bits`` (total surprisal) per model, in ``models`` order.
    """

    position: int
    token: str
    guess: str | None
    hit: bool | None
    guess_known: bool | None
    predictions: tuple[Prediction, ...]
    guesses: int
    hits: int
    model_hits: tuple[int, ...]
    model_bits: tuple[float, ...]


def play_step(sentence: Sequence[str], position: int, guess: str | None, models: Mapping[str, LanguageModel],
              previous: Step | None = None,
              *, n_guesses: int = 10, unit: str = "word") -> Step:
    """Play token ``position`` of ``sentence``: the player's ``guess`` (or ``None``) against ``models``.

    ``previous`` is the step before (its running tallies continue); ``None`` at position 0. Each
    model pays ``-log2 P(token | context)`` bits, added to its running total.

    Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".

    >>> from lmcore.ngram import MLE
    >>> models = {"bigram": MLE(2).fit([["a", "b"], ["a", "c"]])}
    >>> first = play_step(["a", "c"], 0, "a", models)
    >>> second = play_step(["a", "c"], 1, "b", models, first)
    >>> second.hit, second.predictions[0].rank, second.model_bits   # P(c | a) = 0.5: 1 bit; P(a | <s>) = 1: 0
    (False, 2, (1.0,))
    """
    models = check_models(models)
    sentence = check_sentence(sentence, models)
    position = check_int(position, "position", minimum=0, maximum=len(sentence) - 1,
                         maximum_label=f"the sentence's last index {len(sentence) - 1}")
    if previous is not None and not isinstance(previous, Step):
        raise TypeError(f"previous must be the Step play_step returned for the token before (or None), "
                        f"got {type(previous).__name__}")
    if position == 0 and previous is not None:
        raise ValueError("previous must be None at position 0")
    if position > 0 and (previous is None or previous.position != position - 1):
        raise ValueError(f"previous must be the step at position {position - 1}")
    token = sentence[position]
    guess = None if guess is None else check_guess(guess, unit)
    first = next(iter(models.values()))
    predictions = tuple(predict(model, model_context(model, sentence[:position]), token, n_guesses, name)
                        for name, model in models.items())
    hit = None if guess is None else guess == unicodedata.normalize("NFKC", token).lower()
    zeros = (0,) * len(models), (0.0,) * len(models)
    hits_before, bits_before = (previous.model_hits, previous.model_bits) if previous else zeros
    return Step(
        position=position, token=token, guess=guess, hit=hit,
        guess_known=None if guess is None else guess in first.vocab,
        predictions=predictions,
        guesses=(previous.guesses if previous else 0) + (guess is not None),
        hits=(previous.hits if previous else 0) + bool(hit),
        model_hits=tuple(h + p.hit for h, p in zip(hits_before, predictions)),
        model_bits=tuple(b + p.surprisal for b, p in zip(bits_before, predictions)),
    )


def play(sentence: Sequence[str], guesses: Sequence[str | None], models: Mapping[str, LanguageModel], *,
         n_guesses: int = 10, unit: str = "word") -> tuple[Step, ...]:
    """Play the Shannon game on ``sentence``: one :class:`Step` per entry of ``guesses``.

    ``guesses[i]`` is the player's guess for token i, or ``None`` to let the models play it;
    give fewer guesses than tokens to stop early. ``models`` maps names to fitted models
    (``{"unigram": ..., "bigram": ..., "trigram": ...}``); each sees the tokens before, padded
    with ``<s>`` as its convention says. ``n_guesses``: how many top guesses each model shows.

    Introduced in notebooks/01_shannon_game.ipynb, section "Play it on real text: the Shannon game".

    >>> from lmcore.ngram import MLE
    >>> train = [["i", "spent", "three", "years"], ["i", "spent", "money"]]
    >>> models = {"unigram": MLE(1).fit(train), "bigram": MLE(2).fit(train)}
    >>> steps = play(["i", "spent", "money"], ["i", "time", None], models, n_guesses=2)
    >>> [(s.token, s.hit, [p.rank for p in s.predictions]) for s in steps]
    [('i', True, [2, 1]), ('spent', False, [3, 1]), ('money', None, [4, 1])]
    >>> steps[-1].hits, steps[-1].model_hits, [round(b, 4) for b in steps[-1].model_bits]
    (1, (0, 3), [7.5098, 1.0])
    """
    models = check_models(models)
    sentence = check_sentence(sentence, models)
    if isinstance(guesses, str) or not isinstance(guesses, Sequence):
        raise TypeError(f"guesses must be a list of str or None, one per token, got {type(guesses).__name__}")
    if len(guesses) > len(sentence):
        raise ValueError(f"guesses has {len(guesses)} entries but the sentence has only {len(sentence)} tokens")
    for position, guess in enumerate(guesses):
        if guess is not None:
            try:
                check_guess(guess, unit)
            except (ValueError, TypeError) as error:
                raise type(error)(f"guesses[{position}]: {error}") from None
    steps: list[Step] = []
    for position, guess in enumerate(guesses):
        previous = steps[-1] if steps else None
        steps.append(play_step(sentence, position, guess, models, previous, n_guesses=n_guesses, unit=unit))
    return tuple(steps)


def draw_sentence(sentences: Sequence[Sequence[str]], seed: int = 0, min_tokens: int = 5,
                  max_tokens: int = 15) -> tuple[str, ...]:
    """A sentence of ``min_tokens`` to ``max_tokens`` tokens, drawn from ``sentences`` with ``seed``.

    The same ``seed`` always draws the same sentence.

    >>> draw_sentence([["a"], ["b", "c", "d"], ["e", "f"]], seed=0, min_tokens=2, max_tokens=3)
    ('e', 'f')
    """
    sentences = check_sentences(sentences, "sentences", allow_empty=True)
    seed = check_int(seed, "seed", minimum=0)
    min_tokens = check_int(min_tokens, "min_tokens")
    max_tokens = check_int(max_tokens, "max_tokens")
    if max_tokens < min_tokens:
        raise ValueError(f"max_tokens must be at least min_tokens ({min_tokens}), got {max_tokens}")
    fitting = [s for s in sentences if min_tokens <= len(s) <= max_tokens]
    if not fitting:
        raise ValueError(f"sentences has no sentence of {min_tokens} to {max_tokens} tokens")
    return tuple(fitting[int(np.random.default_rng(seed).integers(len(fitting)))])


# --- context narrows the guess ------------------------------------------------------------------


@dataclass(frozen=True)
class ContextProfile:
    """Per model (``context_lengths[j]`` tokens of context): the mean surprisal of the true token
    and the mean entropy of the model's prediction, in bits, over the same ``n_positions`` tokens,
    and the standard error of each mean surprisal (how far a mean of so few positions may be from
    the mean over every position: their standard deviation over √n)."""

    context_lengths: tuple[int, ...]
    surprisal: np.ndarray
    entropy: np.ndarray
    n_positions: int
    surprisal_se: np.ndarray


def context_profile(models: Sequence[LanguageModel], sentences: Sequence[Sequence[str]], n_positions: int = 200,
                    seed: int = 0) -> ContextProfile:
    """How context narrows the guess: for each model, the mean surprisal ``-log2 P(w | h)`` of the
    true token and the mean entropy ``H = -Σ_o P(o | h) log2 P(o | h)`` of its prediction, over
    ``n_positions`` token positions (words, not ``</s>``) drawn from ``sentences`` with ``seed``.

    A model of order n uses n - 1 tokens of context (``<s>`` at the start of a sentence). The
    entropy needs every outcome's probability at every position, so a sample of positions keeps
    it quick; all models see the same positions. A sample's mean is only an estimate:
    ``surprisal_se`` is the standard error of each mean surprisal, ``s / √n`` with ``s`` the
    standard deviation of the n surprisals (n - 1 in its denominator); ``nan`` for one position,
    ``inf`` when a surprisal is infinite.

    Introduced in notebooks/01_shannon_game.ipynb, section "Context narrows the guess".

    >>> from lmcore.ngram import MLE
    >>> train = [["a", "b"], ["a", "c"]]
    >>> profile = context_profile([MLE(1).fit(train), MLE(2).fit(train)], train)
    >>> profile.context_lengths, profile.surprisal.round(4).tolist(), profile.entropy.round(4).tolist()
    ((0, 1), [2.085, 0.5], [1.9183, 0.5])
    >>> profile.surprisal_se.round(4).tolist()  # each model's 4 surprisals lie 1 bit apart in pairs: 0.5774 / √4
    [0.2887, 0.2887]
    """
    if isinstance(models, Mapping):
        models = list(models.values())
    if isinstance(models, (str, bytes)) or not isinstance(models, Iterable):
        raise TypeError(f"models must be a list (or a dict) of fitted models, got {type(models).__name__}")
    models = [check_language_model(m, f"models[{i}]") for i, m in enumerate(models)]
    if not models:
        raise ValueError("models is empty")
    n_positions = check_int(n_positions, "n_positions")
    seed = check_int(seed, "seed", minimum=0)
    sentences = check_sentences(sentences, "sentences", allow_empty=True)
    where = [(i, j) for i, s in enumerate(sentences) for j in range(len(s))]
    if not where:
        raise ValueError("sentences has no tokens")
    chosen = np.random.default_rng(seed).choice(len(where), size=min(n_positions, len(where)), replace=False)
    positions = [where[c] for c in np.sort(chosen)]
    surprisal, entropy, standard_error = [], [], []
    for model in models:
        # one distribution per distinct context (a unigram model has one), each a sorted, fast lookup
        cache: dict[tuple[str, ...], tuple[np.ndarray, float]] = {}
        bits, spread = np.empty(len(positions)), np.empty(len(positions))
        for row, (i, j) in enumerate(positions):
            context = model_context(model, sentences[i][:j])
            if context not in cache:
                probs = check_language_model(model).distribution(context)
                nonzero = probs[probs > 0]
                cache[context] = probs, float(-(nonzero * np.log2(nonzero)).sum())
            probs, spread[row] = cache[context]
            index = _outcome_index(model, sentences[i][j])
            p = probs[index] if index >= 0 else 0.0
            bits[row] = math.inf if p == 0 else -math.log2(p)
        surprisal.append(float(bits.mean()))
        entropy.append(float(spread.mean()))
        standard_error.append(_standard_error(bits))
    lengths = tuple(m.context_length for m in models)
    return ContextProfile(lengths, np.array(surprisal), np.array(entropy), len(positions), np.array(standard_error))


def _standard_error(values: np.ndarray) -> float:
    """The standard error of the mean of ``values``: their standard deviation (n - 1 in its
    denominator) over √n; ``nan`` for one value, ``inf`` if one is infinite."""
    if values.size < 2:
        return math.nan
    if not np.all(np.isfinite(values)):
        return math.inf
    return float(values.std(ddof=1) / math.sqrt(values.size))
