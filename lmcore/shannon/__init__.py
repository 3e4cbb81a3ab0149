"""The Shannon game, with words against models and with letters as Shannon played it in 1951.

- ``game``: guess the next token of a real sentence; models' ranks, probabilities and surprisals.
- ``letters``: the 27-symbol letter game and Shannon's bounds from the numbers of guesses.
"""

from __future__ import annotations

from lmcore.shannon.game import (
    PIZZA,
    ContextProfile,
    Prediction,
    Step,
    check_guess,
    check_models,
    check_sentence,
    context_profile,
    draw_sentence,
    play,
    play_step,
    predict,
    rank_of,
    top_guesses,
)
from lmcore.shannon.letters import (
    LETTERS,
    SHANNON_1951,
    LetterRun,
    fit_letter_model,
    guess_counts,
    guess_frequencies,
    letter_game,
    letter_vocabulary,
    log2_symbols,
    shannon_bounds,
    to_letters,
)

__all__ = [
    "PIZZA", "Prediction", "Step", "top_guesses", "rank_of", "predict",
    "check_guess", "check_sentence", "check_models", "play_step", "play", "draw_sentence", "ContextProfile",
    "context_profile", "LETTERS", "SHANNON_1951", "to_letters", "guess_counts", "guess_frequencies",
    "shannon_bounds", "letter_vocabulary", "fit_letter_model", "LetterRun", "letter_game", "log2_symbols",
]
