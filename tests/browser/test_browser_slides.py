"""Chapters presented as slides: jupyterlab-rise's slideshow in Debian's chromium, driven by Playwright.

A teacher opens chapter 2 as a slideshow (``/rise/<chapter>``: what *View > Full screen slideshow*
shows, and *View > Render as Reveal Slideshow* in a panel beside the notebook), checks the title
slide and a slide of maths, then runs the chapter's cells from its first code cell with
Shift+Enter, slide after slide, up to the probability explorer, and drags one of its sliders:
the entropy shown must change to the one lmcore computes here for the weights the sliders show.
The slides must be the ones ``classroom/slides.py`` wrote into the chapter's metadata, with the
two stylesheets RISE asks for beside the chapter (``rise.css``, ``02_entropy.css``) answered.
Serves a copy of the chapter without its outputs, as a teacher starts a class.

A second test presents chapters 2, 3 and 6 of both editions full screen on a 1280 x 720 projector,
with their stored outputs (the figures and printouts a class sees), runs the setup cell and every
explorer (the probability and entropy-rate, cross-entropy and compression, and BLEU explorers;
the BLEU explorer again with its longest preset), and measures every slide: each fits the screen
(RISE scrolls a slide taller than 95 % of it), nothing is wider than its slide, reveal's arrows
cover nothing, prose is 24 px, code 20 px and printed output 18 px where a cell is shown at full
size (classroom/slides.py shows a cell no slide can hold smaller), and no request leaves
127.0.0.1 (RISE's default theme asks fonts.googleapis.com for two web fonts; the chapters' theme
asks nothing). Chinese is set in the Noto Sans CJK that requirements.txt installs, as on a
lecturer's machine with a Chinese font (this one has none).

Only 127.0.0.1 is reachable. Skipped where chromium or playwright is missing, unless
``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    MATHJAX3_EXTENSION,
    ROOT,
    SLIDESHOW_CHAPTER,
    UI_TIMEOUT_MS,
    local_only_context,
    require_browser,
    settled_box,
    wait_for_kernel_idle,
)

from classroom import slide_layout, slides

pytestmark = pytest.mark.browser

SCREENSHOT_COPY = Path("/tmp/lmcore-slideshow-screenshot.png")
PROJECTOR = {"width": 1280, "height": 720}
FIT_SCREENSHOT_COPY = Path("/tmp/lmcore-slideshow-explorer-1280x720.png")  # docs/images/slideshow-explorer-1280x720.png
EXPLORER_CALL = "widgets.ProbabilityExplorer("
ACTIVE = re.compile(r"\bjp-mod-active\b")
SIZES = {"prose": 24, "code": 20, "output": 18}  # px at 1280 x 720: classroom/rise.css
LECTURE = "lecture"  # the folder the second test serves its chapters from, each edition in its own
PRESENT_SLIDE = ".reveal .slides section.present:not(:has(section))"  # the slide on screen: a leaf of reveal's tree
# A fonts.conf that adds the Chinese font requirements.txt installs (noto-cjk-sans-otc) to the system's.
FONTS_CONF = """<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>{dirs}<cachedir>{cache}</cachedir></fontconfig>
"""


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


def api(base: str, token: str, path: str, method: str = "GET", body: dict | None = None):
    """One call to the Jupyter server's REST API; its JSON answer (None if empty)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(f"{base}/api/{urllib.parse.quote(path)}?token={token}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read()
    return json.loads(text) if text else None


def serve(base: str, token: str, path: str, source: Path) -> None:
    """Put ``source`` (a notebook with its outputs, or a stylesheet) at ``path`` beside the served
    notebooks, creating its folders."""
    parts = path.split("/")
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        with contextlib.suppress(urllib.error.HTTPError):  # there already
            api(base, token, f"contents/{folder}", "PUT", {"type": "directory"})
    if source.suffix == ".ipynb":
        body = {"type": "notebook", "format": "json", "content": json.loads(source.read_text(encoding="utf-8"))}
    else:
        body = {"type": "file", "format": "text", "content": source.read_text(encoding="utf-8")}
    api(base, token, f"contents/{path}", "PUT", body)


