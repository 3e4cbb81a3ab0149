"""Build the course website from the stored, executed notebooks (never re-executed).

    python site/build.py                # into site/_build/html (ignored by git)
    python site/build.py --out DIR      # into DIR/html

Jupyter Book 1 (Sphinx + MyST-NB + sphinx-book-theme), offline: maths through a MathJax 3
copy from PyPI (sphinx-mathjax-offline), no CDN. What this script does before Sphinx runs:

- the table of contents is every ``notebooks/NN_*.ipynb``, sorted by name (a new chapter
  appears without editing anything), then the Chinese edition, a second part: its landing
  page (``site/index.zh.md``, with a chapter table built from the Chinese chapters' titles),
  every ``notebooks/zh/NN_*.ipynb`` and the glossary ``notebooks/zh/术语表.md``;
- every English chapter page links to its Chinese copy (the Chinese chapters link back
  themselves, in their first cell), and each landing page to the other;
- a chapter's title in the table of contents and the landing page's chapter map come from
  the chapter table of README.md (a notebook not yet in that table keeps its own heading);
- the Binder launch links point at the repository named in ``binder/repo.txt``;
- images next to the chapters (``notebooks/**/*.png`` and the like, the Binder badge
  ``notebooks/images/binder-badge.svg`` among them) are copied along, so that a chapter's
  relative image links work and the site loads nothing from the internet;
- the landing pages' chapter tables get a header over their number column (axe's
  "empty-table-header").

And after it: the site's own Chinese web font (:func:`write_chinese_font`), Noto Sans CJK SC from
the font package requirements.txt brings for matplotlib, cut down to the Chinese characters the
built pages use, so that a reader without a system Chinese font sees Chinese, not boxes.

The sources are staged in DIR/source, the site is DIR/html. Any Sphinx warning makes the
build fail (exit status 1) after it has listed them all. Needs ``pip install -r
requirements-extra.txt``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = SITE / "_build"
CHAPTER_GLOB = "[0-9][0-9]_*.ipynb"
CHINESE = NOTEBOOKS / "zh"
GLOSSARY = CHINESE / "术语表.md"
LANGUAGE_LINK = "[中文版](zh/{name})"  # under an English chapter's title
TABLE_MARKER = re.compile(r"^<!-- chapter-table\b.*-->$", re.MULTILINE)
README_LINK = re.compile(r"\[([^\]]+)\]\(notebooks/([^)/]+\.ipynb)\)")
NOTEBOOK_LINK = re.compile(r"\]\(notebooks/([^)#]+\.ipynb)(#[^)]*)?\)")
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
# The number column of a chapter table ("| | Chapter |" in README.md) gets a name.
EMPTY_NUMBER_HEADER = re.compile(r"^\|\s*\|")
NUMBER_HEADER = {"en": "No.", "zh": "序号"}
# The site's Chinese web font: its @font-face in course.css (family, file, unicode-range) is the one
# place that says which characters it serves; write_chinese_font() reads it from there.
COURSE_CSS = SITE / "_static" / "course.css"
WEB_FONT_FAMILY = "Course Noto Sans SC"
WEB_FONT_FACE = "Noto Sans CJK SC"  # the face taken from the collection noto-cjk-sans-otc brings


def chapter_notebooks() -> list[Path]:
    """The chapters, in the order of their names: ``notebooks/NN_*.ipynb``."""
    return sorted(NOTEBOOKS.glob(CHAPTER_GLOB))


def chinese_notebooks() -> list[Path]:
    """The Chinese edition's chapters: ``notebooks/zh/NN_*.ipynb``."""
    return sorted(CHINESE.glob(CHAPTER_GLOB))


