import gc
import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

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

# What the optional tests need beyond requirements.txt (see requirements-extra.txt).
EXTRAS = {
    "kenlm (pip install kenlm)": lambda: importlib.util.find_spec("kenlm") is not None,
    "playwright (pip install playwright)": lambda: importlib.util.find_spec("playwright") is not None,
    "chromium (apt-get install chromium)": lambda: Path("/usr/bin/chromium").exists(),
    "jupyter-book<2 (pip install -r requirements-extra.txt)":
        lambda: importlib.util.find_spec("jupyter_book") is not None,
    "a Chinese font (apt-get install fonts-noto-cjk)": lambda: _has_chinese_font(),
}


def _has_chinese_font() -> bool:
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True)
    return bool(listed.stdout.strip())


def pytest_sessionstart(session):
    """CI sets LMCORE_REQUIRE_EXTRAS so that the KenLM, browser, site and font tests run rather than skip."""
    if os.environ.get("LMCORE_REQUIRE_EXTRAS"):
        missing = [name for name, present in EXTRAS.items() if not present()]
        if missing:
            raise pytest.UsageError(f"LMCORE_REQUIRE_EXTRAS is set but these are missing: {', '.join(missing)}")


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
