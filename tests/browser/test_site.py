"""The course website: built once from the stored notebooks, then read in a real browser.

``python site/build.py --out TMP`` builds the site (Jupyter Book 1, without executing a
notebook); the build must print no warning. Then the site is served from 127.0.0.1 by
``http.server`` and Debian's chromium, driven by Playwright, opens the landing page and
every chapter page, with every request that is not to 127.0.0.1 aborted (and counted: the
site must need none). On each page: the maths rendered (MathJax output for every maths
node, no raw ``$$``, ``\\(`` or ``$...$`` left), every image loaded, every internal link
answers 200 and its ``#anchor`` exists; on a chapter page also: the Binder link, the
explorers' static pictures in place of empty widgets, the reference answers folded. The
search page finds a chapter, and a screenshot of one chapter is saved. The Chinese edition is
the site's second part: its landing page, the glossary and one chapter are checked as fully in
the browser; every English chapter page links to its Chinese copy and back. No page logs an error
in the browser's console; search snippets show no raw TeX. At 390, 768 and 1366 px the chapter list
is reached (on a phone and a tablet through the menu button) and one search control shows; on a phone
no tooltip covers the header once the menu is closed. The layout checks of every page (:class:`_Layout`:
explorer pictures at 1366 px, maths at 390 px, the Chinese web font) run where
tests/browser/test_site_accessibility.py has each page loaded. Skipped where jupyter-book, playwright
or chromium is missing, unless ``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import optional_extras
import pytest
from browser_support import (
    ROOT,
    UI_TIMEOUT_MS,
    launch_chromium,
    local_only_context,
    require_browser,
)

pytestmark = pytest.mark.browser

BUILD_SCRIPT = ROOT / "site" / "build.py"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))  # what build.py puts in the site
ZH_CHAPTERS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
GLOSSARY = "术语表"
SCREENSHOT_CHAPTER = "04_perplexity"
SCREENSHOT_COPY = Path("/tmp/lmcore-site-screenshot.png")
BUILD_TIMEOUT_SECONDS = 120
WEB_FONT_FAMILY = "Course Noto Sans SC"  # site/_static/course.css's @font-face; site/build.py writes the file
WEB_FONT_FILE = "fonts/noto-sans-cjk-sc-course.woff"
WEB_FONT_MAX_BYTES = 600_000  # 308 kB for the 1,087 characters of December 2026

# Text of the article with code, outputs and rendered maths taken out: what must hold no raw TeX.
PROSE_JS = """() => {
    const article = document.querySelector('article') || document.body;
    const copy = article.cloneNode(true);
    copy.querySelectorAll('pre, code, script, style, mjx-container, .cell_output, .output')
        .forEach(node => node.remove());
    return copy.textContent;
}"""
IMAGES_JS = """() => Array.from(document.images).map(img => ({
    src: img.currentSrc || img.src, complete: img.complete, width: img.naturalWidth}))"""
RAW_INLINE_MATH = re.compile(r"\$[^$\s][^$\n]*?\$")


@dataclass
class Build:
    html: Path
    returncode: int
    output: str


@dataclass
class Chapter:
    """What the stored notebook says its page must show."""

    name: str  # its path in the site, without suffix: 04_perplexity, zh/04_perplexity
    has_maths: bool
    folded_answers: int
    static_pictures: int
    static_images: int
    widget_text_only: list[str]


def _chapter(path: Path) -> Chapter:
    name = path.relative_to(ROOT / "notebooks").with_suffix("").as_posix()
    notebook = json.loads(path.read_text(encoding="utf-8"))
    markdown = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
    pictures, images, text_only = 0, 0, []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            html = "".join(data.get("text/html", ""))
            if "lmcore-static" in html:
                pictures += 1
                images += html.count("<img")
            elif "application/vnd.jupyter.widget-view+json" in data:
                text_only.append("".join(data.get("text/plain", "")).strip())
    return Chapter(name, "$" in markdown, len(re.findall(r"<details\b", markdown)), pictures, images,
                   text_only)


_BUILT: list[Build] = []  # one build per test process, shared with test_site_accessibility.py


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Build:
    """The site, built once (per test process) into a temporary folder by the README's command."""
    optional_extras.require("jupyter-book")
    if not _BUILT:
        out = tmp_path_factory.mktemp("site")
        result = subprocess.run([sys.executable, str(BUILD_SCRIPT), "--out", str(out)], cwd=ROOT,
                                capture_output=True, text=True, timeout=BUILD_TIMEOUT_SECONDS)
        print(result.stdout + result.stderr)
        _BUILT.append(Build(out / "html", result.returncode, result.stdout + result.stderr))
    return _BUILT[0]


