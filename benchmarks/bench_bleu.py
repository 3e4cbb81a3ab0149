"""Corpus BLEU on 20,000 random sentence pairs: lmcore.bleu against sacrebleu.

Both get the same pre-tokenized input: lmcore token lists, sacrebleu the same
tokens joined by spaces with tokenize="none". Each tool runs a few times and
the best time counts; the scores must agree before the ratio is printed.

    python benchmarks/bench_bleu.py
"""


import numpy as np
from common import timed
from sacrebleu.metrics import BLEU

from lmcore.bleu import corpus_bleu

N_PAIRS, VOCABULARY, REPEATS = 20_000, 2_000, 3


def random_corpus(rng):
    # Zipf-like word frequencies, so that n-grams repeat as in real text.
    probabilities = 1.0 / np.arange(1, VOCABULARY + 1)
    probabilities /= probabilities.sum()
    words = np.array([f"w{i}" for i in range(VOCABULARY)])
    hypotheses, references = [], []
    for _ in range(N_PAIRS):
        reference = rng.choice(VOCABULARY, size=int(rng.integers(5, 40)), p=probabilities)
        # Keep 70% of the reference words, replace the rest, change the length a little.
        hypothesis = np.where(rng.random(len(reference)) < 0.7, reference,
                              rng.integers(0, VOCABULARY, size=len(reference)))
        hypothesis = hypothesis[: max(1, len(hypothesis) + int(rng.integers(-3, 3)))]
        references.append(words[reference].tolist())
        hypotheses.append(words[hypothesis].tolist())
    return hypotheses, references


def main():
    hypotheses, references = random_corpus(np.random.default_rng(0))
    hypothesis_lines = [" ".join(h) for h in hypotheses]
    reference_stream = [" ".join(r) for r in references]
    reference_lists = [[r] for r in references]
    metric = BLEU(tokenize="none", smooth_method="none")

    theirs, sacrebleu_time = timed(metric.corpus_score, hypothesis_lines, [reference_stream], repeat=REPEATS)
    ours, lmcore_time = timed(lambda: corpus_bleu(hypotheses, reference_lists), repeat=REPEATS)
    assert abs(ours.score100 - theirs.score) <= 1e-9, (ours.score100, theirs.score)

    tokens = sum(len(h) for h in hypotheses)
    print(f"corpus BLEU, {N_PAIRS:,} sentence pairs, {tokens:,} hypothesis tokens, best of {REPEATS}")
    print(f"  sacrebleu {theirs.score:.6f}  {sacrebleu_time * 1000:8.1f} ms")
    print(f"  lmcore    {ours.score100:.6f}  {lmcore_time * 1000:8.1f} ms")
    print(f"  lmcore / sacrebleu time ratio: {lmcore_time / sacrebleu_time:.2f} (goal: <= 1)")
    # The same settings as each tool states them; lmcore adds the max order and the weights.
    print(f"  sacrebleu signature: {metric.get_signature()}")
    print(f"  lmcore signature:    {ours.signature}")


if __name__ == "__main__":
    main()
