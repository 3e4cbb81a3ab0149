"""The Shannon game in a real browser: JupyterLab, driven in Debian's chromium by Playwright.

What plain pytest cannot see: that the game renders in a front end, that a word typed into the
guess box and a click on *Guess* reach the kernel, and that the ranks and probabilities then on
the page equal those of ``lmcore.shannon.play``. The test serves a copy of
``tests/browser/shannon_game_demo.ipynb`` (outputs stripped), runs all cells, plays three words
of the game by typing and clicking as a student would, checks every model's shown rank and
probability after each, then clicks two symbols of the letter game and checks its count. Only
127.0.0.1 is reachable from the page; the browser is the system's chromium. Skipped where
chromium or playwright is missing, unless ``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser_support import (
    ROOT,
    UI_TIMEOUT_MS,
    launch_chromium,
    local_only_context,
    run_all_cells,
)

pytestmark = pytest.mark.browser

NOTEBOOK = ROOT / "tests" / "browser" / "shannon_game_demo.ipynb"
SCREENSHOT_COPY = Path("/tmp/lmcore-shannon-game-screenshot.png")
# The notebook's inputs, repeated here to compute the expected numbers.
CORPUS, SEED, ORDERS = "english_letters", 1, (("unigram", 1), ("bigram", 2), ("trigram", 3))
GUESSES = ["Therefore", "lord", "do"]  # typed as a student would: right (with a capital), then two wrong words


def expected_steps():
    from lmcore import shannon, text
    from lmcore.ngram import KneserNey

    english = text.split_sentences(text.load_corpus(CORPUS), seed=0)
    models = {name: KneserNey(n).fit(english.train) for name, n in ORDERS}
    sentence = shannon.draw_sentence(english.test, SEED, 6, 14)
    return sentence, shannon.play(sentence, GUESSES, models)


def test_three_typed_guesses_show_the_pure_functions_ranks_and_probabilities(jupyterlab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from lmcore.widgets import css_name, format_probability

    expect.set_options(timeout=UI_TIMEOUT_MS)
    sentence, steps = expected_steps()
    base, token = jupyterlab
    screenshot = tmp_path / "lmcore-shannon-game-screenshot.png"
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = local_only_context(browser, viewport={"width": 1400, "height": 2000})
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            run_all_cells(page, base, token, NOTEBOOK.name, n_code_cells=3)

            result = page.locator(".lmcore-shannon-result")
            expect(result).to_contain_text("Sentence number 1")
            guess_box = page.locator(".lmcore-shannon-guess input")
            for typed, step in zip(GUESSES, steps):
                guess_box.fill(typed)
                page.locator(".lmcore-shannon-guess-button").click()
                expect(page.locator(".lmcore-step")).to_have_text(str(step.position + 1))
                for prediction, total_bits in zip(step.predictions, step.model_bits):
                    name = css_name(prediction.name)
                    expect(page.locator(f".lmcore-rank-{name}")).to_have_text(str(prediction.rank))
                    expect(page.locator(f".lmcore-prob-{name}")).to_have_text(format_probability(prediction.prob))
                    expect(page.locator(f".lmcore-tally-bits-{name}")).to_have_text(f"{total_bits:.2f}")
                expect(page.locator(".lmcore-tally-you")).to_have_text(str(step.hits))
                expect(guess_box).to_have_value("")
            expect(result).to_contain_text(" ".join(sentence[:3]))
            assert steps[0].hit and not steps[1].hit  # "Therefore" was right, "lord" was not

            # An empty guess gets a message in the widget, and no step.
            page.locator(".lmcore-shannon-guess-button").click()
            expect(result.locator(".lmcore-message")).to_contain_text("guess is empty")
            expect(page.locator(".lmcore-step")).to_have_text("3")

            # The letter game: a wrong symbol, then the right one: 2 tries for the first symbol.
            page.locator(".lmcore-letter-a").click()
            expect(page.locator(".lmcore-letter-a")).to_be_disabled()
            page.locator(".lmcore-letter-t").click()
            expect(page.locator(".lmcore-done")).to_have_text("1")
            expect(page.locator(".lmcore-upper")).to_have_text("0.0000")  # q_2 = 1: the bounds are 2 and 0
            expect(page.locator(".lmcore-letter-result")).to_contain_text("(yours) do not fall like that yet")
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"screenshot: {screenshot} (copied to {SCREENSHOT_COPY})")
