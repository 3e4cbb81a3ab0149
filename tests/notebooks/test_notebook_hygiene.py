"""Every chapter is stored the way nbval and students need it.

nbval re-executes the notebooks and compares outputs; this file checks what nbval
does not: that the stored outputs come from one clean top-to-bottom run, that no
widget state or error is saved, that each chapter opens with its title and Binder
badge, that its core path (up to its first "Going further" heading) fits one class,
and that every figure has alt text. The Chinese edition (notebooks/zh/) is held to the same rules.
"""

import json
import re
from pathlib import Path

import pytest

from classroom.slides import GOING_FURTHER  # where a chapter's core path ends, in either edition

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
BINDER_URL = re.compile(r"https://mybinder\.org/v2/gh/[^/\s]+/[^/\s]+/HEAD\?urlpath=lab/tree/notebooks/(\S+?\.ipynb)")


def test_there_are_chapters():
    assert NOTEBOOKS, "no notebooks under notebooks/"
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", nb.name) for nb in NOTEBOOKS + ZH_NOTEBOOKS)


def in_notebooks(path: Path) -> str:
    """``path`` from notebooks/: 04_perplexity.ipynb, zh/04_perplexity.ipynb."""
    return path.relative_to(ROOT / "notebooks").as_posix()


@pytest.fixture(params=NOTEBOOKS + ZH_NOTEBOOKS, ids=in_notebooks)
def notebook(request):
    path = request.param
    return path, json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_stored_executed_once_top_to_bottom(notebook):
    path, nb = notebook
    counts = [c["execution_count"] for c in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: re-run it top to bottom in a fresh kernel"


def test_each_printout_is_one_block(notebook):
    """A cell's printout is stored in one piece (the README's command joins what the kernel split)."""
    path, nb = notebook
    split = [index for index, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             for first, second in zip(cell["outputs"], cell["outputs"][1:])
             if first["output_type"] == second["output_type"] == "stream" and first["name"] == second["name"]]
    assert not split, f"{path.name}: cells {split} store a printout in pieces; re-run the README's command"


def test_no_error_outputs(notebook):
    path, nb = notebook
    errors = [o for c in code_cells(nb) for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"{path.name} has a stored error: {errors[0].get('ename')}"


def test_no_warning_or_other_stderr_is_stored(notebook):
    """A chapter prints the same on every machine: nothing from the environment (a missing font,
    a deprecation, a kernel's notice) in its stored outputs, which strict nbval compares."""
    path, nb = notebook
    noisy = [index for index, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             for output in cell["outputs"] if output.get("name") == "stderr"]
    assert not noisy, f"{path.name}: cells {noisy} store stderr output"


def test_no_saved_widget_state_and_python3_kernel(notebook):
    path, nb = notebook
    assert "widgets" not in nb["metadata"], f"{path.name}: clear the saved widget state"
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


def test_title_and_own_binder_badge_in_first_cell(notebook):
    path, nb = notebook
    first = nb["cells"][0]
    text = "".join(first["source"])
    assert first["cell_type"] == "markdown" and text.startswith("# "), f"{path.name}: first cell needs a title"
    badge = BINDER_URL.search(text)
    assert badge and badge.group(1) == in_notebooks(path), f"{path.name}: first cell needs a Binder badge to itself"


def test_small_enough(notebook):
    path, _ = notebook
    assert path.stat().st_size < 2_000_000, f"{path.name} is {path.stat().st_size / 1e6:.1f} MB"


def test_readme_links_every_chapter():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f"notebooks/{path.name}" in readme, f"README's chapter map misses {path.name}"
    readme_zh = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    for path in ZH_NOTEBOOKS:
        assert f"notebooks/zh/{path.name}" in readme_zh, f"README.zh-CN.md's chapter map misses {path.name}"


BADGE_IMAGE = re.compile(r"\[!\[Binder\]\(([^)\s]+)\)\]")


def test_every_binder_badge_is_the_local_image_and_shows_offline():
    """The badge is notebooks/images/binder-badge.svg, linked relative to each document, so a
    classroom without internet (and RISE's title slide) shows it; never mybinder.org's image."""
    badge = ROOT / "notebooks" / "images" / "binder-badge.svg"
    assert badge.read_text(encoding="utf-8").lstrip().startswith("<svg")
    for path in [ROOT / "README.md", ROOT / "README.zh-CN.md", *NOTEBOOKS, *ZH_NOTEBOOKS]:
        text = path.read_text(encoding="utf-8")
        assert "mybinder.org/badge" not in text, f"{path.name} loads the badge from the internet"
        images = BADGE_IMAGE.findall(text)
        assert images, f"{path.name} has no Binder badge"
        for image in images:
            assert (path.parent / image).resolve() == badge, f"{path.name}: {image} is not the local badge"


def test_every_binder_badge_points_at_the_configured_repository():
    slug = (ROOT / "binder" / "repo.txt").read_text(encoding="utf-8").strip()
    for path in [ROOT / "README.md", ROOT / "README.zh-CN.md", *NOTEBOOKS, *ZH_NOTEBOOKS]:
        for found in re.findall(r"mybinder\.org/v2/gh/([^/\s]+/[^/\s]+)/HEAD", path.read_text(encoding="utf-8")):
            assert found == slug, f"{path.name} links {found}; run python binder/set_repo.py {slug}"


# --- the core path: one class of at most 60 minutes (DESIGN.md, "A chapter notebook") -----------

CORE_PATH_WORDS, CORE_PATH_CELLS = 2_500, 40
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def prose_words(markdown: str) -> float:
    """Words of markdown prose: whitespace-separated pieces, each Chinese character counting half a word.

    >>> prose_words("Perplexity is 2 to the H.") , prose_words("困惑度 is 2^H")
    (6.0, 3.5)
    """
    chinese = len(CJK.findall(markdown))
    return len(CJK.sub(" ", markdown).split()) + chinese / 2


def core_path(nb) -> tuple[float, int, bool]:
    """(prose words, cells, found) before the first markdown heading containing "Going further"
    (or, in the Chinese edition, "延伸阅读").

    Every cell before that heading's cell counts, the section headings' own cells included
    (classroom/slides.py gives each section heading a cell); words of the heading's cell above
    the heading count too.
    """
    words, cells = 0.0, 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            lines = "".join(cell["source"]).splitlines()
            at = next((i for i, line in enumerate(lines) if GOING_FURTHER.match(line)), None)
            if at is not None:
                return words + prose_words("\n".join(lines[:at])), cells, True
            words += prose_words("\n".join(lines))
        cells += 1
    return words, cells, False


def test_core_path_measure():
    cell = lambda kind, text: {"cell_type": kind, "source": [text]}  # noqa: E731
    nb = {"cells": [cell("markdown", "# Title\nfour words here 中文"), cell("code", "x = 1 + 2 + 3"),
                    cell("markdown", "two words"), cell("markdown", "## Next\nthree"),
                    cell("markdown", "## Going further: more"), cell("markdown", "not counted")]}
    assert core_path(nb) == (11.0, 4, True)  # every cell before the heading's, markdown in a row included
    assert core_path({"cells": [cell("markdown", "## 3. going further, in lower case")]}) == (0.0, 0, True)
    assert core_path({"cells": [cell("markdown", "Going further without a heading")]})[2] is False


def test_core_path_fits_one_class(notebook):
    path, nb = notebook
    words, cells, found = core_path(nb)
    assert found, f'{path.name} has no "Going further" heading: the core path must end somewhere'
    assert cells <= CORE_PATH_CELLS, f"{path.name}: {cells} cells before Going further (at most {CORE_PATH_CELLS})"
    assert words <= CORE_PATH_WORDS, (f"{path.name}: {words:,.0f} words of prose before Going further "
                                      f"(at most {CORE_PATH_WORDS:,})")


def test_every_figure_has_alt_text(notebook):
    """A figure a cell draws carries alt text for screen readers and the website (explorers carry their own)."""
    path, nb = notebook
    missing = []
    for index, cell in enumerate(nb["cells"]):
        shown = [o.get("data", {}) for o in cell.get("outputs", []) if o["output_type"] in ("display_data",
                                                                                             "execute_result")]
        if any("image/png" in data and "application/vnd.jupyter.widget-view+json" not in data for data in shown):
            if not cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "").strip():
                missing.append(index)
    assert not missing, f'{path.name}: cells {missing} draw a figure without {{"mystnb": {{"image": {{"alt": ...}}}}}}'
