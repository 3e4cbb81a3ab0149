"""How long an explorer takes to answer a slider: value change -> display updated.

Setting a control's ``.value`` runs the widget's observer synchronously, and the
observer ends once the new numbers (HTML) and picture (PNG bytes) are set, so the
time of the assignment is the kernel's share of "slider released -> display
updated" (the browser adds one message round trip and the image decode). The goal
is under 100 ms on the English corpus. Prints the median and the slowest of 50
changes for each explorer, and how long building each took.

    python benchmarks/bench_widgets.py

The λ explorer uses an interpolated trigram model of the English corpus when
``lmcore.text`` and ``lmcore.ngram`` are there (and the corpus is installed), and
synthetic 100,000-token arrays otherwise; it prints which.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone without installing

from lmcore.widgets import LambdaExplorer, ProbabilityExplorer, synthetic_order_probs

N_CHANGES = 50
GOAL_MS = 100


def time_changes(slider, values) -> list[float]:
    """Milliseconds of each ``slider.value = v`` (the observer's whole update)."""
    times = []
    for value in values:
        start = time.perf_counter()
        slider.value = value
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    median = statistics.median(times)
    verdict = "ok" if median < GOAL_MS else f"SLOWER than the {GOAL_MS} ms goal"
    print(f"{name:<40} median {median:6.1f} ms   slowest {max(times):6.1f} ms   ({len(times)} changes, {verdict})")


def lambda_inputs():
    """(heldout, test, description): the English corpus's per-order probabilities, or synthetic ones."""
    try:
        from common import course_split

        from lmcore.ngram import Interpolated

        split = course_split("english")
        model = Interpolated(3).fit(split.train)
        heldout, test = model.order_probs(split.heldout), model.order_probs(split.test)
        return heldout, test, f"English corpus, trigram model, {len(heldout):,} held-out tokens"
    except ImportError as missing:  # no lmcore.text / lmcore.ngram, or the corpus package is not installed
        heldout, test = synthetic_order_probs(n_tokens=100_000, seed=0)
        return heldout, test, f"synthetic arrays, 100,000 tokens ({missing})"


def main() -> None:
    start = time.perf_counter()
    heldout, test, description = lambda_inputs()
    print(f"λ explorer data: {description} (prepared in {time.perf_counter() - start:.1f} s)")

    start = time.perf_counter()
    lambdas = LambdaExplorer(heldout, test)
    print(f"LambdaExplorer built in {time.perf_counter() - start:.2f} s (EM and the 0.02 perplexity map)")
    # λ1 back and forth over legal values (λ2 stays at its start, so λ1 + λ2 <= 1).
    values = [round(0.05 + 0.01 * (i % 25), 2) for i in range(N_CHANGES)]
    report("λ explorer, λ1 slider", time_changes(lambdas.lambda1, values))

    start = time.perf_counter()
    probabilities = ProbabilityExplorer(preset="horse race", show_code=True)
    print(f"ProbabilityExplorer built in {time.perf_counter() - start:.2f} s")
    values = [round(0.1 + 0.017 * (i % 40), 3) for i in range(N_CHANGES)]
    report("probability explorer, horse 1 weight", time_changes(probabilities.p_sliders[0], values))


if __name__ == "__main__":
    main()
