import importlib.util
import os
from pathlib import Path

import pytest

# The browser test's notebook is test data, not a chapter: keep nbval from collecting it.
collect_ignore_glob = ["browser/*.ipynb"]

# What the optional tests need beyond requirements.txt (see requirements-extra.txt).
EXTRAS = {
    "kenlm (pip install kenlm)": lambda: importlib.util.find_spec("kenlm") is not None,
    "playwright (pip install playwright)": lambda: importlib.util.find_spec("playwright") is not None,
    "chromium (apt-get install chromium)": lambda: Path("/usr/bin/chromium").exists(),
}


def pytest_sessionstart(session):
    """CI sets LMCORE_REQUIRE_EXTRAS so that the KenLM and browser tests run rather than skip."""
    if os.environ.get("LMCORE_REQUIRE_EXTRAS"):
        missing = [name for name, present in EXTRAS.items() if not present()]
        if missing:
            raise pytest.UsageError(f"LMCORE_REQUIRE_EXTRAS is set but these are missing: {', '.join(missing)}")