def readme_chapter_table(readme: str) -> str:
    """The table under README.md's ``## Chapters`` heading, as it is written there."""
    section = re.search(r"^## Chapters\s*$(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    if section is None:
        raise SystemExit("README.md has no '## Chapters' section: the landing page takes its chapter map from it")
    lines = section.group(1).strip().splitlines()
    table = []
    for line in lines:
        if not line.startswith("|"):
            if table:
                break
            continue
        table.append(line)
    if not table:
        raise SystemExit("README.md's '## Chapters' section has no table")
    return "\n".join(table)


def readme_titles(table: str) -> dict[str, str]:
    """Notebook file name -> its title in the table of contents, from the README's chapter table."""
    titles = {}
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        link = README_LINK.search(row)
        if link is None:
            continue
        number, title, name = cells[0], link.group(1), link.group(2)
        titles[name] = title if number in ("", "0") else f"{number}. {title}"
    return titles


def first_heading(notebook: dict, fallback: str) -> str:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^#\s+(.+)$", "".join(cell["source"]), re.MULTILINE)
            if match:
                return match.group(1).strip()
    return fallback


def stage(source: Path) -> list[tuple[str, str]]:
    """Write the book's sources into ``source``; return (docname, title) of each page but the landing page."""
    import yaml

    (source / "notebooks").mkdir(parents=True)
    for image in NOTEBOOKS.rglob("*"):
        relative = image.relative_to(NOTEBOOKS)
        if image.suffix.lower() in IMAGE_SUFFIXES and not any(part.startswith(".") for part in relative.parts):
            (source / "notebooks" / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(image, source / "notebooks" / relative)
    shutil.copytree(SITE / "_static", source / "_static")  # Jupyter Book adds a _static folder by itself

    readme_table = readme_chapter_table((ROOT / "README.md").read_text(encoding="utf-8"))
    titles = readme_titles(readme_table)

    landing = (SITE / "index.md").read_text(encoding="utf-8")
    if not TABLE_MARKER.search(landing):
        raise SystemExit("site/index.md has lost its '<!-- chapter-table ... -->' line")
    staged = {path.name for path in chapter_notebooks()} | {f"zh/{path.name}" for path in chinese_notebooks()}
    repo = (ROOT / "binder" / "repo.txt").read_text(encoding="utf-8").strip()

    def outside_site(link: re.Match) -> str:  # e.g. notebooks/zh/...: not on this site, shown on GitHub
        if link.group(1) in staged:
            return link.group(0)
        return f"](https://github.com/{repo}/blob/HEAD/notebooks/{link.group(1)}{link.group(2) or ''})"

    readme_table = EMPTY_NUMBER_HEADER.sub(f"| {NUMBER_HEADER['en']} |", readme_table, count=1)
    landing = TABLE_MARKER.sub(lambda _: NOTEBOOK_LINK.sub(outside_site, readme_table), landing)
    (source / "index.md").write_text(landing, encoding="utf-8")

    chinese = {path.name for path in chinese_notebooks()}
    chapters = []
    for path in chapter_notebooks():
        notebook = stage_notebook(path, source / "notebooks" / path.name,
                                  LANGUAGE_LINK.format(name=path.name) if path.name in chinese else None)
        chapters.append((f"notebooks/{path.stem}", titles.get(path.name) or first_heading(notebook, path.stem)))
    parts = [{"caption": "Course", "chapters": [{"file": docname, "title": title} for docname, title in chapters]}]

    if chinese:
        (source / "notebooks" / "zh").mkdir(exist_ok=True)
        zh_chapters = []
        for path in chinese_notebooks():
            notebook = stage_notebook(path, source / "notebooks" / "zh" / path.name)
            zh_chapters.append((f"notebooks/zh/{path.stem}", first_heading(notebook, path.stem)))
        zh_landing = (SITE / "index.zh.md").read_text(encoding="utf-8")
        zh_table = [f"| {NUMBER_HEADER['zh']} | 章 |", "|---|---|"] + [
            f"| {name.rpartition('/')[2][:2].lstrip('0') or '0'} | [{title}]({name.rpartition('/')[2]}.ipynb) |"
            for name, title in zh_chapters]
        zh_landing = TABLE_MARKER.sub(lambda _: "\n".join(zh_table), zh_landing)
        (source / "notebooks" / "zh" / "index.md").write_text(zh_landing, encoding="utf-8")
        entries = [{"file": "notebooks/zh/index", "title": "课程首页"},
                   *({"file": docname, "title": title} for docname, title in zh_chapters)]
        if GLOSSARY.exists():
            shutil.copyfile(GLOSSARY, source / "notebooks" / "zh" / GLOSSARY.name)
            entries.append({"file": f"notebooks/zh/{GLOSSARY.stem}", "title": "术语表"})
        parts.append({"caption": "中文版", "chapters": entries})
        chapters += [(entry["file"], entry["title"]) for entry in entries]

    toc = {"format": "jb-book", "root": "index", "parts": parts}
    (source / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False, allow_unicode=True), encoding="utf-8")

    config = yaml.safe_load((SITE / "_config.yml").read_text(encoding="utf-8"))
    config["repository"]["url"] = f"https://github.com/{repo}"
    (source / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
                                        encoding="utf-8")
    return chapters


def stage_notebook(path: Path, target: Path, language_link: str | None = None) -> dict:
    """Write ``path`` to ``target`` with, under its title, ``language_link``."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    markdown = [cell for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    for cell in markdown:
        cell["source"] = "".join(cell["source"])
    if language_link and markdown:
        title, _, rest = markdown[0]["source"].partition("\n")
        markdown[0]["source"] = f"{title}\n\n{language_link}\n{rest}"
    target.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    return notebook


def web_font_face(css: str) -> tuple[str, list[tuple[int, int]]]:
    """(file, code point ranges) of the ``@font-face`` of :data:`WEB_FONT_FAMILY` in ``css``.

    >>> web_font_face('@font-face { font-family: "Course Noto Sans SC"; src: url("fonts/zh.woff") '
    ...               'format("woff"); unicode-range: U+3000-303F, U+4E00-9FFF, U+FF0C; }')
    ('fonts/zh.woff', [(12288, 12351), (19968, 40959), (65292, 65292)])
    """
    for face in re.findall(r"@font-face\s*\{([^}]*)\}", css):
        if re.search(rf"font-family:\s*[\"']{re.escape(WEB_FONT_FAMILY)}[\"']", face):
            source = re.search(r"src:\s*url\([\"']?([^\"')]+)[\"']?\)", face)
            ranges = re.search(r"unicode-range:\s*([^;]+)", face)
            if source is None or ranges is None:
                break
            return source.group(1), [(int(low, 16), int(high or low, 16)) for low, high in
                                     re.findall(r"U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?", ranges.group(1))]
    raise SystemExit(f"{COURSE_CSS.relative_to(ROOT)} has lost the @font-face of {WEB_FONT_FAMILY!r} "
                     "(with src: url(...) and unicode-range)")


def write_chinese_font(html: Path) -> tuple[int, int]:
    """Write the site's Chinese web font, return (characters in it, its size in bytes).

    Which characters: every character of the built pages (``html/**/*.html``: text, titles,
    table of contents, explorer pictures) inside the ``unicode-range`` of course.css's
    ``@font-face``; the face: :data:`WEB_FONT_FACE` of the collection that the PyPI package
    ``noto-cjk-sans-otc`` (requirements.txt, :func:`lmcore.fonts.bundled_cjk_font_files`) holds;
    cut down with fontTools (a requirement of matplotlib) to those characters, as WOFF, to the
    file the ``@font-face`` names. Its copyright and licence (SIL Open Font License 1.1) stay in
    the font's name table. The browser fetches it only for a page with such characters, and
    course.css puts it first in the site's fonts, so Chinese shows in it on every machine, the
    same with or without a Chinese system font (and Latin text keeps the theme's fonts).
    """
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTCollection

    if str(ROOT) not in sys.path:  # lmcore from this checkout, installed or not
        sys.path.insert(0, str(ROOT))
    from lmcore.fonts import bundled_cjk_font_files

    relative, ranges = web_font_face(COURSE_CSS.read_text(encoding="utf-8"))
    characters = set()
    for page in html.rglob("*.html"):
        characters.update(page.read_text(encoding="utf-8"))
    wanted = sorted(ord(char) for char in characters if any(low <= ord(char) <= high for low, high in ranges))
    target = html / "_static" / relative
    if not wanted:
        return 0, 0
    collection = next((path for path in bundled_cjk_font_files() if path.lower().endswith(".ttc")), None)
    if collection is None:
        raise SystemExit("the Chinese web font is cut from noto-cjk-sans-otc: pip install -r requirements.txt")
    faces = [font for font in TTCollection(collection, lazy=True).fonts if
             font["name"].getDebugName(4) == WEB_FONT_FACE]
    if not faces:
        raise SystemExit(f"{collection} has no face {WEB_FONT_FACE!r}")
    font = faces[0]
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # its step-by-step log, through Sphinx's handler
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # with the copyright (0) and the licence (13, 14)
    options.hinting = False  # browsers draw CJK outlines unhinted
    options.desubroutinize = True  # smaller once compressed
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    font.flavor = "woff"  # zlib, which fontTools writes by itself (WOFF2 would need brotli)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(target)
    return len(wanted), target.stat().st_size


def load_inline_scripts_once() -> None:
    """Write each inline ``<script>`` an extension adds once per page, not twice.

    Sphinx 7 (the one Jupyter Book 1 runs on) hands an inline script (``add_js_file(None,
    body=...)``) to the HTML builder as ``None`` and again, before writing, as ``''``: the two do
    not compare equal, so every page carried sphinx-thebe's ``const THEBE_JS_URL = ...`` twice and
    the browser logged "Identifier 'THEBE_JS_URL' has already been declared". Sphinx 8.2 fixed
    this (sphinx-doc/sphinx#13402, ``None`` becomes ``''`` at once); this does the same here.
    """
    from sphinx.builders.html import StandaloneHTMLBuilder

    add_js_file = StandaloneHTMLBuilder.add_js_file
    if getattr(add_js_file, "lmcore_inline_once", False):
        return

    def add_js_file_once(self, filename, **kwargs):
        return add_js_file(self, filename or "", **kwargs)

    add_js_file_once.lmcore_inline_once = True
    StandaloneHTMLBuilder.add_js_file = add_js_file_once


def build(out: Path) -> int:
    start = time.perf_counter()
    for module in ("jupyter_book", "sphinx-mathjax-offline"):
        if importlib.util.find_spec(module) is None:
            print(f"{module} is not installed: pip install -r requirements-extra.txt", file=sys.stderr)
            return 2
    from jupyter_book.sphinx import build_sphinx

    load_inline_scripts_once()

    if not sys.stderr.isatty():
        from sphinx.util.console import nocolor

        nocolor()  # plain warnings in logs and in the test's captured output

    out = out.resolve()
    source, html = out / "source", out / "html"
    for stale in (source, html, out / ".doctrees", out / "jupyter_execute"):
        shutil.rmtree(stale, ignore_errors=True)  # a fresh build every time: every warning shows again
    chapters = stage(source)

    # What `jupyter-book build SOURCE -W --keep-going -q` does, with the output where we want it.
    overrides = {"external_toc_path": (source / "_toc.yml").as_posix(), "latex_individualpages": False}
    status = build_sphinx(source, html, noconfig=True, path_config=str(source / "_config.yml"),
                          confoverrides=overrides, freshenv=True, quiet=True, warningiserror=True,
                          keep_going=True)
    seconds = time.perf_counter() - start
    if status != 0:
        print(f"the site build FAILED after {seconds:.1f} s: fix the warnings above", file=sys.stderr)
        return 1

    characters, font_bytes = write_chinese_font(html)
    seconds = time.perf_counter() - start
    size = sum(path.stat().st_size for path in html.rglob("*") if path.is_file())
    print(f"built {1 + len(chapters)} pages (the landing page, the chapters, the Chinese edition) "
          f"in {seconds:.1f} s: {size / 1e6:.1f} MB in {html}")
    if characters:
        print(f"the Chinese web font: {characters} characters, {font_bytes / 1e3:.0f} kB")
    print(f"open {html / 'index.html'}, or serve it: python -m http.server -d {html}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder to build in; the site is OUT/html (default: {DEFAULT_OUT.relative_to(ROOT)})")
    return build(parser.parse_args(argv).out)


if __name__ == "__main__":
    sys.exit(main())
