"""The BLEU explorer in a real browser: JupyterLab, driven in Debian's chromium by Playwright.

A student types a hypothesis, key by key, into the explorer's text box; the test checks that the
scores shown are the ones sacrebleu and lmcore compute for that text, measures how long one
keystroke takes to show its new score (in the page's own clock), and switches the tokenizer.
Serves a copy of ``tests/browser/bleu_demo.ipynb`` (outputs stripped); only 127.0.0.1 is
reachable from the page. Skipped where chromium or playwright is missing, unless
``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser_support import ROOT, UI_TIMEOUT_MS, launch_chromium, local_only_context, run_all_cells
from sacrebleu.metrics import BLEU

pytestmark = pytest.mark.browser

NOTEBOOK = ROOT / "tests" / "browser" / "bleu_demo.ipynb"
SCREENSHOT_COPY = Path("/tmp/lmcore-browser-bleu.png")
REFERENCE = "我 是 一个 学生"  # the explorer's first preset: course example 1, tokenize "none", N = 2
TYPED = "我 是 一位 学生"

# Set up in the page before the last keystroke: the time of that keystroke ("input" event) and the
# time the result first shows the expected sacrebleu score (a mutation of the result's HTML).
WATCH_JS = """expected => {
    const result = document.querySelector('.lmcore-result');
    const box = document.querySelector('.lmcore-bleu-hypothesis input');
    window.lmcoreTiming = {};
    box.addEventListener('input', () => { window.lmcoreTiming.typed = performance.now(); }, {once: true});
    new MutationObserver(() => {
        const shown = document.querySelector('.lmcore-sacrebleu-score');
        if (shown && shown.textContent === expected && window.lmcoreTiming.shown === undefined) {
            window.lmcoreTiming.shown = performance.now();
        }
    }).observe(result, {subtree: true, childList: true, characterData: true});
}"""


def sacrebleu(hypothesis: str, tokenize: str) -> float:
    return BLEU(tokenize=tokenize, smooth_method="none", max_ngram_order=2).corpus_score([hypothesis],
                                                                                      [[REFERENCE]]).score


def test_typing_a_hypothesis_shows_sacrebleus_score(jupyterlab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from lmcore.bleu import sentence_bleu

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    expected_sacrebleu = sacrebleu(TYPED, "none")
    expected_lmcore = sentence_bleu(TYPED, [REFERENCE], max_order=2, tokenize="none").score
    screenshot = tmp_path / "lmcore-browser-bleu.png"
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = local_only_context(browser, viewport={"width": 1300, "height": 1500})
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            run_all_cells(page, base, token, NOTEBOOK.name, n_code_cells=1)

            score = page.locator(".lmcore-bleu-score")
            shown_sacrebleu = page.locator(".lmcore-sacrebleu-score")
            expect(score).to_have_text("0.4082")  # the course's number, before any edit
            expect(shown_sacrebleu).to_have_text(f"{sacrebleu('我 是 一位 老师', 'none'):.2f}")

            # Type the new hypothesis as a student would, key by key; time the last key.
            box = page.locator(".lmcore-bleu-hypothesis input")
            box.fill("")
            box.press_sequentially(TYPED[:-1], delay=30)
            page.evaluate(WATCH_JS, f"{expected_sacrebleu:.2f}")
            box.press_sequentially(TYPED[-1])
            expect(shown_sacrebleu).to_have_text(f"{expected_sacrebleu:.2f}")
            expect(score).to_have_text(f"{expected_lmcore:.4f}")
            assert f"{expected_lmcore:.4f}" != "0.4082"
            expect(page.locator(".lmcore-p1")).to_have_text("0.7500")
            latency = page.evaluate("window.lmcoreTiming.shown - window.lmcoreTiming.typed")

            # The same text, unspaced, under the zh tokenizer: characters are the tokens.
            box.fill(TYPED.replace(" ", ""))
            page.locator(".lmcore-bleu-tokenize select").select_option("zh")
            zh = BLEU(tokenize="zh", smooth_method="none", max_ngram_order=2).corpus_score(
                [TYPED.replace(" ", "")], [[REFERENCE]]).score
            expect(shown_sacrebleu).to_have_text(f"{zh:.2f}")
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"one keystroke to its score on the page: {latency:.0f} ms; screenshot {SCREENSHOT_COPY}")
    assert latency < 1000, f"the score took {latency:.0f} ms to follow a keystroke"
