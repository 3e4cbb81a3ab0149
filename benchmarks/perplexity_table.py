"""The course's table: test perplexity by smoothing (add-one, interpolation, Kneser-Ney) and order.

Run:  python benchmarks/perplexity_table.py   (a few minutes: 54 models on three corpora)

Each corpus is split by sentence 80 / 10 / 10 with ``split_sentences(..., seed=0)``;
every model of a corpus is fitted on its training part with one vocabulary (every
training word) and scored on its test part (``</s>`` counted, unknown words as
``<unk>``), so the numbers in a row or a column are comparable. Interpolation learns
λ by EM on the held-out part; Kneser-Ney's discounts come from the training counts.
The table itself is :func:`lmcore.ngram.perplexity_table`, which the chapter notebooks
call too.

Any order fits: lmcore keys an n-gram by the number of its history and its last word
(a trie's node numbers, :class:`lmcore.counting.NgramIndex`), never by |V| ** order.
"""

from __future__ import annotations

import time

from common import course_split

from lmcore.ngram import perplexity_table
from lmcore.vocab import Vocabulary

ORDERS = (1, 2, 3, 4, 5, 6)
CORPORA = (
    ("English, words", "english", "word"),
    ("Chinese, characters", "chinese", "char"),
    ("Chinese, words", "chinese", "word"),
)


def main():
    for label, name, unit in CORPORA:
        start = time.perf_counter()
        split = course_split(name, unit)
        vocab = Vocabulary.build(split.train)
        table = perplexity_table(split, orders=ORDERS, vocab=vocab)
        print(table.format(f"{label}: {table.n_tokens:,} test tokens ({table.n_oov:,} unknown), "
                           f"{table.n_outcomes:,} outcomes, |V| = {len(vocab):,}"))
        kneser_ney, interpolation = table.perplexities[2, 2], table.perplexities[1, 2]
        verdict = "below" if kneser_ney < interpolation else "NOT below: something is wrong"
        print(f"  trigram: Kneser-Ney {kneser_ney:.2f} is {verdict} interpolation's {interpolation:.2f} "
              f"({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
