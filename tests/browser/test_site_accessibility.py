"""The course website's accessibility, audited rather than assumed.

axe-core (the script bundled in the ``axe-playwright-python`` wheel: nothing is fetched) runs in
Debian's chromium on every page of the built site, both editions, at 1366 px, and on the landing
page at phone width with the menu open. No violation of impact "serious" or "critical" may be
left, except the few listed in ``UPSTREAM`` that come from Jupyter Book's theme itself (each with
its upstream issue; none is listed today). The code cells' syntax colours are one stylesheet, the
same on every chapter: they are audited on one chapter (``FULL_AUDIT_PAGE``) and left out of the
others, which keeps the audit within the suite's time budget (colour contrast on thousands of
highlighted tokens is most of axe's time).

The figures are checked from the built pages: every image in a chapter has alt text that says
what it shows (not empty, not a file name, more than a word or two), and two different pictures
on one page never share their alt text (a generic "the explorer's figure" says nothing).

Where the audit has a page loaded, its layout is measured too (test_site.py's ``_Layout``; each
page is loaded once): at 1366 px every explorer picture fits the column (0 wider, 0 cut at its
bottom); at 390 px (WCAG's reflow width is 320 CSS px, a phone's is 390) every formula fits or
scrolls in its own box with a cue, none clipped; Chinese text is drawn in the site's web font. The
moderate and minor findings this course once had are checked gone: ``region`` (the sidebar's title
outside a landmark; course.js names its box) everywhere, ``empty-table-header`` everywhere but on a
chapter whose stored explorer picture still has an unnamed column (the fair-comparison explorer names
all its columns now, so chapter 4's goes once it is executed again; chapter 7's context-window table
still has an unnamed first column in lmcore/widgets/context_window.py).

The site is the one tests/browser/test_site.py builds (its ``site`` and ``server`` fixtures);
that file checks the browser's console on every page. This one does not: axe-core 4.12.1 itself
asks for ``/basic.css`` (it resolves the theme's ``@import "../basic.css"`` against the page, not
the stylesheet: dequelabs/axe-core#5268) and the server's 404 shows there.
"""

from __future__ import annotations

import collections
import html.parser
import json
import re

import optional_extras
import pytest
import test_site
from browser_support import ROOT, UI_TIMEOUT_MS, launch_chromium, local_only_context, require_browser
from test_site import CHAPTERS, DESKTOP, GLOSSARY, PHONE, PHONE_MATHS_SCREENSHOT, ZH_CHAPTERS, _Layout, _open_menu

pytestmark = pytest.mark.browser

site, server = test_site.site, test_site.server  # the fixtures: one build, served from 127.0.0.1

FAILING_IMPACTS = ("critical", "serious")
FULL_AUDIT_PAGE = "notebooks/04_perplexity.html"  # code cells included here, left out elsewhere
CODE_CELL_INPUT = "div.cell_input"

# Serious or critical violations that come from Jupyter Book's theme, not from the course, each
# excluded narrowly by rule and element, with the upstream issue: (rule id, CSS selector axe
# reports, upstream issue). Empty: with sphinx-book-theme 1.2.0 / pydata-sphinx-theme 0.16.1 and
# site/_static/course.css none is left. (The theme's own "region" finding, moderate: the book's
# title at the top of the sidebar sat outside a landmark; course.js makes its box one, GONE_RULES.)
UPSTREAM: list[tuple[str, str, str]] = []

# Findings below "serious" that were fixed once and must stay away (rule ids).
GONE_RULES = ("region", "empty-table-header")
# A stored explorer picture with an unnamed column (<th ...></th>), from before lmcore named every column.
UNNAMED_COLUMN = re.compile(r"<th\b[^>]*>\s*</th>")

# A picture's alt text that names nothing: empty, a file name, a generic word.
UNINFORMATIVE_ALT = re.compile(
    r"^\s*$|^[\w.\-]+\.(png|jpe?g|gif|svg|webp)$|^(image|figure|picture|plot|output|图|图片)$", re.IGNORECASE)
CJK = re.compile(r"[\u4e00-\u9fff]")


def _site_pages() -> list[str]:
    """Every page of the site, both editions: what build.py puts in the table of contents."""
    return ["index.html", *(f"notebooks/{path.stem}.html" for path in CHAPTERS), "notebooks/zh/index.html",
            *(f"notebooks/zh/{path.stem}.html" for path in ZH_CHAPTERS), f"notebooks/zh/{GLOSSARY}.html"]


def _axe_script() -> str:
    try:
        from axe_playwright_python.base import AXE_SCRIPT
    except ImportError:
        optional_extras.unavailable("axe-playwright-python is missing (pip install -r requirements-extra.txt)")
    return AXE_SCRIPT


def _audit(page, axe_script: str, context: dict | None) -> list[dict]:
    """axe-core's violations on the page as it is now."""
    page.evaluate(axe_script)
    return page.evaluate("([context, options]) => axe.run(context || document, options).then(r => r.violations)",
                         [context, {"resultTypes": ["violations"]}])


def _upstream(rule: str, target: str) -> str | None:
    for known_rule, selector, issue in UPSTREAM:
        if rule == known_rule and selector in target:
            return issue
    return None


def _failures(where: str, violations: list[dict]) -> list[str]:
    failures = []
    for violation in violations:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            if _upstream(violation["id"], target) is None:
                failures.append(f"{where}: {violation['id']} ({violation['impact']}: {violation['help']}) at "
                                f"{target}: {node['html'][:160]}")
    return failures


def _counts(violations: list[dict]) -> dict[str, int]:
    counts = collections.Counter()
    for violation in violations:
        counts[violation["impact"]] += len(violation["nodes"])
    return dict(counts)


