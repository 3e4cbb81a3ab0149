"""Every chapter is stored the way nbval and students need it.

nbval re-executes the notebooks and compares outputs; this file checks what nbval
does not: that the stored outputs come from one clean top-to-bottom run, that no
widget state or error is saved, and that each chapter opens with its title and
Binder badge.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
BINDER_URL = re.compile(r"https://mybinder\.org/v2/gh/[^/\s]+/[^/\s]+/HEAD\?urlpath=lab/tree/notebooks/(\S+?\.ipynb)")


def test_there_are_chapters():
    assert NOTEBOOKS, "no notebooks under notebooks/"
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", nb.name) for nb in NOTEBOOKS)


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def notebook(request):
    path = request.param
    return path, json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_stored_executed_once_top_to_bottom(notebook):
    path, nb = notebook
    counts = [c["execution_count"] for c in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: re-run it top to bottom in a fresh kernel"


def test_no_error_outputs(notebook):
    path, nb = notebook
    errors = [o for c in code_cells(nb) for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"{path.name} has a stored error: {errors[0].get('ename')}"


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
    assert badge and badge.group(1) == path.name, f"{path.name}: first cell needs a Binder badge to itself"


def test_small_enough(notebook):
    path, _ = notebook
    assert path.stat().st_size < 2_000_000, f"{path.name} is {path.stat().st_size / 1e6:.1f} MB"


def test_readme_links_every_chapter():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f"notebooks/{path.name}" in readme, f"README's chapter map misses {path.name}"


def test_every_binder_badge_points_at_the_configured_repository():
    slug = (ROOT / "binder" / "repo.txt").read_text(encoding="utf-8").strip()
    for path in [ROOT / "README.md", *NOTEBOOKS]:
        for found in re.findall(r"mybinder\.org/v2/gh/([^/\s]+/[^/\s]+)/HEAD", path.read_text(encoding="utf-8")):
            assert found == slug, f"{path.name} links {found}; run python binder/set_repo.py {slug}"