def test_site_builds_without_warnings(site):
    assert site.returncode == 0, site.output
    assert "WARNING" not in site.output and "ERROR" not in site.output, site.output
    pages = 1 + len(CHAPTERS) + 1 + len(ZH_CHAPTERS) + 1  # + the Chinese landing page and the glossary
    assert re.search(rf"built {pages} pages .* in [\d.]+ s: [\d.]+ MB", site.output), site.output
    assert (site.html / "index.html").is_file()
    assert [path.name for path in ZH_CHAPTERS] == [path.name for path in CHAPTERS]
    for chapter in CHAPTERS:
        assert (site.html / "notebooks" / f"{chapter.stem}.html").is_file()
        assert (site.html / "notebooks" / "zh" / f"{chapter.stem}.html").is_file()
    assert (site.html / "notebooks" / "zh" / "index.html").is_file()
    assert (site.html / "notebooks" / "zh" / f"{GLOSSARY}.html").is_file()
    # The Chinese web font: cut down to the characters the pages use, it stays small.
    font = re.search(r"the Chinese web font: (\d+) characters, (\d+) kB", site.output)
    assert font and int(font.group(1)) >= 500, site.output
    assert (site.html / "_static" / WEB_FONT_FILE).stat().st_size <= WEB_FONT_MAX_BYTES


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser went on to the next page before a download ended: not an error of the site
        super().handle_error(request, client_address)


@pytest.fixture
def server(site):
    """The built site on http://127.0.0.1:PORT (a free port), served by a thread."""
    assert site.returncode == 0, site.output
    handler = functools.partial(_QuietHandler, directory=str(site.html))
    httpd = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _fetch(url: str, cache: dict[str, tuple[int, str]]) -> tuple[int, str]:
    """HTTP status and (for a page) text of ``url``, each URL asked once."""
    if url not in cache:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                body = response.read().decode("utf-8", "replace") if url.endswith(".html") else ""
                cache[url] = response.status, body
        except urllib.error.HTTPError as error:
            cache[url] = error.code, ""
    return cache[url]


def _load(page, url: str) -> None:
    """Open ``url`` and wait until its maths is typeset."""
    page.goto(url)
    if page.locator(".math").count():
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("() => MathJax.startup.promise")