def _wait_until_ready(page) -> None:
    """Loaded (course.js has marked the boxes that scroll) and the maths typeset."""
    page.wait_for_load_state("load")
    if page.locator(".math").count():
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("() => MathJax.startup.promise")


def _stored_unnamed_columns() -> set[str]:
    """The site's chapter pages whose stored outputs hold a table heading with no name."""
    pages = set()
    for path in [*CHAPTERS, *ZH_CHAPTERS]:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        outputs = ("".join(output.get("data", {}).get("text/html", "")) for cell in notebook["cells"]
                   for output in cell.get("outputs", []))
        if any(UNNAMED_COLUMN.search(html) for html in outputs):
            pages.add(path.relative_to(ROOT).with_suffix(".html").as_posix())
    return pages


def _gone(where: str, violations: list[dict], allowed: set[str]) -> list[str]:
    """The findings of GONE_RULES on the page ``where``, but for an unnamed column a stored picture still has."""
    back = []
    for violation in violations:
        if violation["id"] not in GONE_RULES:
            continue
        if violation["id"] == "empty-table-header" and where in allowed:
            continue
        back += [f"{where}: {violation['id']} ({violation['impact']}) at {' '.join(map(str, node['target']))}"
                 for node in violation["nodes"]]
    return back


def test_every_site_page_passes_the_accessibility_audit(server):
    require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)
    axe_script = _axe_script()
    outside, failures, report, back = [], [], {}, []
    stale = _stored_unnamed_columns()  # until those chapters are executed again
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = local_only_context(browser, outside, viewport=DESKTOP)
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            layout = _Layout(context, page)
            for name in _site_pages():
                page.goto(f"{server}/{name}")
                _wait_until_ready(page)
                violations = _audit(page, axe_script, None if name == FULL_AUDIT_PAGE
                                    else {"exclude": [[CODE_CELL_INPUT]]})
                failures += _failures(name, violations)
                back += _gone(name, violations, stale)
                report[name] = _counts(violations)
                layout.check(page, name, PHONE_MATHS_SCREENSHOT if name == FULL_AUDIT_PAGE else None)
            context.close()

            # A phone, with the menu open: the drawer is a page of its own for the reader.
            context = local_only_context(browser, outside, viewport=PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(f"{server}/index.html")
            _wait_until_ready(page)
            _open_menu(page, expect)
            violations = _audit(page, axe_script, None)
            failures += _failures("index.html at 390 px, menu open", violations)
            back += _gone("index.html at 390 px, menu open", violations, stale)
            report["index.html at 390 px, menu open"] = _counts(violations)
        finally:
            browser.close()

    for name, counts in report.items():
        print(f"axe: {name}: {counts or 'no violation'}")
    print(layout.report() + f"; a formula that scrolls, at 390 px: {PHONE_MATHS_SCREENSHOT}")
    if stale:
        print(f"empty-table-header left to stored outputs with an unnamed column: {sorted(stale)}")
    assert len(report) == len(_site_pages()) + 1
    assert not failures, (f"{len(failures)} serious or critical accessibility violations:\n" + "\n".join(failures))
    assert not back, f"{len(back)} findings that were fixed are back:\n" + "\n".join(back)
    assert layout.pages == _site_pages(), layout.pages  # every page of both editions
    assert layout.pictures >= len(CHAPTERS) and layout.formulas > 100
    assert layout.chinese_pages == len(layout.pages)  # each page has Chinese: the table of contents
    assert not layout.problems, f"{len(layout.problems)} layout problems:\n" + "\n".join(layout.problems[:40])
    assert not outside, f"the audit asked for resources outside 127.0.0.1: {outside[:5]}"


class _ArticleImages(html.parser.HTMLParser):
    """The ``<img>`` tags inside a page's ``<article>``: (src, alt or None, inside a link)."""

    def __init__(self):
        super().__init__()
        self.depth = {"article": 0, "a": 0}
        self.images: list[tuple[str, str | None, bool]] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1
        elif tag == "img" and self.depth["article"]:
            values = dict(attrs)
            self.images.append((values.get("src") or "", values.get("alt"), self.depth["a"] > 0))

    def handle_endtag(self, tag):
        if self.depth.get(tag):
            self.depth[tag] -= 1


def _says_what_it_shows(alt: str) -> bool:
    if UNINFORMATIVE_ALT.match(alt):
        return False
    return len(CJK.findall(alt)) >= 8 if CJK.search(alt) else len(alt.split()) >= 4


def test_every_chapter_figure_has_alt_text_that_says_what_it_shows(site):
    assert site.returncode == 0, site.output
    problems, figures = [], 0
    for name in _site_pages():
        if not name.startswith("notebooks/") or name.endswith(("index.html", f"{GLOSSARY}.html")):
            continue
        parser = _ArticleImages()
        parser.feed((site.html / name).read_text(encoding="utf-8"))
        by_alt: dict[str, set[str]] = collections.defaultdict(set)
        for src, alt, in_link in parser.images:
            shown = src if not src.startswith("data:") else f"{src[:30]}... (an explorer's picture)"
            if alt is None or not alt.strip():
                problems.append(f"{name}: {shown} has no alt text")
                continue
            if in_link:  # a badge or icon inside a link: its alt text is the link's name; axe checks it
                continue
            figures += 1
            if not _says_what_it_shows(alt):
                problems.append(f"{name}: {shown} has alt text that does not say what it shows: {alt!r}")
            by_alt[alt].add(src)
        for alt, sources in by_alt.items():
            if len(sources) > 1:
                problems.append(f"{name}: {len(sources)} different pictures share one alt text: {alt!r}")
    assert figures >= 2 * len(CHAPTERS), f"only {figures} figures found in the chapters: is the parser right?"
    assert not problems, f"{len(problems)} figures without a useful alt text:\n" + "\n".join(problems)
