"""Every explorer's static picture fits the column it is shown in: the website's at 1366 px and a phone's.

The picture is what the website (and any viewer without live widgets) shows in place of an
explorer: the ``text/html`` of its display data (``lmcore.widgets.base.static_html``). The test
builds each explorer from the code, as the chapters build them (with small data where a chapter
trains models), puts the pictures on one page in a column as wide as the website's content column
at 1366 px (757 px, measured on the built site) and then as wide as a phone's (358 px), and
measures in Debian's chromium: no part of a picture reaches past its right edge, except inside a
box that scrolls sideways (a wide table, on a phone only: at the website's column every table fits),
which then shows a shadow as the cue and takes the keyboard's focus; figures scale; every figure has
alt text that says what it shows; the note above says to run this cell. One page, no server: about
10 s, most of it building the explorers. (tests/browser/test_site_accessibility.py measures the
pictures the chapters store, on every page of the built website.)
"""

from __future__ import annotations

import http.server
import threading

import numpy as np
import pytest
from browser_support import launch_chromium, local_only_context, require_browser

pytestmark = pytest.mark.browser

SITE_COLUMN_PX = 757  # the content column of the course's website at a 1366 px wide window
PHONE_COLUMN_PX = 358  # a 390 px phone, less the page's margins
PAGE_STYLE = ("body { font-family: sans-serif; font-size: 16px; line-height: 1.5; margin: 16px } "
              ".column { box-sizing: border-box } .cell_output { margin: 0 0 24px; overflow: hidden }")

# For each picture: its width and the container's, and what reaches past it outside a scrolling box.
MEASURE = """() => [...document.querySelectorAll('.lmcore-static')].map(picture => {
    const edge = picture.getBoundingClientRect().right;
    const poking = [...picture.querySelectorAll('*')]
        .filter(e => !e.closest('.lmcore-scroll') || e.classList.contains('lmcore-scroll'))
        .filter(e => e.getBoundingClientRect().right > edge + 0.5)
        .map(e => e.tagName + ': ' + (e.textContent || '').trim().slice(0, 40));
    const scrollers = [...picture.querySelectorAll('.lmcore-scroll')].map(box => ({
        scrolls: box.scrollWidth > box.clientWidth + 1, overflow: getComputedStyle(box).overflowX,
        focusable: box.tabIndex === 0, named: !!box.getAttribute('aria-label'),
        shadow: getComputedStyle(box).backgroundAttachment}));
    return {name: picture.parentElement.dataset.explorer, width: picture.getBoundingClientRect().width,
            column: picture.parentElement.getBoundingClientRect().width, scrollWidth: picture.scrollWidth,
            clientWidth: picture.clientWidth, poking, scrollers,
            images: [...picture.querySelectorAll('img')].map(img => ({alt: img.alt,
                width: img.getBoundingClientRect().width}))};
})"""


def explorers() -> dict:
    """Every explorer of the chapters, built as the chapters build them (small data where they train models)."""
    from lmcore import text
    from lmcore.i18n import translatable
    from lmcore.ngram import KneserNey
    from lmcore.widgets import (
        BleuExplorer,
        BleuPreset,
        BranchingExplorer,
        CompressionExplorer,
        ContextWindowExplorer,
        CrossEntropyExplorer,
        EntropyRateExplorer,
        FairnessExplorer,
        FairnessRow,
        GameSetup,
        LambdaExplorer,
        LetterGameExplorer,
        ProbabilityExplorer,
        ShannonGameExplorer,
        synthetic_order_probs,
    )

    english = text.split_sentences(text.load_corpus("english_letters"), seed=0)
    models = {name: KneserNey(n).fit(english.train) for name, n in (("unigram", 1), ("bigram", 2), ("trigram", 3))}
    heldout, test = synthetic_order_probs(n_tokens=5000, seed=0)
    john = {code: text.verse_text(code, 43003016) for code in ("web", "kjv", "dar", "ylt")}  # chapter 6's preset
    bible = BleuPreset(john["web"], (john["kjv"], john["dar"], john["ylt"]), "13a", 4)
    n = 3000  # chapter 7's kind of table: log-probabilities with 0 to 10 tokens of context
    table = np.log(0.05 + 0.06 * np.arange(11))[:, None] + np.log(np.linspace(0.9, 1.0, n))[None, :]

    def row(unit, min_count, perplexity):  # chapter 4's table: the unit and vocabulary cut-off, eight numbers
        return FairnessRow(unit=unit, min_count=min_count, vocabulary=12_345, oov_rate=0.0123, n_tokens=45_678,
                           perplexity=perplexity, bits_per_token=9.8765, total_bits=451_234.5, n_characters=98_765,
                           bits_per_character=4.5678)

    grid = {(unit, m): row(unit, m, p * m) for unit, p in (("word", 812.4), ("char", 96.1)) for m in (1, 2, 5)}
    return {
        "probability": ProbabilityExplorer(preset="horse race", show_code=True),
        "shannon-game": ShannonGameExplorer({"English (words)": GameSetup(models, english.test, "word")}),
        "letter-game": LetterGameExplorer(["there is no one who does good"]),
        "entropy-rate": EntropyRateExplorer(),
        "cross-entropy": CrossEntropyExplorer("toy corpus, add-one unigram"),
        "compression": CompressionExplorer("ABAAB", p_a=0.8),
        "branching": BranchingExplorer(k=10),
        "fairness": FairnessExplorer(grid),
        "lambdas": LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3)),
        "bleu": BleuExplorer(presets={translatable("John 3:16: WEB against KJV, Darby, YLT"): bible}),
        "context-window": ContextWindowExplorer(table, np.arange(n) % 120, n_characters=n, window=16, stride=16,
                                                max_window=40),
    }