def _check_page(page, url: str, chapter: Chapter | None, fetched: dict) -> dict[str, int]:
    """Open ``url`` and check maths, images and internal links; return what was counted."""
    _load(page, url)
    where = urlparse(url).path

    # Maths: every maths node Sphinx wrote (span/div.math) holds MathJax's output.
    math_nodes = page.locator(".math").count()
    if math_nodes:
        unrendered = page.evaluate("() => Array.from(document.querySelectorAll('.math'))"
                                   ".filter(node => !node.querySelector('mjx-container'))"
                                   ".map(node => node.textContent)")
        assert not unrendered, f"{where}: maths not rendered: {unrendered[:3]}"
    rendered = page.locator("mjx-container").count()
    if chapter is not None and chapter.has_maths:
        assert rendered > 0, f"{where}: the chapter has maths, but none was rendered"
    prose = page.evaluate(PROSE_JS)
    for raw in ("$$", "\\(", "\\["):
        assert raw not in prose, f"{where}: raw {raw!r} left in the text"
    assert not RAW_INLINE_MATH.search(prose), f"{where}: raw maths left: {RAW_INLINE_MATH.search(prose).group()!r}"

    # Images: all local (or inline data), all loaded.
    page.evaluate("() => document.querySelectorAll('img[loading=lazy]').forEach(img => img.loading = 'eager')")
    page.wait_for_function("() => Array.from(document.images).every(img => img.complete)")
    images = page.evaluate(IMAGES_JS)
    for image in images:
        source = urlparse(image["src"])
        assert source.scheme == "data" or source.hostname == "127.0.0.1", f"{where}: image from {image['src']}"
    broken = [image["src"][:100] for image in images if image["width"] == 0]
    assert not broken, f"{where}: images that did not load: {broken}"

    # Internal links: the page answers 200 and the #anchor exists there.
    hrefs = page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
    host = urlparse(url).netloc
    links = 0
    for href in hrefs:
        if urlparse(href).netloc != host:
            continue
        target, anchor = urldefrag(href)
        status, html = _fetch(target, fetched)
        assert status == 200, f"{where}: link to {href} answers {status}"
        if anchor and target.endswith(".html"):
            assert re.search(rf'\bid="{re.escape(unquote(anchor))}"', html), f"{where}: no #{anchor} in {target}"
        links += 1
    return {"maths": rendered, "images": len(images), "links": links}


def _check_chapter(page, chapter: Chapter, repo: str) -> None:
    where = f"notebooks/{chapter.name}.html"
    binder = f"https://mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/notebooks/{chapter.name}.ipynb"
    other = chapter.name.removeprefix("zh/") if chapter.name.startswith("zh/") else f"zh/{chapter.name}"
    other_href = f"../{other.removeprefix('zh/')}.html" if chapter.name.startswith("zh/") else f"{other}.html"
    assert page.locator(f'article a[href="{other_href}"]').count() >= 1, f"{where}: no link to {other_href}"
    assert page.locator(f'.dropdown-launch-buttons a[href="{binder}"]').count() == 1, f"{where}: no Binder button"

    # Explorers: the static picture stands in for the widget (stored without state); no empty widget view.
    assert page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count() == 0
    assert page.locator(".lmcore-static").count() == chapter.static_pictures, where
    assert page.locator(".lmcore-static img").count() == chapter.static_images, where
    for text in chapter.widget_text_only:  # older outputs without a picture show their text
        assert page.get_by_text(text, exact=False).count() >= 1, f"{where}: {text!r} is not shown"

    # "Check yourself": the reference answers stay folded.
    details = page.locator("article details")
    assert details.count() == chapter.folded_answers, where
    assert page.locator("article details[open]").count() == 0, f"{where}: an answer is unfolded"
    for index in range(details.count()):
        answer = details.nth(index)
        assert answer.locator("summary").is_visible()
        assert not answer.locator("p").first.is_visible(), f"{where}: answer {index + 1} shows before a click"


# The layout of every page, both editions (tests/browser/test_site_accessibility.py checks it where its
# audit has loaded each page: a page is loaded once, for the suite's time budget): at a laptop's
# 1366 x 768 the explorer pictures, at a phone's 390 x 844 (the window narrowed) the maths, and the
# font the Chinese text is drawn in.
LAPTOP = {"width": 1366, "height": 768}
PHONE_MATHS_SCREENSHOT = Path("/tmp/lmcore-site-maths-390.png")  # chapter 4 at 390 px: a formula that scrolls

