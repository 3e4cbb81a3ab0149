"""Collection at the repository root.

nbval re-executes the English chapters. The Chinese edition (notebooks/zh/) has the same code,
byte for byte apart from its language switch, and is checked against them cell by cell by
tests/notebooks/test_zh_edition.py instead of being executed a second time (the suite's time budget).
"""

collect_ignore = ["notebooks/zh"]


def pytest_report_header(config):
    """What the first, quiet minute is: the long files start first (tests/conftest.py)."""
    return ["lmcore: the real-browser and website tests start first; JupyterLab, Chromium and a site build "
            "take 30-70 s before their first results, then the rest follows quickly."]