@pytest.fixture(scope="module")
def pictures_page(tmp_path_factory):
    """A page of every explorer's static picture, each in a column, served from 127.0.0.1."""
    require_browser()
    from lmcore.widgets.base import FIGURE_ALT

    built = explorers()
    figures_without_alt = [name for name, explorer in built.items() if str(FIGURE_ALT) in
                           explorer._repr_mimebundle_()["text/html"]]
    body = "".join(f'<div class="column cell_output" data-explorer="{name}">{explorer._repr_mimebundle_()["text/html"]}'
                   f"</div>" for name, explorer in built.items())
    folder = tmp_path_factory.mktemp("pictures")
    (folder / "index.html").write_text(f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                                       f"<title>explorer pictures</title><style>{PAGE_STYLE}</style></head>"
                                       f"<body><main>{body}</main></body></html>", encoding="utf-8")
    handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=str(folder))  # noqa: E731
    http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html", len(built), figures_without_alt
    finally:
        server.shutdown()


@pytest.mark.parametrize("column_px", [SITE_COLUMN_PX, PHONE_COLUMN_PX])
def test_every_explorer_picture_fits_its_column(pictures_page, column_px):
    """Each picture is as wide as its column or narrower; what is wider (a table, on a phone) scrolls in
    its own box with a shadow for a cue; figures scale down; alt texts say what the figures show."""
    from playwright.sync_api import sync_playwright

    url, n_explorers, figures_without_alt = pictures_page
    assert figures_without_alt == [], "every explorer's figure says what it shows (its Image's tooltip)"
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = local_only_context(browser, viewport={"width": column_px + 32, "height": 900}).new_page()
            page.goto(url)
            page.add_style_tag(content=f".column {{ width: {column_px}px }}")
            measured = page.evaluate(MEASURE)
        finally:
            browser.close()
    assert len(measured) == n_explorers
    scrolling = []
    for picture in measured:
        name = picture["name"]
        assert picture["column"] == column_px, name
        assert picture["width"] <= column_px + 0.5, f"{name}: {picture['width']:.0f} px in a {column_px} px column"
        assert picture["scrollWidth"] <= picture["clientWidth"], f"{name}: {picture['scrollWidth']} px of content"
        assert picture["poking"] == [], f"{name}: reaches past the column: {picture['poking'][:3]}"
        for box in picture["scrollers"]:
            assert box["overflow"] == "auto" and box["focusable"] and box["named"], f"{name}: {box}"
            assert "local" in box["shadow"] and "scroll" in box["shadow"], f"{name}: no shadow cue: {box}"
            if box["scrolls"]:
                scrolling.append(name)
        for image in picture["images"]:
            assert len(image["alt"]) > 40, f"{name}: alt text {image['alt']!r}"
            assert image["width"] <= column_px, f"{name}: a figure {image['width']:.0f} px wide"
    print(f"{column_px} px column: {len(measured)} pictures fit; tables scrolling in their box: {scrolling or 'none'}")
    if column_px == SITE_COLUMN_PX:  # a laptop: every table fits (chapter 4's fair comparison was 962 px wide)
        assert scrolling == [], f"tables wider than a {column_px} px column: {scrolling}"