# Each explorer picture against the column: too wide (it or a box in it scrolls sideways, or it
# reaches past the article) or cut at its bottom (a box in it scrolls down).
PICTURES_JS = """() => {
    const column = document.querySelector('article').getBoundingClientRect();
    const name = element => (element.getAttribute('aria-label') || element.className || element.tagName).slice(0, 60);
    return Array.from(document.querySelectorAll('article .lmcore-static')).map(picture => {
        const boxes = [picture, ...picture.querySelectorAll('.lmcore-scroll')];
        const problems = [];
        for (const box of boxes) {
            if (box.scrollWidth > box.clientWidth + 1)
                problems.push(`${name(box)}: ${box.scrollWidth} px wide in ${box.clientWidth}`);
            if (box.scrollHeight > box.clientHeight + 1)
                problems.push(`${name(box)}: cut at its bottom, ${box.scrollHeight} px tall in ${box.clientHeight}`);
        }
        const right = picture.getBoundingClientRect().right;
        if (right > column.right + 1) problems.push(`reaches ${Math.round(right - column.right)} px past the column`);
        return {width: Math.round(picture.getBoundingClientRect().width), problems};
    });
}"""

# Each formula (MathJax's output of a .math node; a display formula's box is the theme's scrolling
# mjx-container) either fits its box, or scrolls sideways there (overflow-x auto or scroll) with a
# cue (course.js's data-course-more) and the keyboard's focus (MathJax's tabindex); never clipped
# by its own box or an ancestor's, never past its container's edge. Folded answers are opened first.
MATHS_JS = """() => {
    const scrolls = overflow => overflow === 'auto' || overflow === 'scroll';
    const blocks = 'p, li, td, th, dd, dt, div, summary, figcaption, blockquote, h1, h2, h3, h4, h5, h6';
    return Array.from(document.querySelectorAll('article .math')).map(math => {
        const display = math.tagName === 'DIV';
        const box = display ? (math.querySelector('mjx-container') || math) : math;
        const overflow = getComputedStyle(box).overflowX;
        const rect = box.getBoundingClientRect();
        const wider = box.scrollWidth > box.clientWidth + 1;
        const problems = [];
        if (display && math.scrollWidth > math.clientWidth + 1) problems.push('clipped by its outer box');
        if (wider && !scrolls(overflow)) problems.push(`clipped: ${box.scrollWidth} px in ${box.clientWidth}`);
        if (wider && scrolls(overflow) && !box.dataset.courseMore) problems.push('scrolls with no cue');
        if (wider && scrolls(overflow) && !(box.tabIndex >= 0 || box.querySelector('[tabindex="0"]')))
            problems.push('scrolls, but takes no keyboard focus');
        const container = (math.parentElement.closest(blocks) || document.body).getBoundingClientRect();
        if (rect.right > container.right + 1)
            problems.push(`${Math.round(rect.right - container.right)} px past its block`);
        for (let node = math.parentElement; node && node.tagName !== 'ARTICLE'; node = node.parentElement) {
            const style = getComputedStyle(node);
            if (style.overflowX === 'visible' || scrolls(style.overflowX)) continue;
            const clip = node.getBoundingClientRect();
            if (rect.right > clip.right + 1 || rect.left < clip.left - 1) problems.push(`clipped by ${node.tagName}`);
        }
        return {display, scrolls: wider && scrolls(overflow), text: math.textContent.trim().slice(0, 50), problems};
    });
}"""

# One element of each kind whose own text holds Chinese is marked; the browser then says which fonts
# drew its glyphs (CSS.getPlatformFontsForNode).
CJK_TEXT_JS = r"""(places) => {
    const cjk = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/g;
    const marked = {};
    for (const [place, selector] of Object.entries(places)) {
        const element = Array.from(document.querySelectorAll(selector)).find(e => e.getClientRects().length &&
            !e.hasAttribute('data-font-check') && Array.from(e.childNodes).some(n => n.nodeType === 3 &&
            n.textContent.match(cjk)));
        if (!element) continue;
        element.setAttribute('data-font-check', place);
        marked[place] = Array.from(element.childNodes).filter(n => n.nodeType === 3)
            .map(n => n.textContent).join('').match(cjk).length;
    }
    return marked;
}"""
CJK_PLACES = {"title": "article h1", "prose": "article p", "sidebar": "nav.bd-docs-nav a",
              "page contents": ".bd-toc-nav a", "explorer picture": ".lmcore-static td, .lmcore-static th",
              "code": "article pre span", "output": ".cell_output pre", "maths": "mjx-utext",
              "table": "article table td"}


