"""lmcore's KneserNey against nltk.lm's KneserNeyInterpolated: time per scored token, and perplexity.

Run:  python benchmarks/bench_kneser_ney.py   (about a minute: nltk's fit takes ~20 s)

The corpus is the World English Bible (``load_corpus("english")``), split by sentence
80 / 10 / 10 with seed 0; both libraries fit a trigram model on the whole training part,
which matters for nltk: it rescans its counts on every call, so its time per trigram
grows with the training set.

- lmcore: ``KneserNey(3)`` (modified Kneser-Ney, closed-form discounts) is fitted, then
  scores the whole test set in one vectorized call (best of 5 runs each).
- nltk: ``KneserNeyInterpolated(3)`` (one discount, 0.1) scores a sample of test trigrams
  one call each (the first test sentence with an unknown word and the sentences after it,
  about 40 trigrams); its time per trigram is extrapolated to the whole test set.
- Perplexity on that sample: nltk's is inf, as it gives unseen words (and ``<s>``)
  probability 0 (nltk issues 3065, 3211); lmcore's is finite, since Kneser-Ney's
  unigram level is interpolated with 1/|V|. The two count slightly different tokens
  (nltk's ``pad_both_ends`` predicts two ``</s>`` per sentence for a trigram model,
  lmcore one), so only finite-or-not is compared.
"""

from __future__ import annotations

from common import course_split, nltk_fit, nltk_ngrams, timed
from nltk.lm import KneserNeyInterpolated

from lmcore.evaluate import evaluate
from lmcore.ngram import KneserNey

ORDER = 3
SAMPLE_TRIGRAMS = 40
GOAL = 1000


def sample_with_unknown_word(test, known):
    """The first test sentence holding an unknown word, and the sentences after it, up to
    SAMPLE_TRIGRAMS trigrams."""
    start = next(i for i, s in enumerate(test) if any(w not in known for w in s))
    sample = []
    for s in test[start:]:
        sample.append(s)
        if len(nltk_ngrams(sample, ORDER)) >= SAMPLE_TRIGRAMS:
            return sample
    return sample


def main():
    split = course_split("english")
    n_train = sum(map(len, split.train))
    print(f"English (World English Bible): training {len(split.train):,} sentences, {n_train:,} words; "
          f"test {len(split.test):,} sentences")

    model, fit_ours = timed(lambda: KneserNey(ORDER).fit(split.train), repeat=5)
    result, score_ours = timed(evaluate, model, split.test, repeat=5)
    per_token_ours = score_ours / result.n_tokens
    discounts = "; ".join(f"order {k}: " + ", ".join(f"{d:.4f}" for d in row)
                          for k, row in enumerate(model.discounts_, start=1))
    print(f"\nlmcore KneserNey(3): fit {fit_ours:.3f} s, score {result.n_tokens:,} test tokens {score_ours:.3f} s "
          f"({per_token_ours * 1e6:.2f} µs per token)")
    print(f"  discounts D1, D2, D3+ -> {discounts}")
    print(f"  test perplexity {result.perplexity:.2f} ({result.n_oov:,} unknown words scored as <unk>)")

    theirs, fit_theirs = timed(nltk_fit, KneserNeyInterpolated, ORDER, split.train)
    sample = sample_with_unknown_word(split.test, model.vocab)
    grams = nltk_ngrams(sample, ORDER)
    probs_theirs, score_theirs = timed(lambda: [theirs.score(g[-1], g[:-1]) for g in grams])
    per_trigram_theirs = score_theirs / len(grams)
    n_test_trigrams = len(nltk_ngrams(split.test, ORDER))
    print(f"\nnltk KneserNeyInterpolated(3): fit {fit_theirs:.1f} s on the same training part; "
          f"{per_trigram_theirs * 1e3:.1f} ms per trigram, measured on {len(grams)} test trigrams")
    print(f"  -> about {per_trigram_theirs * n_test_trigrams / 60:.0f} minutes for the {n_test_trigrams:,} "
          f"test trigrams (extrapolated per trigram, not run)")

    ratio_scoring = per_trigram_theirs / per_token_ours
    ratio_total = (fit_theirs + per_trigram_theirs * n_test_trigrams) / (fit_ours + score_ours)
    print(f"\nPer scored token, lmcore is {ratio_scoring:,.0f}x faster "
          f"({'meets' if ratio_scoring >= GOAL else 'MISSES'} the goal of {GOAL:,}x); "
          f"fit plus the whole test set: {ratio_total:,.0f}x")

    pp_theirs = theirs.perplexity(grams)
    pp_ours = evaluate(model, sample)
    zeros = sum(p == 0 for p in probs_theirs)
    print(f"\nPerplexity on the sample ({len(sample)} sentences, unknown words: {pp_ours.n_oov}):")
    print(f"  nltk {pp_theirs} (trigrams with probability 0: {zeros} of {len(grams)})")
    print(f"  lmcore {pp_ours.perplexity:.2f} (finite: every token has probability > 0)")


if __name__ == "__main__":
    main()
