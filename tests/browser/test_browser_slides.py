"""A chapter presented as slides: jupyterlab-rise's slideshow in Debian's chromium, driven by Playwright.

A teacher opens chapter 2 as a slideshow (``/rise/<chapter>``: what *View > Full screen slideshow*
shows, and *View > Render as Reveal Slideshow* in a panel beside the notebook), checks the title
slide and a slide of maths, then runs the chapter's cells from its first code cell with
Shift+Enter, slide after slide, up to the probability explorer, and drags one of its sliders:
the entropy shown must change to the one lmcore computes here for the weights the sliders show.
The slides must be the ones ``classroom/slides.py`` wrote into the chapter's metadata. Serves a
copy of the chapter without its outputs, as a teacher starts a class; only 127.0.0.1 is
reachable. Skipped where chromium or playwright is missing, unless ``LMCORE_REQUIRE_EXTRAS``
is set (CI), where that fails.

A second test presents chapters 2, 3 and 6 full screen on a 1280 x 720 projector and runs each up
to its explorer (the probability, cross-entropy and BLEU explorers, once 1,047, 790 and 858 px tall,
cut at the bottom; the BLEU explorer again with its longest preset): the explorer's slide must fit
the screen, every control of it on screen and nothing scrolled away.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from browser_support import (
    MATHJAX3_EXTENSION,
    ROOT,
    SLIDESHOW_CHAPTER,
    UI_TIMEOUT_MS,
    launch_chromium,
    local_only_context,
    settled_box,
    wait_for_kernel_idle,
)

pytestmark = pytest.mark.browser

SCREENSHOT_COPY = Path("/tmp/lmcore-slideshow-screenshot.png")
PROJECTOR = {"width": 1280, "height": 720}
FIT_SCREENSHOT_COPY = Path("/tmp/lmcore-slideshow-explorer-1280x720.png")  # docs/images/slideshow-explorer-1280x720.png
EXPLORER_CALL = "widgets.ProbabilityExplorer("
ACTIVE = re.compile(r"\bjp-mod-active\b")


PRESENT_SLIDE = ".reveal .slides section.present:not(:has(section))"  # the slide on screen: a leaf of reveal's tree


def next_slide(page) -> None:
    """Space, and wait until reveal.js shows another slide. On a busy machine a press made while
    the slideshow is still settling can be lost, so a press that moves nothing in 15 s is repeated
    (three presses at most)."""
    from playwright.sync_api import expect

    page.locator(PRESENT_SLIDE).evaluate("slide => { slide.dataset.left = 'yes'; }")
    for _ in range(3):
        page.keyboard.press("Space")
        try:
            expect(page.locator(f"{PRESENT_SLIDE}:not([data-left])")).to_have_count(1, timeout=15_000)
            return
        except AssertionError:
            continue
    raise AssertionError("three presses of Space did not move the slideshow on")


@contextlib.contextmanager
def projector_slideshow(base: str, token: str, notebook_name: str):
    """Debian's chromium showing ``notebook_name`` as jupyterlab-rise's full-screen slideshow on a
    1280 x 720 projector, with only 127.0.0.1 reachable: yields the page; the browser closes after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = local_only_context(browser, viewport=PROJECTOR).new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(f"{base}/rise/{notebook_name}?token={token}")
            yield page
        finally:
            browser.close()


def test_a_teacher_presents_a_chapter_with_a_live_explorer(jupyterlab, tmp_path):
    from playwright.sync_api import expect

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

    with projector_slideshow(base, token, SLIDESHOW_CHAPTER.name) as page:
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
        next_slide(page)  # the next slide: the setup code
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
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"screenshot of the explorer's slide: {SCREENSHOT_COPY}")


def upload_stripped(base: str, token: str, chapter: Path) -> None:
    """Put a copy of ``chapter`` without outputs or widget state beside the served notebooks (contents API)."""
    notebook = json.loads(chapter.read_text(encoding="utf-8"))
    notebook["metadata"].pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    body = json.dumps({"type": "notebook", "format": "json", "content": notebook}).encode("utf-8")
    request = urllib.request.Request(f"{base}/api/contents/{chapter.name}?token={token}", data=body, method="PUT",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 201), response.status


# Where the explorer's slide, its explorer and each of its controls are, against the screen.
ON_SCREEN = """(section, selector) => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const explorer = section.querySelector(selector);
    const controls = [...explorer.querySelectorAll('.noUi-handle, select, button, input')]
        .filter(e => !e.closest('.noUi-target') || e.classList.contains('noUi-handle')).map(box);
    return {screen: [window.innerWidth, window.innerHeight], slide: box(section), explorer: box(explorer), controls,
            scrolledAway: section.scrollHeight - section.clientHeight};
}"""


@dataclass(frozen=True)
class ExplorerSlide:
    """A chapter's explorer slide to fit: the call that shows it, its box and a number it shows at the start."""

    chapter: str
    call: str
    box: str
    number: str
    first_number: str
    min_controls: int  # every slider, menu, box and button it starts with
    then_preset: str = ""  # a preset that makes it taller, to choose from its menu and measure again


