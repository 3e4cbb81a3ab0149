"""Collection at the repository root.

nbval re-executes the English chapters. The Chinese edition (notebooks/zh/) has the same code,
byte for byte apart from its language switch, and is checked against them cell by cell by
tests/notebooks/test_zh_edition.py instead of being executed a second time (the suite's time budget).
"""

collect_ignore = ["notebooks/zh"]

