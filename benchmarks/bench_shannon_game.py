"""The Shannon game's two latencies, on the whole English training text (chapter 1's models).

1. A model's top 10 next words for a context (``lmcore.shannon.top_guesses``): one vectorized call to
   the model for all of its outcomes, then a partial sort. Goal: under 10 ms. For comparison,
   the obvious way, the first 10 items of ``model.next_word_distribution(context)`` (which
   builds a sorted dict of every outcome), is timed on the same contexts.
2. A guess answered end to end in the explorer, Python side: typing a word into the guess box
   and clicking *Guess* runs the button's callback synchronously, and the callback ends once
   the new HTML (three models' top 10, ranks, probabilities and the tally) is set. Goal: under
   100 ms (the browser adds one message round trip).

Prints the median and the slowest of each against its goal, for English words and Chinese
characters (People's Daily, the whole corpus's training part).

    python benchmarks/bench_shannon_game.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone without installing

from lmcore import shannon
from lmcore.lm import model_context
from lmcore.ngram import KneserNey
from lmcore.text import Vocabulary, load_corpus, split_sentences
from lmcore.widgets import GameSetup, ShannonGameExplorer

TOP_K_GOAL_MS, GUESS_GOAL_MS = 10, 100
N_CONTEXTS, N_SENTENCES = 300, 8


def report(name: str, times_ms: list[float], goal_ms: float) -> None:
    median = statistics.median(times_ms)
    verdict = "ok" if median < goal_ms else f"SLOWER than the {goal_ms} ms goal"
    print(f"  {name:<44} median {median:6.2f} ms   slowest {max(times_ms):6.2f} ms   "
          f"goal {goal_ms} ms ({len(times_ms)} runs, {verdict})")


def timed_ms(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1000


def contexts(model, sentences, n: int) -> list[tuple[str, ...]]:
    """The trigram contexts of the first ``n`` words of ``sentences``, as the game meets them."""
    found = []
    for sentence in sentences:
        for position in range(len(sentence)):
            found.append(model_context(model, sentence[:position]))
            if len(found) == n:
                return found
    return found


def bench_language(name: str, split, unit: str, common: str) -> None:
    start = time.perf_counter()
    vocab = Vocabulary.build(split.train)
    models = {label: KneserNey(n).fit(split.train, vocab=vocab)
              for label, n in (("unigram", 1), ("bigram", 2), ("trigram", 3))}
    trigram = models["trigram"]
    print(f"{name}: {len(trigram.outcomes):,} outcomes, models fitted in {time.perf_counter() - start:.1f} s")

    test_contexts = contexts(trigram, split.test, N_CONTEXTS)
    for context in test_contexts[:5]:  # warm-up
        shannon.top_guesses(trigram, context, 10)
    fast = [timed_ms(shannon.top_guesses, trigram, context, 10) for context in test_contexts]
    report("top 10 of the trigram (shannon.top_guesses)", fast, TOP_K_GOAL_MS)
    slow = [timed_ms(lambda c: list(trigram.next_word_distribution(c).items())[:10], context)
            for context in test_contexts]
    report("top 10 via next_word_distribution", slow, TOP_K_GOAL_MS)
    print(f"  top_guesses is {statistics.median(slow) / statistics.median(fast):.1f}x faster (median)")

    explorer = ShannonGameExplorer({name: GameSetup(models, split.test, unit)})
    guesses = []
    for _ in range(N_SENTENCES):
        for token in explorer.sentence:
            explorer.guess.value = token if len(guesses) % 2 else common  # right half the time
            steps = len(explorer.steps)
            guesses.append(timed_ms(explorer.guess_button.click))
            assert len(explorer.steps) == steps + 1, explorer.message  # the guess was played
        explorer.new_button.click()
    report("a guess answered in the explorer (3 models)", guesses, GUESS_GOAL_MS)


def main() -> None:
    english = split_sentences(load_corpus("english"), seed=0)
    bench_language("English words", english, "word", "the")
    chinese = split_sentences(load_corpus("chinese", unit="char"), seed=0)
    bench_language("Chinese characters", chinese, "char", "的")


if __name__ == "__main__":
    main()
