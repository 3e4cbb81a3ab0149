"""Chapter 3's explorers in a real browser: JupyterLab, driven in Debian's chromium by Playwright.

Serves a copy of ``tests/browser/cross_entropy_demo.ipynb`` (outputs stripped), runs it, then
acts as a student would: moves the model's slider for *money* one step with the keyboard,
swaps p and m with the button, types a message and presses *code it*; each time the shown
numbers must equal lmcore's pure functions. Only 127.0.0.1 is reachable; the browser is the
system's chromium. Skipped where chromium or playwright is missing, unless
``LMCORE_REQUIRE_EXTRAS`` is set.
"""

from __future__ import annotations

import re

import pytest
from browser_support import ROOT, UI_TIMEOUT_MS, launch_chromium, local_only_context, run_all_cells

pytestmark = pytest.mark.browser

NOTEBOOK = ROOT / "tests" / "browser" / "cross_entropy_demo.ipynb"


def test_a_student_moves_swaps_and_codes(jupyterlab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from lmcore.widgets import CROSS_ENTROPY_PRESETS, compression_report, cross_entropy_report

    expect.set_options(timeout=UI_TIMEOUT_MS)
    toy = CROSS_ENTROPY_PRESETS["toy corpus, add-one unigram"]
    moved_m = (*toy.m[:-1], round(toy.m[-1] - 0.01, 2))  # money's weight one step (0.01) to the left
    moved = cross_entropy_report(toy.p, moved_m)
    swapped = cross_entropy_report(moved_m, toy.p)
    code = compression_report("BAB", 0.8).narrowing.code

    base, token = jupyterlab
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = local_only_context(browser, viewport={"width": 1400, "height": 2000}).new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            run_all_cells(page, base, token, NOTEBOOK.name, n_code_cells=2)

            cross = page.locator(".lmcore-cross-entropy-explorer .lmcore-cross-entropy")
            expect(cross).to_have_text("3.0028")
            page.locator(".lmcore-m-weight .noUi-handle").nth(7).focus()  # m(money)
            page.keyboard.press("ArrowLeft")
            expect(page.locator(".lmcore-m-weight .widget-readout").nth(7)).to_have_text("0.19")
            expect(cross).to_have_text(f"{moved.cross_entropy:.4f}")
            expect(page.locator(".lmcore-cross-entropy-explorer .lmcore-kl")).to_have_text(f"{moved.kl:.4f}")

            page.locator(".lmcore-swap").click()  # H(m, p): p gives money probability 0, m expects it
            expect(cross).to_have_text("∞" if swapped.cross_entropy == float("inf") else f"{swapped.cross_entropy:.4f}")
            expect(page.locator(".lmcore-cross-entropy-explorer .lmcore-message")).to_contain_text("money")

            text_box = page.locator(".lmcore-message-text input")
            text_box.fill("BAB")
            page.locator(".lmcore-code-button").click()
            expect(page.locator(".lmcore-compression-explorer .lmcore-code")).to_have_text(code)
            picture = page.locator(".lmcore-compression-explorer svg.lmcore-narrowing")
            expect(picture).to_have_attribute("aria-label", re.compile(r"^'BAB': final width"))
            page.screenshot(path=str(tmp_path / "cross-entropy.png"), full_page=True)
        finally:
            browser.close()