EXPLORER_SLIDES = [
    # 16 weight sliders, the preset menu, the Huffman code's checkbox (once 1,047 px tall)
    ExplorerSlide("02_entropy.ipynb", "widgets.ProbabilityExplorer(", ".lmcore-probability-explorer",
                  ".lmcore-entropy", "2.0000", 18),
    # 16 sliders, a menu, a button (once 790 px tall)
    ExplorerSlide("03_cross_entropy.ipynb", "widgets.CrossEntropyExplorer(", ".lmcore-cross-entropy-explorer",
                  ".lmcore-cross-entropy", "3.0028", 18),
    # 3 menus, the hypothesis and 4 references (once 858 px tall)
    # (then John 3:16 against three Bible translations, N = 4: 110 n-grams and 124 tokens, in their boxes)
    ExplorerSlide("06_bleu.ipynb", "widgets.BleuExplorer(", ".lmcore-bleu-explorer", ".lmcore-bleu-score",
                  "0.4082", 8, then_preset="John 3:16: WEB against KJV, Darby, YLT"),
]


@pytest.mark.parametrize("explorer_slide", EXPLORER_SLIDES, ids=[slide.chapter[:2] for slide in EXPLORER_SLIDES])
def test_an_explorer_slide_fits_a_1280x720_projector(jupyterlab, tmp_path, explorer_slide):
    """The chapter full screen at 1280 x 720, run slide by slide up to its explorer: the explorer's slide,
    the explorer and every slider, menu, text box and button are on screen, nothing cut or scrolled away."""
    from playwright.sync_api import expect

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    path = ROOT / "notebooks" / explorer_slide.chapter
    upload_stripped(base, token, path)
    chapter = nbformat.read(path, as_version=4)
    assert chapter.metadata["rise"].get("center") is False, "run python classroom/slides.py"
    cells = chapter.cells
    types = [cell.metadata["slideshow"]["slide_type"] for cell in cells]
    first_code = next(i for i, cell in enumerate(cells) if cell.cell_type == "code")
    explorer = next(i for i, cell in enumerate(cells) if explorer_slide.call in cell.source)
    screenshot = tmp_path / "explorer-slide.png"

    with projector_slideshow(base, token, path.name) as page:
        expect(page.locator(".jp-Notebook .jp-Cell")).to_have_count(len(cells))

        def cell(index):  # by its place in the notebook (RISE moves cells between slides)
            return page.locator(f".jp-Notebook .jp-Cell[data-windowed-list-index='{index}']")

        wait_for_kernel_idle(page, base, token, path.name)
        for _ in range(sum(kind in ("slide", "subslide") for kind in types[1:first_code + 1])):
            next_slide(page)  # on to the slide of the first code cell
        expect(cell(first_code).locator("xpath=ancestor::section[1]")).to_have_class(re.compile(r"\bpresent\b"))
        cell(first_code).locator(".jp-InputPrompt").click()
        # Shift+Enter, cell after cell, up to the explorer (where a prose cell opens a slide, RISE
        # may pass it over: it is shown all the same); then every code cell before it has run.
        active = page.locator(".jp-Notebook .jp-Cell.jp-mod-active")
        while (now := int(active.get_attribute("data-windowed-list-index"))) < explorer:
            page.keyboard.press("Shift+Enter")
            expect(active).not_to_have_attribute("data-windowed-list-index", str(now))
        page.keyboard.press("Control+Enter")
        for index in range(first_code, explorer + 1):
            if cells[index].cell_type == "code":
                expect(cell(index).locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[\d+\]:"))
        slide = cell(explorer).locator("xpath=ancestor::section[1]")
        expect(slide).to_have_class(re.compile(r"\bpresent\b"))
        expect(slide.locator(f"{explorer_slide.box} {explorer_slide.number}")).to_have_text(
            explorer_slide.first_number)
        settled_box(slide.locator(explorer_slide.box))  # every output has rendered
        measured = [slide.evaluate(ON_SCREEN, explorer_slide.box)]
        if explorer_slide.then_preset:
            slide.locator(f"{explorer_slide.box} select").first.select_option(label=explorer_slide.then_preset)
            expect(slide.locator(f"{explorer_slide.box} {explorer_slide.number}")).not_to_have_text(
                explorer_slide.first_number)
            settled_box(slide.locator(explorer_slide.box))
            measured.append(slide.evaluate(ON_SCREEN, explorer_slide.box))
        page.screenshot(path=str(screenshot))
    def on_screen(box):
        left, top, right, bottom = box
        return left >= 0 and top >= 0 and right <= PROJECTOR["width"] + 0.5 and bottom <= PROJECTOR["height"] + 0.5

    for where in measured:
        assert where["screen"] == [1280, 720]
        tall = where["explorer"][3] - where["explorer"][1]
        print(f"{explorer_slide.chapter}: explorer {tall:.0f} px tall at 1280 x 720, slide bottom at "
              f"{where['slide'][3]:.0f} px")
        assert on_screen(where["slide"]), f"the explorer's slide {where['slide']} leaves the 1280 x 720 screen"
        assert on_screen(where["explorer"]), f"the explorer ({tall:.0f} px) {where['explorer']} leaves the screen"
        off = [box for box in where["controls"] if not on_screen(box)]
        assert len(where["controls"]) >= explorer_slide.min_controls and off == [], f"controls off screen: {off}"
        assert where["scrolledAway"] <= 0, f"{where['scrolledAway']} px of the slide are scrolled away"
    if explorer_slide.chapter.startswith("03"):
        shutil.copyfile(screenshot, FIT_SCREENSHOT_COPY)
        print(f"screenshot: {FIT_SCREENSHOT_COPY}")
