"""KenLM's command-line tools for the benchmarks: ``lmplz`` estimates, ``query`` scores.

Imported as ``from kenlm_cli import ...`` by the scripts in this directory (``python
benchmarks/NAME.py`` puts it first on ``sys.path``); it imports neither lmcore nor nltk, so
a script that measures memory can use it in its parent process.

- :func:`find_kenlm`: the directory holding ``lmplz`` and ``query`` (``--kenlm DIR``, else
  ``$KENLM_BIN``, else ``PATH``), or None. They are not in the pip ``kenlm`` package, which
  only scores: ``bench_scale.py``'s docstring says how to build them from KenLM's source.
- :func:`kenlm_perplexity`: ``lmplz -o ORDER`` on a training file, then the test file's
  perplexity, unknown words scored as ``<unk>`` and one ``</s>`` per line counted (query's
  "Perplexity including OOVs", lmcore's ``evaluate`` defaults), and the peak memory.

Order 1: lmplz writes a unigram ARPA file, but query refuses to load one ("This ngram
implementation assumes at least a bigram model"), so the file's own log10 probabilities are
summed here the way query would: each word (``<unk>`` if unlisted) and ``</s>`` per line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["find_kenlm", "kenlm_perplexity", "measured", "unigram_perplexity"]


def find_kenlm(directory: str | None) -> Path | None:
    """The directory holding both ``lmplz`` and ``query``, or None."""
    candidates = [directory, os.environ.get("KENLM_BIN")]
    lmplz = shutil.which("lmplz")
    candidates.append(os.path.dirname(lmplz) if lmplz else None)
    for candidate in filter(None, candidates):
        path = Path(candidate)
        if all(os.access(path / name, os.X_OK) for name in ("lmplz", "query")):
            return path
    return None


def measured(command, stdin: Path, stdout: Path, stderr: Path) -> int:
    """Run ``command`` with files as its streams; return its peak resident memory in bytes."""
    with open(stdin, "rb") as i, open(stdout, "wb") as o, open(stderr, "wb") as e:
        process = subprocess.Popen([str(c) for c in command], stdin=i, stdout=o, stderr=e)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        tail = stderr.read_text(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{Path(command[0]).name} exited with {process.returncode}: {' | '.join(tail)}")
    return usage.ru_maxrss * 1024


def unigram_perplexity(arpa: Path, test_path: Path) -> float:
    """Perplexity of a unigram ARPA file on ``test_path`` (one sentence a line), as query counts it."""
    log10_probs, section = {}, None
    with open(arpa, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("\\"):
                section = line
            elif section == "\\1-grams:" and line:
                fields = line.split("\t")
                log10_probs[fields[1]] = float(fields[0])
    unknown, end = log10_probs["<unk>"], log10_probs["</s>"]
    total = n_tokens = 0
    with open(test_path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            total += sum(log10_probs.get(w, unknown) for w in words) + end
            n_tokens += len(words) + 1
    return 10.0 ** (-total / n_tokens)


def kenlm_perplexity(kenlm: Path, order: int, train_path: Path, test_path: Path, work: Path,
                     sort_memory: str | None = "1G") -> tuple[int, float]:
    """``lmplz -o ORDER -S 1G --discount_fallback`` on ``train_path``, then the perplexity of ``test_path``
    (query's "Perplexity including OOVs"; for order 1 :func:`unigram_perplexity`): (peak bytes of
    the two, perplexity). ``work`` holds the ARPA file and lmplz's temporary files.

    ``-S 1G`` caps lmplz's sorting memory (``sort_memory``; None: lmplz's default, 80% of the
    physical memory); ``--discount_fallback`` only matters on data too small to estimate the
    discounts, and mirrors lmcore's default fallback.
    """
    arpa, scores, log = work / f"order{order}.arpa", work / "query.txt", work / "stderr.txt"
    memory = [] if sort_memory is None else ["-S", sort_memory]
    lmplz = [kenlm / "lmplz", "-o", order, *memory, "--discount_fallback", "-T", f"{work}/"]
    peak = measured(lmplz, train_path, arpa, log)
    if order == 1:
        return peak, unigram_perplexity(arpa, test_path)
    peak = max(peak, measured([kenlm / "query", "-v", "summary", arpa], test_path, scores, log))
    summary = dict(line.split(":\t", 1) for line in scores.read_text().splitlines() if ":\t" in line)
    return peak, float(summary["Perplexity including OOVs"])
