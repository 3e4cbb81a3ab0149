"""A chapter presented as slides: jupyterlab-rise's slideshow in Debian's chromium, driven by Playwright.

A teacher opens chapter 2 as a slideshow (``/rise/<chapter>``, what *View > Open as Reveal
Slideshow* shows), checks the title slide and a slide of maths, then runs the chapter's cells
from its first code cell with Shift+Enter, slide after slide, up to the probability explorer,
and drags one of its sliders: the entropy shown must change to the one lmcore computes here
for the weights the sliders show.
The slides must be the ones ``classroom/slides.py`` wrote into the chapter's metadata. Serves a
copy of the chapter without its outputs, as a teacher starts a class; only 127.0.0.1 is
reachable. Skipped where chromium or playwright is missing, unless ``LMCORE_REQUIRE_EXTRAS``
is set (CI), where that fails.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from browser_support import (
    MATHJAX3_EXTENSION,
    SLIDESHOW_CHAPTER,
    UI_TIMEOUT_MS,
    launch_chromium,
    local_only_context,
    settled_box,
    wait_for_kernel_idle,
)

pytestmark = pytest.mark.browser

SCREENSHOT_COPY = Path("/tmp/lmcore-slideshow-screenshot.png")
EXPLORER_CALL = "widgets.ProbabilityExplorer("
ACTIVE = re.compile(r"\bjp-mod-active\b")


def test_a_teacher_presents_a_chapter_with_a_live_explorer(jupyterlab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from lmcore.widgets import PRESETS, distribution_from_weights
    from lmcore.widgets.probability import slider_weights

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    cells = nbformat.read(SLIDESHOW_CHAPTER, as_version=4).cells
    types = [cell.metadata["slideshow"]["slide_type"] for cell in cells]
    first_code = next(i for i, cell in enumerate(cells) if cell.cell_type == "code")
    explorer = next(i for i, cell in enumerate(cells) if EXPLORER_CALL in cell.source)
    maths = next(i for i, cell in enumerate(cells) if cell.cell_type == "markdown" and "$$" in cell.source)
    horse_race = PRESETS["horse race"]
    start_weights = slider_weights(horse_race.p)
    screenshot = tmp_path / "slideshow.png"

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = local_only_context(browser, viewport={"width": 1280, "height": 720}).new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(f"{base}/rise/{SLIDESHOW_CHAPTER.name}?token={token}")
            slide = page.locator(".reveal .slides section.present").last  # the slide on screen
            expect(slide).to_contain_text(cells[0].source.splitlines()[0].lstrip("# "))
            badge = slide.locator("img[alt='Binder']")  # the repository's own image: shown offline
            expect(badge).to_have_js_property("complete", True)
            assert badge.evaluate("image => image.naturalWidth") > 0, "the Binder badge did not load"
            # The slides are the chapter's metadata: one horizontal slide per "slide", one more per "subslide".
            expect(page.locator(".reveal .slides > section")).to_have_count(types.count("slide"))
            expect(page.locator(".reveal .slides section:not(:has(section))")).to_have_count(
                types.count("slide") + types.count("subslide"))

            page_config = json.loads(page.locator("#jupyter-config-data").text_content())
            assert MATHJAX3_EXTENSION in page_config["disabledExtensions"], "the maths must render without it"
            notebook_cells = page.locator(".jp-Notebook .jp-Cell")
            expect(notebook_cells).to_have_count(len(cells))
            wait_for_kernel_idle(page, base, token, SLIDESHOW_CHAPTER.name)  # the slideshow shows no kernel status
            page.keyboard.press("Space")  # the next slide: the setup code
            expect(slide).to_contain_text(cells[first_code].source.splitlines()[0])
            notebook_cells.nth(first_code).locator(".jp-InputPrompt").click()
            for index in range(first_code, explorer):
                page.keyboard.press("Shift+Enter")  # run this cell, go on to the next (and its slide)
                expect(notebook_cells.nth(index + 1)).to_have_class(ACTIVE)
                if index == maths:
                    expect(notebook_cells.nth(maths).locator("mjx-container").first).to_be_visible()
                    assert "$$" not in notebook_cells.nth(maths).inner_text()
            # The explorer's slide: run it and stay; the explorer is live: a drag moves the entropy.
            explorer_slide = notebook_cells.nth(explorer).locator("xpath=ancestor::section[1]")
            expect(explorer_slide).to_have_class(re.compile(r"\bpresent\b"))
            page.keyboard.press("Control+Enter")
            prompts = [notebook_cells.nth(i).locator(".jp-InputPrompt") for i in range(first_code, explorer + 1)
                       if cells[i].cell_type == "code"]
            for prompt in prompts:
                expect(prompt).to_have_text(re.compile(r"\[\d+\]:"))

            entropy = explorer_slide.locator(".lmcore-probability-explorer .lmcore-entropy")
            expect(entropy).to_have_text("2.0000")
            # In the slideshow the notebook keeps the keyboard, so the teacher drags horse 1's slider.
            handle = settled_box(explorer_slide.locator(".lmcore-p-weight .noUi-handle").first)
            page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
            page.mouse.down()
            page.mouse.move(handle["x"] + handle["width"] / 2 + 60, handle["y"] + handle["height"] / 2, steps=5)
            page.mouse.up()
            readouts = explorer_slide.locator(".lmcore-p-weight .widget-readout")
            expect(readouts.first).not_to_have_text(f"{start_weights[0]:.4f}")
            weights = [float(text) for text in readouts.all_inner_texts()]
            moved = distribution_from_weights(weights, horse_race.m)
            expect(entropy).to_have_text(f"{moved.entropy:.4f}")
            assert f"{moved.entropy:.4f}" != "2.0000"
            expect(explorer_slide).to_have_class(re.compile(r"\bpresent\b"))  # the slider moved, not the slide
            page.screenshot(path=str(screenshot))
        finally:
            browser.close()
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"screenshot of the explorer's slide: {SCREENSHOT_COPY}")
