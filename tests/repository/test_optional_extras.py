"""The one guard for optional extras: a missing extra skips outside CI and fails in CI, and no
other test skips (an import error in lmcore or a missing requirement must fail, never skip)."""

import re
from pathlib import Path

import optional_extras
import pytest

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture
def a_missing_extra(monkeypatch):
    monkeypatch.setitem(optional_extras.EXTRAS, "unobtainium", (lambda: False, "apt-get install unobtainium"))
    return "unobtainium"


def test_a_missing_extra_skips_outside_ci(a_missing_extra, monkeypatch):
    monkeypatch.delenv("LMCORE_REQUIRE_EXTRAS", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"unobtainium is missing \(apt-get install unobtainium\)"):
        optional_extras.require(a_missing_extra)
    assert "unobtainium (apt-get install unobtainium)" in optional_extras.missing()


def test_a_missing_extra_fails_in_ci(a_missing_extra, monkeypatch):
    monkeypatch.setenv("LMCORE_REQUIRE_EXTRAS", "1")
    with pytest.raises(pytest.fail.Exception, match="LMCORE_REQUIRE_EXTRAS is set"):
        optional_extras.require(a_missing_extra)


def test_a_present_extra_does_nothing(monkeypatch):
    monkeypatch.setitem(optional_extras.EXTRAS, "air", (lambda: True, "breathe"))
    assert optional_extras.require("air") is None


def test_the_header_announces_the_slow_start_only_where_the_browser_tests_run(monkeypatch):
    for name in optional_extras.EXTRAS:
        monkeypatch.setitem(optional_extras.EXTRAS, name, (lambda: True, "-"))
    assert [line[:44] for line in optional_extras.report_header()] == ["lmcore: the real-browser and website tests s"]
    monkeypatch.setitem(optional_extras.EXTRAS, "chromium", (lambda: False, "apt-get install chromium"))
    monkeypatch.setitem(optional_extras.EXTRAS, "kenlm", (lambda: False, "pip install kenlm"))
    (header,) = optional_extras.report_header()
    assert header.startswith("lmcore: optional extras missing here: kenlm, chromium; the tests that need them")


def test_no_test_skips_except_through_the_guard():
    skipping = re.compile(r"importorskip|pytest\.skip\(|mark\.skip(if)?\b|pytest\.xfail|mark\.xfail")
    offenders = [f"{path.name}:{number}: {line.strip()}"
                 for path in sorted(TESTS.rglob("*.py")) if path.name != "optional_extras.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if skipping.search(line) and not line.lstrip().startswith("#") and path != Path(__file__)]
    assert not offenders, "skip only through tests/optional_extras.py:\n" + "\n".join(offenders)
