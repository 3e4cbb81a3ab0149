import gc
import sys
from pathlib import Path

# The tests sit in folders by what they test (unit, parity, notebooks, browser, repository);
# their shared helpers (optional_extras, browser_support) sit here, importable from every folder.
sys.path.insert(0, str(Path(__file__).parent))

import optional_extras as extras
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (derandomize: reproducible, and no
# example database to read or write) and have no per-example deadline, so that a slow,
# busy CI machine cannot turn a passing property into a flaky DeadlineExceeded.
# Another profile can still be chosen with --hypothesis-profile.
settings.register_profile("lmcore", derandomize=True, deadline=None, database=None)
settings.load_profile("lmcore")

# The browser test's notebook is test data, not a chapter: keep nbval from collecting it.
collect_ignore_glob = ["browser/*.ipynb"]

def pytest_report_header(config):
    return extras.report_header()


def pytest_sessionstart(session):
    """CI sets LMCORE_REQUIRE_EXTRAS so that every optional test runs rather than skips (tests/optional_extras.py)."""
    if extras.required_in_ci() and extras.missing():
        raise pytest.UsageError(f"LMCORE_REQUIRE_EXTRAS is set but these are missing: {', '.join(extras.missing())}")


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session):
    """Keep the garbage collector away from what start-up and collection import.

    nbformat, numpy, scipy (through nltk), matplotlib, hypothesis, ipywidgets, ... leave
    about half a million objects that live until the end of the run; the cyclic garbage
    collector would scan them all again at every full collection, during imports, tests
    and pytest's closing collections (about 5 s of CPU a run). Paused while collecting,
    then frozen.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # everything alive now is left out of later collections
        gc.enable()


def pytest_collection_modifyitems(items):
    """The real-browser tests first (a stable sort: each file keeps its order).

    They are the longest files (a JupyterLab or a site build each, 15-25 s); under
    ``--dist loadfile`` a long file that starts last keeps one core busy while the other idles.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


@pytest.fixture
def chinese():
    """The course in Chinese for one test (as the Chinese chapters' first cell sets it), then English again."""
    from lmcore.i18n import set_language

    set_language("zh")
    yield
    set_language("en")


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    """One JupyterLab server per test process for every real-browser test: (base URL, token).

    It serves stripped copies of the explorers' demo notebook in tests/browser/ (which
    tests/browser/test_browser.py opens once for all its tests) and of the chapter the slideshow test
    presents.
    """
    from browser_support import SLIDESHOW_CHAPTER, jupyterlab_server

    notebooks = [*sorted((Path(__file__).parent / "browser").glob("*.ipynb")), SLIDESHOW_CHAPTER]
    with jupyterlab_server(tmp_path_factory.mktemp("jupyterlab"), notebooks) as server:
        yield server