def serve_stylesheets(base: str, token: str, folder: str, chapter: Path) -> None:
    """The stylesheets RISE asks for beside ``chapter``, from beside it in the repository (classroom/slides.py's)."""
    for sheet in (chapter.with_name("rise.css"), chapter.with_suffix(".css")):
        assert sheet.is_file(), f"{sheet.relative_to(ROOT)} is missing: run python classroom/slides.py"
        serve(base, token, f"{folder}/{sheet.name}".lstrip("/"), sheet)


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Debian's chromium (headless, offline flags), with the Chinese font of requirements.txt
    added to the system's fonts: one browser for this module's tests."""
    require_browser()
    from playwright.sync_api import sync_playwright

    from lmcore.fonts import bundled_cjk_font_files

    folder = tmp_path_factory.mktemp("fontconfig")
    dirs = "".join(f"<dir>{Path(path).parent}</dir>" for path in dict.fromkeys(bundled_cjk_font_files()))
    (folder / "fonts.conf").write_text(FONTS_CONF.format(dirs=dirs, cache=folder / "cache"), encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS,
                                             env={**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")})
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def projector_slideshow(browser, base: str, token: str, notebook_path: str):
    """``notebook_path`` as jupyterlab-rise's full-screen slideshow on a 1280 x 720 projector, with only
    127.0.0.1 reachable: yields the page, the list of requests that tried to leave 127.0.0.1 and
    the answers to the stylesheets RISE asks for ({url: (status, content type)})."""
    outside: list[str] = []
    stylesheets: dict[str, tuple[int, str]] = {}
    context = local_only_context(browser, outside=outside, viewport=PROJECTOR)
    try:
        page = context.new_page()
        page.set_default_timeout(UI_TIMEOUT_MS)
        page.on("response", lambda response: stylesheets.update(
            {response.url: (response.status, response.headers.get("content-type", ""))})
            if "/files/" in response.url and response.url.endswith(".css") else None)
        page.goto(f"{base}/rise/{notebook_path}?token={token}")
        yield page, outside, stylesheets
    finally:
        context.close()


def end_sessions(base: str, token: str, path: str) -> None:
    """Shut down the kernels of the notebook at ``path`` (each slideshow starts one)."""
    for session in api(base, token, "sessions"):
        if session["path"] == path:
            api(base, token, f"sessions/{session['id']}", "DELETE")


def assert_stylesheets_answered(stylesheets: dict, chapter: str) -> None:
    """RISE asked for rise.css and ``chapter``'s own stylesheet, and got CSS back."""
    asked = {url.rsplit("/", 1)[1]: answer for url, answer in stylesheets.items()}
    for name in ("rise.css", f"{Path(chapter).stem}.css"):
        status, kind = asked.get(name, (None, ""))
        assert status == 200 and kind.startswith("text/css"), f"{name}: {status} {kind}"


def test_a_teacher_presents_a_chapter_with_a_live_explorer(jupyterlab, chromium, tmp_path):
    from playwright.sync_api import expect

    from lmcore.widgets import PRESETS, distribution_from_weights
    from lmcore.widgets.probability import slider_weights

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    serve_stylesheets(base, token, "", SLIDESHOW_CHAPTER)
    cells = nbformat.read(SLIDESHOW_CHAPTER, as_version=4).cells
    types = [cell.metadata["slideshow"]["slide_type"] for cell in cells]
    first_code = next(i for i, cell in enumerate(cells) if cell.cell_type == "code")
    explorer = next(i for i, cell in enumerate(cells) if EXPLORER_CALL in cell.source)
    maths = next(i for i, cell in enumerate(cells) if cell.cell_type == "markdown" and "$$" in cell.source)
    horse_race = PRESETS["horse race"]
    start_weights = slider_weights(horse_race.p)
    screenshot = tmp_path / "slideshow.png"

    with projector_slideshow(chromium, base, token, SLIDESHOW_CHAPTER.name) as (page, outside, stylesheets):
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
        assert outside == [], f"requests that tried to leave 127.0.0.1 during the slideshow: {outside}"
        assert_stylesheets_answered(stylesheets, SLIDESHOW_CHAPTER.name)
    end_sessions(base, token, SLIDESHOW_CHAPTER.name)
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"screenshot of the explorer's slide: {SCREENSHOT_COPY}")