def _system_chinese_fonts() -> list[str]:
    """The Chinese fonts fontconfig knows on this machine (what chromium would fall back to)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    listing = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True, timeout=20).stdout
    return sorted({line.split(",")[0].strip() for line in listing.splitlines() if line.strip()})


def _chinese_glyphs(page, cdp) -> tuple[int, dict[str, list[str]]]:
    """(kinds of element checked, {kind: what is wrong}), for each kind of element with Chinese text on
    the page: its Chinese characters must all be glyphs of the site's web font."""
    marked = page.evaluate(CJK_TEXT_JS, CJK_PLACES)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    wrong = {}
    for place, characters in marked.items():
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-font-check="{place}"]'})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        from_web_font = sum(font["glyphCount"] for font in fonts if font["isCustomFont"]
                            and font["familyName"].startswith("Noto Sans CJK"))
        if from_web_font < characters:
            wrong[place] = [f"{characters} Chinese characters, {from_web_font} drawn in the web font: {fonts}"]
    return len(marked), wrong


class _Layout:
    """What the layout checks found on the pages given to :meth:`check`."""

    def __init__(self, context, page):
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("DOM.enable")
        self.cdp.send("CSS.enable")
        self.pages: list[str] = []
        self.pictures = self.formulas = self.chinese_pages = 0
        self.scrolling: list[str] = []
        self.problems: list[str] = []

    def check(self, page, name: str, screenshot: Path | None = None) -> None:
        """Check the page ``page`` has loaded (maths typeset) at 1366 px, then at 390 px (``screenshot``
        taken there); leave it at the size it had.

        At 1366 px every explorer picture fits the column: nothing in it scrolls sideways or is cut at
        its bottom. Where the page has Chinese (every page has some, in its table of contents), each
        kind of Chinese text on it is drawn with the site's web font. At 390 px, with the folded answers
        opened, no formula is clipped: each fits or scrolls in its own box with a cue."""
        self.pages.append(name)
        size = page.viewport_size
        if size["width"] != LAPTOP["width"]:  # only the width matters here: no resize (and relayout) if it is right
            page.set_viewport_size(LAPTOP)
        page.evaluate("() => document.fonts.ready")
        for number, picture in enumerate(page.evaluate(PICTURES_JS), start=1):
            self.pictures += 1
            self.problems += [f"{name} at 1366 px, picture {number} ({picture['width']} px): {problem}"
                              for problem in picture["problems"]]
        loaded = page.evaluate("family => Array.from(document.fonts).some(font => font.status === 'loaded' "
                               "&& font.family.replace(/[\"']/g, '') === family)", WEB_FONT_FAMILY)
        places, wrong = _chinese_glyphs(page, self.cdp)
        if loaded and places:
            self.chinese_pages += 1
        for place, texts in wrong.items():
            self.problems += [f"{name}: Chinese in the {place}: {text}" for text in texts]

        page.set_viewport_size(PHONE)
        page.evaluate("() => document.querySelectorAll('article details').forEach(d => d.open = true)")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        for formula in page.evaluate(MATHS_JS):
            self.formulas += 1
            if formula["scrolls"]:
                self.scrolling.append(f"{name}: {formula['text']}")
            self.problems += [f"{name} at 390 px, {'display' if formula['display'] else 'inline'} formula "
                              f"{formula['text']!r}: {problem}" for problem in formula["problems"]]
        if screenshot is not None:
            page.evaluate("() => Array.from(document.querySelectorAll('article .math'))"
                          ".find(m => m.dataset.courseMore || m.querySelector('[data-course-more]'))"
                          "?.scrollIntoView({block: 'center', behavior: 'instant'})")
            page.screenshot(path=str(screenshot))
        page.set_viewport_size(size)

    def report(self) -> str:
        fonts = _system_chinese_fonts()
        return (f"{len(self.pages)} pages: {self.pictures} explorer pictures fit at 1366 px; {self.formulas} "
                f"formulas at 390 px, {len(self.scrolling)} of them scrolling in their box with a cue; Chinese "
                f"drawn in the web font on {self.chinese_pages} pages (this machine's own Chinese fonts: "
                f"{', '.join(fonts) or 'none'})")


