"""The course's table: test perplexity by smoothing (add-one, interpolation, Kneser-Ney) and order,
with KenLM's perplexity beside every Kneser-Ney cell.

Run:  python benchmarks/perplexity_table.py [--kenlm DIR]   (a few minutes: 54 models on three corpora)

Each corpus is split by sentence 80 / 10 / 10 with ``split_sentences(..., seed=0)``;
every model of a corpus is fitted on its training part with one vocabulary (every
training word) and scored on its test part (``</s>`` counted, unknown words as
``<unk>``), so the numbers in a row or a column are comparable. Interpolation learns
λ by EM on the held-out part; Kneser-Ney's discounts come from the training counts.
The table itself is :func:`lmcore.ngram.perplexity_table`, which the chapter notebooks
call too.

KenLM: where ``lmplz`` and ``query`` are found (``--kenlm DIR``, else ``$KENLM_BIN``, else
``PATH``; see ``kenlm_cli.py``), each corpus's training part and test part are written one
sentence a line, ``lmplz -o N`` estimates every order N of the table, and query's "Perplexity
including OOVs" is printed under lmcore's Kneser-Ney row with the relative difference, which
must stay below 1e-6 (KenLM writes its probabilities with about 7 digits). lmplz's vocabulary is
every training word too. Order 1: query does not load a unigram file, so lmplz's unigram
probabilities are summed here (``kenlm_cli.unigram_perplexity``). Without lmplz the script
says so and prints lmcore's table alone.

Any order fits: lmcore keys an n-gram by the number of its history and its last word
(a trie's node numbers, :class:`lmcore.ngram.NgramIndex`), never by |V| ** order.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import course_split
from kenlm_cli import find_kenlm, kenlm_perplexity

from lmcore.evaluate import perplexity_table
from lmcore.text import MARKERS, Vocabulary

ORDERS = (1, 2, 3, 4, 5, 6)
CORPORA = (
    ("English, words", "english", "word"),
    ("Chinese, characters", "chinese", "char"),
    ("Chinese, words", "chinese", "word"),
)
AGREEMENT = 1e-6  # relative difference of the perplexities that counts as equal


def write_lines(path: Path, sentences) -> None:
    """One sentence a line, tokens separated by spaces (lmplz's and query's input)."""
    path.write_text("".join(" ".join(sentence) + "\n" for sentence in sentences), encoding="utf-8")


def kenlm_row(kenlm: Path, split, orders, work: Path) -> list[float] | str:
    """KenLM's perplexity at each order, or why the corpus cannot be given to it as text."""
    for sentence in (*split.train, *split.test):
        for token in sentence:
            if token in MARKERS or token != "".join(token.split()) or not token:
                return f"a token KenLM would read differently: {token!r}"
    train_path, test_path = work / "train.txt", work / "test.txt"
    write_lines(train_path, split.train)
    write_lines(test_path, split.test)
    return [kenlm_perplexity(kenlm, order, train_path, test_path, work)[1] for order in orders]


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kenlm", help="directory of KenLM's lmplz and query (else $KENLM_BIN, else PATH)")
    args = parser.parse_args(arguments)
    kenlm = find_kenlm(args.kenlm)
    if kenlm is None:
        print("KenLM's lmplz and query were not found (--kenlm DIR, $KENLM_BIN or PATH): lmcore's table alone. "
              "benchmarks/bench_scale.py's docstring says how to build them.\n")
    else:
        print(f"KenLM: {kenlm}/lmplz -S 1G --discount_fallback + query, beside each Kneser-Ney cell\n")
    worst = 0.0
    for label, name, unit in CORPORA:
        start = time.perf_counter()
        split = course_split(name, unit)
        vocab = Vocabulary.build(split.train)
        table = perplexity_table(split, orders=ORDERS, vocab=vocab)
        print(table.format(f"{label}: {table.n_tokens:,} test tokens ({table.n_oov:,} unknown), "
                           f"{table.n_outcomes:,} outcomes, |V| = {len(vocab):,}"))
        if kenlm is not None:
            with tempfile.TemporaryDirectory(prefix="perplexity_table_") as work:
                theirs = kenlm_row(kenlm, split, ORDERS, Path(work))
            if isinstance(theirs, str):
                print(f"  KenLM skipped: {theirs}")
            else:
                ours = table.perplexities[table.methods.index("kneser-ney")]
                differences = [abs(a / b - 1) for a, b in zip(ours, theirs)]
                worst = max(worst, *differences)
                print(f"{'KenLM':<15}" + "".join(f"{x:>10.2f}" for x in theirs))
                print(f"{'  |rel. diff|':<15}" + "".join(f"{d:>10.1e}" for d in differences))
        kneser_ney, interpolation = table.perplexities[2, 2], table.perplexities[1, 2]
        verdict = "below" if kneser_ney < interpolation else "NOT below: something is wrong"
        print(f"  trigram: Kneser-Ney {kneser_ney:.2f} is {verdict} interpolation's {interpolation:.2f} "
              f"({time.perf_counter() - start:.0f} s)\n")
    if kenlm is not None:
        verdict = "within" if worst <= AGREEMENT else "NOT within: something is wrong"
        print(f"Kneser-Ney against KenLM: largest relative difference {worst:.1e}, {verdict} {AGREEMENT:.0e}")


if __name__ == "__main__":
    main()