# Every slide of the page, each laid out in turn where the slide on screen is: its height, what is
# wider than its box, what reveal's arrows cover, and the sizes of its text.
MEASURE_SLIDES = """() => {
    const visible = e => e.getClientRects().length > 0;
    const arrows = [...document.querySelectorAll('.reveal .controls button')].filter(visible)
        .map(b => b.getBoundingClientRect()).map(r => [r.left, r.top, r.right, r.bottom]);
    const origin = document.querySelector('.reveal .slides section.present:not(:has(section))').getBoundingClientRect();
    const leaves = [...document.querySelectorAll('.reveal .slides section')].filter(s => !s.querySelector('section'));
    const size = e => parseFloat(getComputedStyle(e).fontSize);
    const slides = [];
    for (const slide of leaves) {
        const shown = [slide, slide.parentElement.closest('section')].filter(Boolean);
        const saved = shown.map(e => e.getAttribute('style'));
        shown.forEach(e => { e.style.display = 'block'; });
        Object.assign(slide.style, {height: 'auto', overflowY: 'visible', marginTop: '0px'});
        const box = slide.getBoundingClientRect();
        const dx = origin.left - box.left, dy = origin.top - box.top;
        const covered = [];
        const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
        const boxes = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim() || !visible(node.parentElement)) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            boxes.push([range.getBoundingClientRect(), node.textContent.trim().slice(0, 40)]);
        }
        for (const e of slide.querySelectorAll('img, svg, canvas, input, select, button, textarea, .noUi-handle')) {
            if (visible(e)) boxes.push([e.getBoundingClientRect(), e.tagName.toLowerCase()]);
        }
        for (const [r, what] of boxes) {
            const [left, top, right, bottom] = [r.left + dx, r.top + dy, r.right + dx, r.bottom + dy];
            const under = ([l, t, rr, b]) => left < rr && right > l && top < b && bottom > t;
            if (r.width && r.height && arrows.some(under)) covered.push(what);
        }
        const wide = [...slide.querySelectorAll('.cm-scroller, .jp-OutputArea-output, .jp-RenderedHTMLCommon')]
            .filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => `${e.className.split(' ').pop()} +${e.scrollWidth - e.clientWidth}px`);
        const right = Math.max(...boxes.map(([r]) => r.right + dx));
        const cells = [...slide.querySelectorAll('.jp-Cell')];
        const full = cells.filter(c => getComputedStyle(c).zoom === '1' || getComputedStyle(c).zoom === 'normal');
        const sizes = selector => [...new Set(full.flatMap(c => [...c.querySelectorAll(selector)])
            .filter(visible).map(size))];
        slides.push({id: slide.id, height: box.height, covered, wide, right,
                     cells: cells.map(c => Number(c.dataset.windowedListIndex)),
                     prose: sizes('.jp-MarkdownCell .jp-RenderedHTMLCommon > p'), code: sizes('.jp-InputArea .cm-line'),
                     output: sizes('.jp-OutputArea-output > pre')});
        shown.forEach((e, i) => saved[i] === null ? e.removeAttribute('style') : e.setAttribute('style', saved[i]));
    }
    return {screen: [window.innerWidth, window.innerHeight], slides};
}"""


def show_slide_of(page, cell):
    """Go to the slide of ``cell`` (a locator), as reveal.js's address does it, and wait until it is on screen."""
    from playwright.sync_api import expect

    slide = cell.locator("xpath=ancestor::section[1]")
    h, v = slide.get_attribute("id").split("-")[1:]
    page.evaluate(f"() => {{ location.hash = '#/{h}/{v}'; }}")
    expect(slide).to_have_class(re.compile(r"\bpresent\b"))
    return slide


def run_cell(page, cell, keys: str) -> None:
    """Select ``cell`` on its slide and run it with ``keys`` (Shift+Enter, Control+Enter)."""
    from playwright.sync_api import expect

    show_slide_of(page, cell)
    cell.locator(".jp-InputPrompt").click()
    expect(cell).to_have_class(ACTIVE)
    page.keyboard.press(keys)


@pytest.mark.parametrize("chapter", [Path(edition, name) for edition in ("", "zh")
                                     for name in ("02_entropy.ipynb", "03_cross_entropy.ipynb", "06_bleu.ipynb")],
                         ids=lambda chapter: chapter.as_posix().replace(".ipynb", ""))
