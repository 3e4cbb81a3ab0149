"""lmcore.ngram against nltk.lm: speed, agreement, memory, and the held-out perplexity table.

Run:  python benchmarks/bench_ngram.py   (about two minutes; nltk's fits dominate)

Everything is measured in this one run and printed as ratios, so the numbers
describe the machine that ran it. The corpus is the World English Bible
(``lmcore.text.load_corpus("english")``), split by sentence 80 / 10 / 10 with seed 0.

- Laplace trigram: lmcore ``AddK(3, convention="nltk")`` against ``nltk.lm.Laplace(3)``
  with ``padded_everygram_pipeline``: same conventions, so the perplexities must agree.
- Interpolated trigram: lmcore ``Interpolated(3)`` (fit, EM for λ on the held-out part,
  score) against nltk's interpolated model ``WittenBellInterpolated(3)`` (fit, score).
  They are different smoothings, so only the time is compared; nltk's is infinite on
  words it never saw.
- nltk scores one n-gram per Python call (tens of microseconds to milliseconds each),
  so it scores a prefix of the test sentences and its time is extrapolated per token to
  the whole test set. Both fit on the whole training part.
- Timings are the best of several runs (lmcore: 5; nltk's scoring: 3; nltk's fits, about
  30 s each: one run), which keeps other programs on the machine from inflating them.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc

import numpy as np
from common import course_split, nltk_fit, nltk_ngrams, timed
from nltk.lm import Laplace, WittenBellInterpolated

from lmcore.evaluate import evaluate
from lmcore.ngram import AddK, Interpolated, interpolated_perplexity

ORDER = 3


def prefix_with_tokens(sentences, n_tokens):
    """The first sentences holding at least ``n_tokens`` tokens (each plus its </s>)."""
    total = 0
    for i, s in enumerate(sentences):
        total += len(s) + 1
        if total >= n_tokens:
            return sentences[: i + 1]
    return sentences


def report(name, ours_fit, ours_score, theirs_fit, theirs_per_token, n_theirs):
    """Print the times of one comparison; return (lmcore total, nltk total) in seconds."""
    theirs_score = theirs_per_token * n_theirs
    ours_total, theirs_total = ours_fit + ours_score, theirs_fit + theirs_score
    print(f"  lmcore {name}: fit {ours_fit:.3f} s, score the test set {ours_score:.3f} s")
    print(f"  nltk: fit {theirs_fit:.2f} s, score {theirs_per_token * 1e6:.1f} µs per n-gram "
          f"-> {theirs_score:.2f} s for the {n_theirs:,} test n-grams (extrapolated)")
    print(f"  lmcore is {theirs_fit / ours_fit:.0f}x faster to fit, {theirs_score / ours_score:.0f}x to score, "
          f"{theirs_total / ours_total:.0f}x overall")
    return ours_total, theirs_total


def compare_laplace(split):
    ours, fit_ours = timed(lambda: AddK(ORDER, convention="nltk").fit(split.train), repeat=5)
    result, score_ours = timed(evaluate, ours, split.test, repeat=5)
    theirs, fit_theirs = timed(nltk_fit, Laplace, ORDER, split.train)
    subset = prefix_with_tokens(split.test, 20_000)
    grams = nltk_ngrams(subset, ORDER)
    pp_theirs, score_theirs = timed(theirs.perplexity, grams, repeat=3)
    pp_ours = evaluate(ours, subset).perplexity
    print(f"Laplace trigram, conventions matched: {result.n_tokens:,} test tokens, lmcore perplexity "
          f"{result.perplexity:.2f}")
    print(f"  on a {len(grams):,}-trigram prefix: lmcore {pp_ours:.6f}, nltk {pp_theirs:.6f}, "
          f"relative difference {abs(pp_ours / pp_theirs - 1):.1e}")
    n_test = len(nltk_ngrams(split.test, ORDER))
    return report("AddK(3)", fit_ours, score_ours, fit_theirs, score_theirs / len(grams), n_test)


def compare_interpolation(split):
    def lmcore_interpolated():
        model = Interpolated(ORDER).fit(split.train)
        model.fit_lambdas(split.heldout)
        return model

    ours, fit_ours = timed(lmcore_interpolated, repeat=5)
    result, score_ours = timed(evaluate, ours, split.test, repeat=5)
    theirs, fit_theirs = timed(nltk_fit, WittenBellInterpolated, ORDER, split.train)
    grams = nltk_ngrams(prefix_with_tokens(split.test, 2_000), ORDER)
    pp_theirs, score_theirs = timed(theirs.perplexity, grams, repeat=3)
    lambdas = ", ".join(f"{x:.3f}" for x in ours.lambdas)
    print(f"Interpolated trigram (different smoothings, so time only): {result.n_tokens:,} test tokens")
    print(f"  lmcore Interpolated(3), fit includes EM on held-out ({ours.em_trace_.iterations} iterations, "
          f"λ = {lambdas}): perplexity {result.perplexity:.2f}")
    print(f"  nltk WittenBellInterpolated(3): perplexity {pp_theirs} on a {len(grams):,}-trigram prefix")
    n_test = len(nltk_ngrams(split.test, ORDER))
    return report("Interpolated(3)", fit_ours, score_ours, fit_theirs, score_theirs / len(grams), n_test)


def lambda_rescoring(split):
    model = Interpolated(ORDER).fit(split.train)
    probs = model.order_probs(split.heldout + split.test)[:100_000]
    times = []
    for lambdas in np.random.default_rng(0).dirichlet(np.ones(ORDER), size=200):
        start = time.perf_counter()
        interpolated_perplexity(probs, lambdas)
        times.append(time.perf_counter() - start)
    print(f"Re-scoring {probs.shape[0]:,} held-out tokens for a new λ (200 random λ): "
          f"median {statistics.median(times) * 1e3:.2f} ms, best {min(times) * 1e3:.2f} ms, "
          f"worst {max(times) * 1e3:.2f} ms (goal < 5 ms)")


def memory(split):
    tracemalloc.start()
    model = AddK(ORDER).fit(split.train)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tables = model.counts.tables
    fields = ("keys", "counts", "suffix_rows")  # history counts come on first use (scoring), not counted here
    arrays = sum(getattr(t, name).nbytes for t in tables for name in fields if getattr(t, name) is not None)
    print(f"Memory of the fitted trigram model: count arrays {arrays / 2**20:.1f} MiB for "
          f"{[t.keys.size for t in tables]} distinct 1/2/3-grams; "
          f"tracemalloc: {kept / 2**20:.1f} MiB kept, peak {peak / 2**20:.0f} MiB during fit")


def perplexity_table():
    print("Test perplexity of interpolated models (λ by EM on the held-out part):")
    print(f"  {'corpus':<22}{'unigram':>10}{'bigram':>10}{'trigram':>10}   λ of the trigram model")
    for label, name, unit in (("English words", "english", "word"), ("Chinese characters", "chinese", "char")):
        split = course_split(name, unit)
        row = []
        for order in (1, 2, 3):
            model = Interpolated(order).fit(split.train)
            model.fit_lambdas(split.heldout)
            row.append(evaluate(model, split.test).perplexity)
        falls = "falls" if row[0] > row[1] > row[2] else "DOES NOT FALL"
        lambdas = ", ".join(f"{x:.3f}" for x in model.lambdas)
        print(f"  {label:<22}" + "".join(f"{x:>10.2f}" for x in row) + f"   {lambdas}  ({falls} from 1 to 3)")


def main():
    split = course_split("english")
    for name, part in zip(("train", "held-out", "test"), split):
        print(f"English (World English Bible), {name}: {len(part):,} sentences, {sum(map(len, part)):,} words")
    print()
    totals = [compare_laplace(split)]
    print()
    totals.append(compare_interpolation(split))
    ours, theirs = map(sum, zip(*totals))
    print(f"\nOverall (both models, fit + score): lmcore {ours:.2f} s, nltk {theirs:.1f} s "
          f"-> {theirs / ours:.0f}x faster (goal >= 50x)\n")
    lambda_rescoring(split)
    memory(split)
    print()
    perplexity_table()


if __name__ == "__main__":
    main()
