"""How long an explorer takes to answer a slider: value change -> display updated.

Setting a control's ``.value`` runs the widget's observer synchronously, and the
observer ends once the new numbers (HTML) and picture (PNG bytes) are set, so the
time of the assignment is the kernel's share of "slider released -> display
updated" (the browser adds one message round trip and the image decode). The goal
is under 100 ms on the English corpus, and under about 50 ms for a slider that
follows the drag. Prints the median and the slowest of 50 changes for each
explorer, and how long building each took; then the other goals the course keeps
(these were once asserts in the tests, which a busy machine failed): a keystroke in
the BLEU explorer with four 50-word references (100 ms), a 2,000-word paste into it
(2 s), a move of the context-window explorer's stride (50 ms, it follows the drag)
and window (100 ms), and 100,000 symbols drawn from a Markov and an i.i.d. source
(1 s).

    python benchmarks/bench_widgets.py
    python benchmarks/bench_widgets.py --browser

``--browser`` also measures the whole way in a real browser (JupyterLab in Debian's
chromium, as ``tests/browser/test_browser.py`` runs it): keydown on the branching explorer's
k slider -> its new numbers and picture on the page, 20 changes of k.

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

from lmcore.widgets import BranchingExplorer, LambdaExplorer, ProbabilityExplorer, synthetic_order_probs

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


def report(name: str, times: list[float], goal_ms: float = GOAL_MS) -> None:
    median = statistics.median(times)
    verdict = f"ok, goal {goal_ms:g} ms" if median < goal_ms else f"SLOWER than the {goal_ms:g} ms goal"
    print(f"{name:<40} median {median:6.1f} ms   slowest {max(times):6.1f} ms   ({len(times)} changes, {verdict})")


def time_calls(call, n: int) -> list[float]:
    """Milliseconds of each of ``n`` calls of ``call(i)``."""
    times = []
    for i in range(n):
        start = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - start) * 1000)
    return times


def other_goals() -> None:
    """The BLEU explorer, the context-window explorer and the sources' sampling, each against its goal."""
    import numpy as np

    from lmcore.info import IIDSource, MarkovSource
    from lmcore.widgets import BleuExplorer, ContextWindowExplorer, bleu_html, bleu_report

    bleu = BleuExplorer()
    words = "the cat sat on the mat and then it went home to sleep for a very long time".split()
    sentences = [" ".join(words[(i * k) % len(words)] for i in range(50)) for k in range(1, 6)]
    bleu.hypothesis.value = sentences[0]
    for box, text in zip(bleu.references, sentences[1:]):
        box.value = text

    def keystroke(i):
        bleu.hypothesis.value = sentences[0] + f" w{i}"

    report("BLEU explorer, a keystroke (4 refs)", time_calls(keystroke, N_CHANGES))
    pasted = [f"w{i % 700}" for i in range(2000)]
    hypothesis, reference = " ".join(pasted), " ".join(reversed(pasted))
    report("BLEU, a 2,000-word paste", time_calls(lambda i: bleu_html(bleu_report(hypothesis, [reference])), 5),
           goal_ms=2000)

    rng = np.random.default_rng(0)
    n, k = 3000, 6
    table = np.log(np.array([np.full(n, 0.05 + 0.1 * c) for c in range(k + 1)]) * rng.uniform(0.9, 1.0, n))
    window = ContextWindowExplorer(table, np.arange(n) % 40, 4 * n, window=16, max_window=24)
    strides = [1 + (5 * i) % 16 for i in range(N_CHANGES)]
    report("context-window explorer, stride", time_changes(window.stride, strides), goal_ms=50)
    report("context-window explorer, window", time_changes(window.window, [12 + i % 8 for i in range(20)]))

    chain, iid = MarkovSource([[0.9, 0.1], [0.5, 0.5]]), IIDSource([0.2] * 5)
    report("sources, 100,000 Markov + i.i.d. draws",
           time_calls(lambda i: (chain.sample(100_000, seed=i), iid.sample(100_000, seed=i)), 5), goal_ms=1000)


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

    start = time.perf_counter()
    branching = BranchingExplorer(k=10)
    print(f"BranchingExplorer built in {time.perf_counter() - start:.2f} s")
    report("branching explorer, k", time_changes(branching.k, [2 + (7 * i) % 29 for i in range(N_CHANGES)]))
    report("branching explorer, skew", time_changes(branching.skew, [round(0.02 * (i % 50), 2)
                                                                     for i in range(N_CHANGES)]))
    other_goals()
    if "--browser" in sys.argv:
        browser_latency()


BROWSER_NOTEBOOK = {
    "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": "from lmcore.widgets import BranchingExplorer\nBranchingExplorer(k=10)"}],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}
PROBE = """() => {
  window.lmcoreLatency = {down: [], picture: [], numbers: []};
  document.addEventListener('keydown', () => window.lmcoreLatency.down.push(performance.now()), true);
  new MutationObserver(changes => {
    for (const change of changes)
      window.lmcoreLatency[change.target.tagName === 'IMG' ? 'picture' : 'numbers'].push(performance.now());
  }).observe(document.querySelector('.lmcore-branching-explorer'),
             {subtree: true, attributes: true, attributeFilter: ['src'], childList: true, characterData: true});
}"""


def browser_latency(n_changes: int = 20) -> None:
    """Keydown on the k slider -> new numbers and picture shown, in JupyterLab in chromium."""
    import json
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import browser_support as browser
    from playwright.sync_api import expect, sync_playwright

    from lmcore.widgets import branching_report

    expect.set_options(timeout=browser.UI_TIMEOUT_MS)
    with tempfile.TemporaryDirectory() as folder:
        notebook = Path(folder) / "branching_latency.ipynb"
        notebook.write_text(json.dumps(BROWSER_NOTEBOOK))
        server_folder = Path(folder) / "server"
        server_folder.mkdir()
        with browser.jupyterlab_server(server_folder, [notebook]) as (base, token), sync_playwright() as playwright:
            chromium = browser.launch_chromium(playwright)
            page = browser.local_only_context(chromium, viewport={"width": 1300, "height": 1000}).new_page()
            page.set_default_timeout(browser.UI_TIMEOUT_MS)
            browser.run_all_cells(page, base, token, notebook.name, n_code_cells=1)
            page.evaluate(PROBE)
            page.locator(".lmcore-k .noUi-handle").focus()
            times, k = [], 10
            for i in range(n_changes):
                key, k = ("ArrowRight", k + 1) if i < n_changes // 2 else ("ArrowLeft", k - 1)
                page.evaluate("() => { for (const key in lmcoreLatency) lmcoreLatency[key] = []; }")
                page.keyboard.press(key)
                shown = f"{branching_report(k).perplexity:.4f}"
                expect(page.locator(".lmcore-branching-explorer .lmcore-perplexity")).to_have_text(shown)
                page.wait_for_function("() => lmcoreLatency.picture.length && lmcoreLatency.numbers.length")
                seen = page.evaluate("() => lmcoreLatency")
                times.append(max(seen["picture"][-1], seen["numbers"][-1]) - seen["down"][0])
                page.wait_for_timeout(200)  # one change at a time, as a student's key presses
            chromium.close()
    report("branching explorer, k, in the browser", times)


if __name__ == "__main__":
    main()
