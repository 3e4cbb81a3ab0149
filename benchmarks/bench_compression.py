"""Compression is prediction, on the whole test sets: a model-driven range coder against gzip, bz2 and lzma.

For English (World English Bible, words) and Chinese (People's Daily, characters), split
80 / 10 / 10 with seed 0 as in every benchmark, a Kneser-Ney trigram model and a speller
(lmcore.coding.fit_speller) are trained on the whole training part; the whole test part
is then

- coded by lmcore.coding (constriction's range coder) and decoded by a fresh coder, as a
  receiver would, and compared byte for byte;
- written as text (lmcore.coding.join_text: one sentence per line, English words separated
  by a space, Chinese without spaces; lower-cased, no punctuation, as the corpora load) and
  compressed by gzip, bz2 and lzma at level 9: exactly the same bytes.

Bits per character = compressed bits / characters (Unicode code points) of that text,
spaces and line breaks included. Printed: the table of bits per character, the model's
bits per word, the coder's overhead over the model's total surprisal, encode and decode
throughput, and, for fairness, what each compressor needs for the test text after it has
seen the same training text (size of train + test minus size of train), as the model has.

    python benchmarks/bench_compression.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone without installing

from common import course_split

from lmcore import coding
from lmcore.ngram import KneserNey

LANGUAGES = {  # name: (corpus, unit, separator between tokens)
    "English": ("english", "word", " "),
    "Chinese": ("chinese", "char", ""),
}


def measure(name: str, corpus: str, unit: str, separator: str) -> dict:
    split = course_split(corpus, unit)
    words = course_split(corpus, "word").test  # for bits per word (the same sentences as words)
    start = time.perf_counter()
    model, speller = KneserNey(3).fit(split.train), coding.fit_speller(split.train)
    fit_seconds = time.perf_counter() - start

    text = coding.join_text(split.test, separator)
    original = text.encode("utf-8")
    start = time.perf_counter()
    coded = coding.encode(model, split.test, speller)
    encode_seconds = time.perf_counter() - start
    start = time.perf_counter()
    decoded = coding.decode(coded.data, model, speller)  # a fresh coder: nothing remembered from encoding
    decode_seconds = time.perf_counter() - start
    lossless = coding.join_text(decoded, separator).encode("utf-8") == original

    n_chars, n_words = len(text), sum(map(len, words))
    sizes = coding.compressed_sizes(original)
    known = coding.join_text(split.train, separator).encode("utf-8") + b"\n"
    before, after = coding.compressed_sizes(known), coding.compressed_sizes(known + original)
    primed = {tool: after[tool] - before[tool] for tool in sizes}
    return {
        "name": name, "chars": n_chars, "words": n_words, "bytes": len(original), "tokens": coded.n_tokens,
        "sentences": coded.n_sentences, "unknown": coded.n_unknown, "code_points": coded.n_code_points,
        "coded": coded, "lossless": lossless, "sizes": sizes, "primed": primed, "train_bytes": len(known),
        "fit": fit_seconds, "encode": encode_seconds, "decode": decode_seconds,
    }


def report(rows: list[dict]) -> None:
    print("\nBits per character on the whole test sets (same bytes for every tool; lower is better):\n")
    tools = ("gzip", "bz2", "lzma")
    print(f"{'':9}{'characters':>11}{'model':>8}" + "".join(f"{t:>8}" for t in tools) + f"{'model/gzip':>12}")
    for r in rows:
        model_bpc = r["coded"].coded_bits / r["chars"]
        tool_bpc = [8 * r["sizes"][t] / r["chars"] for t in tools]
        print(f"{r['name']:9}{r['chars']:11,}{model_bpc:8.4f}" + "".join(f"{x:8.4f}" for x in tool_bpc)
              + f"{model_bpc / tool_bpc[0]:12.3f}")
    print("\nThe same compressors after the same training text the model learned from "
          "(size of train + test minus size of train):\n")
    print(f"{'':9}{'train bytes':>12}" + "".join(f"{t:>8}" for t in tools))
    for r in rows:
        primed = [8 * r["primed"][t] / r["chars"] for t in tools]
        print(f"{r['name']:9}{r['train_bytes']:12,}" + "".join(f"{x:8.4f}" for x in primed))
    print("\nThe coder against the model's total surprisal:\n")
    for r in rows:
        c = r["coded"]
        print(f"{r['name']}: {c.n_sentences:,} sentences, {c.n_tokens:,} tokens coded, {r['unknown']:,} unknown words "
              f"spelled, {r['code_points']:,} code points; lossless round trip: {r['lossless']}")
        print(f"  surprisal {c.surprisal_bits:,.1f} bits = {c.surprisal_bits / 8:,.1f} bytes; coded {len(c.data):,} "
              f"bytes; overhead {c.overhead_bits:.1f} bits = {c.overhead_bits / 8:.1f} bytes "
              f"({100 * c.overhead_bits / c.surprisal_bits:.4f}% of the surprisal)")
        print(f"  bits per word {c.surprisal_bits / r['words']:.4f} ({r['words']:,} words), "
              f"bits per character {c.surprisal_bits / r['chars']:.4f} (surprisal) / "
              f"{c.coded_bits / r['chars']:.4f} (coded)")
        print(f"  fit {r['fit']:.2f} s; encode {r['encode']:.2f} s ({r['tokens'] / r['encode']:,.0f} tokens/s, "
              f"{r['bytes'] / r['encode'] / 1e3:,.1f} KB of text/s); decode {r['decode']:.2f} s "
              f"({r['tokens'] / r['decode']:,.0f} tokens/s, {r['bytes'] / r['decode'] / 1e3:,.1f} KB/s)")


def main() -> None:
    rows = []
    for name, (corpus, unit, separator) in LANGUAGES.items():
        print(f"{name}: training, coding, decoding, compressing ...", flush=True)
        rows.append(measure(name, corpus, unit, separator))
    report(rows)


if __name__ == "__main__":
    main()