def test_every_slide_fits_a_1280x720_projector(jupyterlab, chromium, tmp_path, chapter):
    """The chapter full screen at 1280 x 720 with its stored outputs and its explorers run: every slide fits,
    nothing is wider than a slide or under reveal's arrows, text has the lecture sizes, nothing leaves 127.0.0.1."""
    from playwright.sync_api import expect

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    source = ROOT / "notebooks" / chapter
    served = f"{LECTURE}/{chapter.as_posix()}"
    serve(base, token, served, source)
    serve_stylesheets(base, token, served.rsplit("/", 1)[0], source)
    notebook = nbformat.read(source, as_version=4)
    assert notebook.metadata["rise"] == slides.RISE_SETTINGS, "run python classroom/slides.py"
    cells = notebook.cells
    setup = next(i for i, cell in enumerate(cells) if cell.cell_type == "code")
    explorers = [i for i, cell in enumerate(cells) if slide_layout.is_explorer(cell)]
    zoomed = slides.zooms(cells, slides.stored_types(notebook))
    screenshot = tmp_path / "explorer-slide.png"

    with projector_slideshow(chromium, base, token, served) as (page, outside, stylesheets):
        def cell(index):  # by its place in the notebook (RISE moves cells between slides)
            return page.locator(f".jp-Notebook .jp-Cell[data-windowed-list-index='{index}']")

        expect(page.locator(".jp-Notebook .jp-Cell")).to_have_count(len(cells))
        wait_for_kernel_idle(page, base, token, chapter.name)
        run_cell(page, cell(setup), "Shift+Enter")
        expect(cell(setup).locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[\d+\]:"))
        for index in explorers:
            run_cell(page, cell(index), "Control+Enter")
            expect(cell(index).locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[\d+\]:"))
            explorer = cell(index).locator("[class*='lmcore-'][class*='-explorer']").first
            expect(explorer).to_be_visible()
            expect(cell(index).locator(".lmcore-static")).to_have_count(0)  # the stored picture gave way
            settled_box(explorer)  # every output has rendered
        page.wait_for_function("""() => !document.querySelector('.jp-MarkdownCell:not(.jp-mod-rendered)')
            && [...document.images].every(image => image.complete) && document.fonts.status === 'loaded'""")
        measured = page.evaluate(MEASURE_SLIDES)["slides"]
        bleu = cell(explorers[-1]).locator(".lmcore-bleu-explorer")
        if bleu.count():  # John 3:16 against three translations, N = 4: the longest preset (110 n-grams, 124 tokens)
            show_slide_of(page, cell(explorers[-1]))
            score = bleu.locator(".lmcore-bleu-score")
            first = score.text_content()
            bleu.locator("select").first.select_option(index=bleu.locator("select").first.locator("option").count() - 1)
            expect(score).not_to_have_text(first)
            settled_box(bleu)
            measured += [slide for slide in page.evaluate(MEASURE_SLIDES)["slides"] if explorers[-1] in slide["cells"]]
        show_slide_of(page, cell(explorers[0]))
        page.screenshot(path=str(screenshot))
        assert outside == [], f"requests that tried to leave 127.0.0.1 during the slideshow: {outside}"
        assert_stylesheets_answered(stylesheets, chapter.name)
    end_sessions(base, token, served)

    tall = [f"{s['id']} (cells {s['cells']}): {s['height']:.0f} px" for s in measured if s["height"] > slides.FITS]
    wide = [f"{s['id']}: {s['wide']}" for s in measured if s["wide"] or s["right"] > PROJECTOR["width"]]
    covered = [f"{s['id']}: {s['covered'][:3]}" for s in measured if s["covered"]]
    print(f"{chapter}: {len(measured)} slides, the tallest {max(s['height'] for s in measured):.0f} px of "
          f"{slides.FITS}; {len(zoomed)} cells shown smaller ({min(zoomed.values(), default=1):g} the smallest zoom)")
    assert tall == [], f"slides taller than {slides.FITS} px (RISE scrolls them): {tall}"
    assert wide == [], f"slides with something wider than the slide: {wide}"
    assert covered == [], f"slides whose content reveal's arrows cover: {covered}"
    sizes = {kind: sorted({px for s in measured for px in s[kind]}) for kind in SIZES}
    assert all(sizes[kind] == [float(px)] for kind, px in SIZES.items()), f"text sizes at full size: {sizes}"
    if chapter.as_posix() == "03_cross_entropy.ipynb":
        shutil.copyfile(screenshot, FIT_SCREENSHOT_COPY)
        print(f"screenshot: {FIT_SCREENSHOT_COPY}")