def test_site_in_a_real_browser(server, tmp_path):
    require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)

    repo = (ROOT / "binder" / "repo.txt").read_text(encoding="utf-8").strip()
    chapters = [_chapter(path) for path in CHAPTERS]
    outside, failed = [], []
    screenshot = tmp_path / f"lmcore-site-{SCREENSHOT_CHAPTER}.png"
    totals = {"pages": 0, "maths": 0, "images": 0, "links": 0}
    fetched = {}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = local_only_context(browser, outside, viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
                    if response.status >= 400 else None)
            console_errors = _record_console_errors(page)

            # The landing page: the chapter map, and a table of contents that follows notebooks/.
            counts = _check_page(page, f"{server}/index.html", None, fetched)
            toc = page.locator("nav.bd-docs-nav a.reference.internal")
            assert [unquote(urlparse(href).path) for href in toc.evaluate_all("links => links.map(a => a.href)")] == [
                "/index.html", *(f"/notebooks/{chapter.name}.html" for chapter in chapters),
                "/notebooks/zh/index.html", *(f"/notebooks/zh/{path.stem}.html" for path in ZH_CHAPTERS),
                f"/notebooks/zh/{GLOSSARY}.html"]
            assert page.locator('article a[href="notebooks/zh/index.html"]').count() == 1  # 中文版
            for chapter in chapters:
                assert page.locator(f'article a[href="notebooks/{chapter.name}.html"]').count() >= 1, chapter.name
            for key in counts:
                totals[key] += counts[key]
            totals["pages"] += 1

            for chapter in chapters:
                url = f"{server}/notebooks/{chapter.name}.html"
                counts = _check_page(page, url, chapter, fetched)
                _check_chapter(page, chapter, repo)
                if chapter.name == SCREENSHOT_CHAPTER:
                    page.screenshot(path=str(screenshot))  # the top of the page: a full page takes seconds
                for key in counts:
                    totals[key] += counts[key]
                totals["pages"] += 1

            # The Chinese edition: its landing page, the glossary and one chapter, as fully; its
            # other chapters link back to the English ones (read over HTTP: no browser needed).
            counts = _check_page(page, f"{server}/notebooks/zh/index.html", None, fetched)
            for path in ZH_CHAPTERS:
                assert page.locator(f'article a[href="{path.stem}.html"]').count() >= 1, f"zh: no link to {path.stem}"
            assert page.locator('article a[href="../../index.html"]').count() == 1
            for key in counts:
                totals[key] += counts[key]
            counts = _check_page(page, f"{server}/notebooks/zh/{GLOSSARY}.html", None, fetched)
            assert page.locator("article table tr").count() >= 20, "the glossary has fewer than 20 terms"
            for key in counts:
                totals[key] += counts[key]
            zh_chapter = _chapter(ROOT / "notebooks" / "zh" / f"{SCREENSHOT_CHAPTER}.ipynb")
            counts = _check_page(page, f"{server}/notebooks/{zh_chapter.name}.html", zh_chapter, fetched)
            _check_chapter(page, zh_chapter, repo)
            for key in counts:
                totals[key] += counts[key]
            totals["pages"] += 3
            for path in ZH_CHAPTERS:
                status, html = _fetch(f"{server}/notebooks/zh/{path.stem}.html", fetched)
                assert status == 200 and f'href="../{path.stem}.html"' in html, f"zh/{path.stem}: no English link"

            # Search works offline, and its snippets quote maths as text, not as TeX ("\\(2^H\\)").
            page.goto(f"{server}/search.html?q=perplexity")
            results = page.locator("#search-results ul.search li")
            expect(results.first).to_be_visible()
            assert page.locator('#search-results a[href*="04_perplexity"]').count() >= 1
            page.wait_for_function("() => /Search finished/.test(document.body.textContent) && Array.from("
                                   "document.querySelectorAll('#search-results ul.search li'))"
                                   ".every(li => li.querySelector('p.context'))")
            snippets = page.locator("#search-results p.context").all_text_contents()
            raw = [text for text in snippets if re.search(r"\\[()\[\]]|\$\$", text)]
            assert snippets and not raw, f"search snippets with raw TeX: {raw[:2]}"
        finally:
            browser.close()

    assert not outside, f"the site asked for {len(outside)} resources outside 127.0.0.1: {outside[:5]}"
    assert not failed, f"failed requests: {failed[:5]}"
    assert not console_errors, f"the browser's console reported errors: {console_errors[:5]}"
    if screenshot.exists():
        shutil.copyfile(screenshot, SCREENSHOT_COPY)
        print(f"screenshot: {screenshot} (copied to {SCREENSHOT_COPY})")
    print("checked in the browser: " + ", ".join(f"{value} {key}" for key, value in totals.items()))


