"""The one guard for optional extras: what may be missing outside CI, and nothing else.

Only the documented extras (README, "Optional extras") may make a test skip: KenLM,
Playwright, Debian's chromium, Jupyter Book and axe-core (axe-playwright-python). (The
Chinese font is no extra: requirements.txt brings it, and tests/unit/test_plots.py fails
without it.) A test that needs one calls :func:`require`; where it is missing the test skips with the reason shown, and
where ``LMCORE_REQUIRE_EXTRAS`` is set (CI) it fails instead. Everything in
``requirements.txt`` is imported plainly: if it is missing, the tests fail.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def _module(name: str) -> Callable[[], bool]:
    return lambda: importlib.util.find_spec(name) is not None


EXTRAS: dict[str, tuple[Callable[[], bool], str]] = {
    "kenlm": (_module("kenlm"), "pip install kenlm (see requirements-extra.txt)"),
    "playwright": (_module("playwright"), "pip install playwright (see requirements-extra.txt)"),
    "chromium": (lambda: Path("/usr/bin/chromium").exists(), "apt-get install chromium"),
    "jupyter-book": (_module("jupyter_book"), "pip install -r requirements-extra.txt"),
    "axe": (_module("axe_playwright_python"), "pip install -r requirements-extra.txt"),
}


def required_in_ci() -> bool:
    return bool(os.environ.get("LMCORE_REQUIRE_EXTRAS"))


def missing() -> list[str]:
    """The extras missing here, each with how to install it."""
    return [f"{name} ({how})" for name, (present, how) in EXTRAS.items() if not present()]


def report_header() -> list[str]:
    """pytest's header: what the first, quiet minute is (the browser files start first), and which
    optional tests skip here."""
    absent = [name for name, (present, _) in EXTRAS.items() if not present()]
    lines = []
    if not {"playwright", "chromium"} & set(absent):
        lines.append("lmcore: the real-browser and website tests start first; JupyterLab, Chromium and a site build "
                     "take 30-70 s before their first results, then the rest follows quickly.")
    if absent:
        lines.append(f"lmcore: optional extras missing here: {', '.join(absent)}; the tests that need them are "
                     "skipped, with the reasons at the end (README, 'Optional extras').")
    return lines


def require(name: str, reason: str | None = None) -> None:
    """Skip the calling test unless extra ``name`` is here; fail instead under ``LMCORE_REQUIRE_EXTRAS``."""
    present, how = EXTRAS[name]
    if not present():
        unavailable(reason or f"{name} is missing ({how})")


def unavailable(reason: str) -> None:
    """Skip with ``reason`` (an optional extra is missing), or fail under ``LMCORE_REQUIRE_EXTRAS``."""
    if required_in_ci():
        pytest.fail(f"{reason}; LMCORE_REQUIRE_EXTRAS is set, so optional extras must be here")
    pytest.skip(reason, allow_module_level=True)
