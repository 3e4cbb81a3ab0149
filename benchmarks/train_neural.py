"""Train chapter 7's neural models, store them in lmcore/data, and print the closing-note table.

Run:  python benchmarks/train_neural.py            (trains both models, then the table; minutes)
      python benchmarks/train_neural.py --table    (only the table, from the stored models)
      python benchmarks/train_neural.py --bpe      (only the BPE tokenizers, seconds)

Each corpus is split by sentence 80 / 10 / 10 with seed 0 (``common.course_split``). A
character-level :class:`lmcore.neural.NeuralLM` is trained on the first ``n_train`` training
sentences, with the first ``n_heldout`` held-out sentences choosing the epoch (early stopping),
seeded and deterministic (numpy on one BLAS thread: faster for these small matrices, and the
same sums in the same order on every run). Its parameters are written as float16, its settings
and training curves beside them, to ``lmcore/data/neural_<name>.npz``: what the chapter loads.

A byte-pair encoding of ``bpe_vocab`` units is trained on the same training sentences and
stored beside it (``lmcore/data/bpe_<name>.json``). The table scores every model on the first
``n_test`` test sentences, as words, as BPE pieces and as characters: Kneser-Ney n-grams of
orders 1-5 and the neural model,
all on the same training text, each unit with its own vocabulary (tokens seen at least twice),
unknown tokens spelled out for the bits per character (``lmcore.evaluate``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported

import argparse
import time

import numpy as np
from common import course_split

from lmcore import evaluate, neural
from lmcore.coding import fit_speller
from lmcore.ngram import KneserNey
from lmcore.text import STORED_BPE, Vocabulary, load_stored_bpe, train_bpe

SETTINGS = {
    "english": {"corpus": "english", "separator": " ", "n_train": 10_000, "n_heldout": 500, "n_test": 300,
                "bpe_vocab": 2_000, "min_count": 2, "context": 10, "dim": 24, "hidden": 512,
                "epochs": 8, "batch_size": 256, "learning_rate": 3e-3, "decay": 0.75, "weight_decay": 0.01,
                "seed": 0},
    "chinese": {"corpus": "chinese", "separator": "", "n_train": 10_000, "n_heldout": 500, "n_test": 300,
                "bpe_vocab": 6_000, "min_count": 2, "context": 5, "dim": 24, "hidden": 96,
                "epochs": 6, "batch_size": 256, "learning_rate": 3e-3, "decay": 0.75, "weight_decay": 0.01,
                "seed": 0},
}
TRAINING = ("epochs", "batch_size", "learning_rate", "decay", "weight_decay")
ORDERS = (1, 2, 3, 4, 5)


def parts(name: str):
    """(train, held-out, test) sentences of words, cut to the sizes of the settings."""
    settings = SETTINGS[name]
    split = course_split(settings["corpus"], "word")
    return (split.train[: settings["n_train"]], split.heldout[: settings["n_heldout"]],
            split.test[: settings["n_test"]])


def train_and_store(name: str) -> None:
    settings = SETTINGS[name]
    train_words, heldout_words, _ = parts(name)
    train = evaluate.characters(train_words, settings["separator"])
    heldout = evaluate.characters(heldout_words, settings["separator"])
    config = neural.TrainingConfig(seed=settings["seed"], **{key: settings[key] for key in TRAINING})
    model, history = neural.train_new(
        train, heldout, min_count=settings["min_count"], context_length=settings["context"], dim=settings["dim"],
        hidden=settings["hidden"], config=config)
    path = neural.DATA / neural.STORED_MODELS[name]
    path.parent.mkdir(exist_ok=True)
    model.save(path, train_bits=history.train_bits, heldout_bits=history.heldout_bits,
               best_epoch=history.best_epoch, seconds=history.seconds, n_train_tokens=history.n_train_tokens,
               **{key: value for key, value in settings.items() if key not in ("corpus", "separator")})
    stored, _ = neural.load_stored(name)
    stored_bits = -stored.token_logprobs(heldout).mean() / np.log(2)
    print(f"{name}: {model!r}")
    print(f"  {history.n_train_tokens:,} training tokens; {history.seconds:.1f} s of training")
    print("  training loss, bits per character: " + " ".join(f"{b:.4f}" for b in history.train_bits))
    print("  held-out cross-entropy:            " + " ".join(f"{b:.4f}" for b in history.heldout_bits))
    print(f"  kept epoch {history.best_epoch}: held-out {history.heldout_bits[history.best_epoch - 1]:.4f} "
          f"bits per character; stored as float16: {stored_bits:.4f}; {path.stat().st_size / 1024:.0f} KiB")
    start = time.perf_counter()
    bpe = train_bpe(train_words, settings["bpe_vocab"], settings["separator"])
    bpe.save(STORED_BPE[name])
    print(f"  BPE: {bpe.vocab_size:,} units in {time.perf_counter() - start:.1f} s; "
          f"{STORED_BPE[name].stat().st_size / 1024:.0f} KiB")


def table(name: str) -> None:
    settings = SETTINGS[name]
    separator = settings["separator"]
    start = time.perf_counter()
    train_words, _, test_words = parts(name)
    n_chars = evaluate.count_characters(evaluate.texts(test_words, "word", separator))
    bpe = load_stored_bpe(name)
    tokenized = {
        "words": (train_words, test_words),
        "BPE": (bpe.encode(train_words), bpe.encode(test_words)),
        "chars": (evaluate.characters(train_words, separator), evaluate.characters(test_words, separator)),
    }
    model, _ = neural.load_stored(name)
    print(f"\n{name}: {len(train_words):,} training sentences, {len(test_words):,} test sentences, "
          f"{n_chars:,} characters (with one line break per sentence)")
    print(f"{'model':14}{'unit':7}{'|V|':>7}{'tokens':>8}{'unknown':>8}{'PP/token':>10}{'bits/token':>11}"
          f"{'bits/char':>10}")
    for unit, (train, test) in tokenized.items():
        vocab = Vocabulary.build(train, settings["min_count"])
        speller = fit_speller(train)
        for order in ORDERS:
            score = evaluate.score_text(KneserNey(order).fit(train, vocab=vocab), test, n_chars, speller)
            row(f"KN {order}-gram", unit, len(vocab), score)
        if unit == "chars":
            score = evaluate.score_text(model, test, n_chars, speller)
            row(f"neural k={model.context_length}", unit, len(model.vocab), score)
    print(f"  ({time.perf_counter() - start:.0f} s)")


def row(label: str, unit: str, size: int, score: evaluate.UnitScore) -> None:
    print(f"{label:14}{unit:7}{size:7,}{score.n_tokens:8,}{score.n_unknown:8,}{score.perplexity:10.2f}"
          f"{score.bits_per_token:11.4f}{score.bits_per_character:10.4f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", action="store_true", help="only print the table, from the stored models")
    parser.add_argument("--bpe", action="store_true", help="only train and store the BPE tokenizers")
    parser.add_argument("--only", choices=sorted(SETTINGS), help="one language only")
    args = parser.parse_args()
    names = [args.only] if args.only else list(SETTINGS)
    if args.bpe:
        for name in names:
            train_words = parts(name)[0]
            train_bpe(train_words, SETTINGS[name]["bpe_vocab"], SETTINGS[name]["separator"]).save(STORED_BPE[name])
        return
    if not args.table:
        for name in names:
            train_and_store(name)
    for name in names:
        table(name)


if __name__ == "__main__":
    main()