# Navigation at every width. sphinx-book-theme 1.3.0 with pydata-sphinx-theme 0.17.1 left the
# phone menu dead (pydata/pydata-sphinx-theme#2451) and showed a second, empty search bar on a
# desktop; requirements-extra.txt pins the pair that works.
PHONE, TABLET, DESKTOP = {"width": 390, "height": 844}, {"width": 768, "height": 1024}, {"width": 1366, "height": 900}
MENU_BUTTON = "button.primary-toggle:visible"  # the theme's "Toggle primary sidebar"
NAV = "nav.bd-docs-nav"
# Every control that opens the search, in the sidebar, the header or the article's top bar.
SEARCH_CONTROLS = "input[type=search]:visible, .search-button-field:visible, button.search-button:visible"
PHONE_SCREENSHOT_COPY = Path("/tmp/lmcore-site-phone-390.png")  # docs/images/site-phone-390.png is taken from it
TOOLTIP_DELAY_MS = 500  # pydata-sphinx-theme's Bootstrap tooltips: {delay: {show: 500, hide: 100}}


def _record_console_errors(page, errors: list[str] | None = None) -> list[str]:
    """The console's errors and the page's uncaught exceptions, appended to ``errors`` (a new list
    by default) as they come; that list is returned."""
    errors = [] if errors is None else errors
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: uncaught {error}"))
    return errors


def _open_page(browser, outside: list[str], errors: list[str], url: str, **context_options):
    """(context, page): a fresh local-only context with ``context_options``, its page at ``url``,
    whose console errors go into ``errors`` as they come."""
    context = local_only_context(browser, outside, **context_options)
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    _record_console_errors(page, errors)
    page.goto(url)
    return context, page


def _open_menu(page, expect) -> None:
    """Press the one visible menu button and wait for the chapter list to show."""
    button = page.locator(MENU_BUTTON)
    expect(button).to_have_count(1)
    button.click()
    expect(page.locator(f"{NAV}:visible a.reference.internal").first).to_be_visible()


def _follow_menu_link(page, expect, href: str, lands_on: str, title: str) -> None:
    """Open the menu, click the chapter list's link to ``href``, land on the page ``lands_on``."""
    _open_menu(page, expect)
    link = page.locator(f'{NAV}:visible a.reference.internal[href="{href}"]')
    expect(link).to_have_count(1)
    link.scroll_into_view_if_needed()  # the drawer scrolls: the glossary is at the foot of a long list
    expect(link).to_be_in_viewport()
    link.click()
    page.wait_for_url(re.compile(re.escape(lands_on) + "$"))
    expect(page.locator("article h1").first).to_contain_text(title)


def test_site_navigates_at_every_width(server, tmp_path):
    """Phone (390 px), tablet (768 px) and desktop (1366 px): the chapter list can be reached, one search.

    At 390 px the chapter list is hidden until the menu button opens it; from there a chapter,
    the Chinese edition and the glossary are reached by clicks, and once Esc has closed the menu no
    tooltip covers the header's icons. At every width exactly one search control shows, and at 1366 px
    it searches. No page logs an error; each names its icon. The browser has only the machine's fonts
    and the site's: the phone screenshot shows the Chinese in the site's own font.
    """
    require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)
    outside, errors = [], []
    screenshot = tmp_path / "site-phone-390.png"
    glossary_href = "".join(f"%{byte:02X}" for byte in GLOSSARY.encode()) + ".html"  # from zh/index.html
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            # A phone: the list is off screen until the menu opens.
            context, page = _open_page(browser, outside, errors, f"{server}/notebooks/02_entropy.html",
                                       viewport=PHONE, is_mobile=True, has_touch=True)
            assert not page.locator(f'{NAV} a[href="04_perplexity.html"]').is_visible(), "the list shows unasked"
            expect(page.locator(SEARCH_CONTROLS)).to_have_count(1)
            _follow_menu_link(page, expect, "04_perplexity.html", "/notebooks/04_perplexity.html", "Perplexity")
            _follow_menu_link(page, expect, "zh/index.html", "/notebooks/zh/index.html", "")  # the Chinese edition
            _open_menu(page, expect)
            page.locator(f'{NAV}:visible a[href="{glossary_href}"]').scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot))  # the menu open on the Chinese edition's part
            page.keyboard.press("Escape")
            # The menu button has the focus back, and Bootstrap would show its tooltip ("Toggle primary
            # sidebar") over the header's icons after its 500 ms delay: a phone shows none.
            expect(page.locator(f"{NAV}:visible a.reference.internal")).to_have_count(0)
            page.wait_for_timeout(TOOLTIP_DELAY_MS + 300)  # what is checked is that nothing comes
            expect(page.locator(".tooltip:visible")).to_have_count(0)
            _follow_menu_link(page, expect, glossary_href, f"/notebooks/zh/{glossary_href}", GLOSSARY)
            icon = page.locator('link[rel="icon"]')
            expect(icon).to_have_count(1)
            assert _fetch(icon.evaluate("link => link.href"), {})[0] == 200, "the favicon does not answer"
            context.close()

            # A tablet: the same menu.
            context, page = _open_page(browser, outside, errors, f"{server}/index.html", viewport=TABLET)
            expect(page.locator(SEARCH_CONTROLS)).to_have_count(1)
            _follow_menu_link(page, expect, "notebooks/06_bleu.html", "/notebooks/06_bleu.html", "BLEU")
            context.close()

            # A desktop: the list shows beside the chapter, with one search box that finds a chapter.
            context, page = _open_page(browser, outside, errors, f"{server}/notebooks/02_entropy.html",
                                       viewport=DESKTOP)
            expect(page.locator(f'{NAV} a[href="05_smoothing_interpolation.html"]')).to_be_visible()
            search = page.locator(SEARCH_CONTROLS)
            expect(search).to_have_count(1)
            search.click()
            query = page.locator("#pst-search-dialog input[type=search]")
            expect(query).to_be_focused()
            query.fill("perplexity")
            query.press("Enter")
            page.wait_for_url(re.compile(r"/search\.html\?q=perplexity"))
            expect(page.locator('#search-results a[href*="04_perplexity"]').first).to_be_visible()
            context.close()
        finally:
            browser.close()

    assert not outside, f"the site asked for {len(outside)} resources outside 127.0.0.1: {outside[:5]}"
    assert not errors, f"the browser's console reported errors: {errors[:5]}"
    shutil.copyfile(screenshot, PHONE_SCREENSHOT_COPY)
    print(f"phone screenshot with the menu open: {screenshot} (copied to {PHONE_SCREENSHOT_COPY})")

