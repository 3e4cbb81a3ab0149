"""A fresh install on any later day gets releases the tests accept: every requirement is bounded
above, and the tools lmcore is checked against are bounded to the minor release the README names
and the parity tests ran with."""

import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REQUIREMENT_FILES = ("requirements.txt", "requirements-extra.txt")
PEERS = {"sacrebleu": "requirements.txt", "nltk": "requirements.txt", "kenlm": "requirements-extra.txt"}


def requirements(name: str) -> dict[str, Requirement]:
    """The requirements of file ``name`` by project name (comments, blank lines and ``-e .`` left out)."""
    lines = (line.split(" #")[0].strip() for line in (ROOT / name).read_text(encoding="utf-8").splitlines())
    found = [Requirement(line) for line in lines if line and not line.startswith(("#", "-"))]
    return {requirement.name.lower(): requirement for requirement in found}


def has_upper_bound(requirement: Requirement) -> bool:
    return any(spec.operator in ("<", "<=", "==", "~=", "===") for spec in requirement.specifier)


@pytest.mark.parametrize("name", REQUIREMENT_FILES)
def test_every_requirement_is_bounded_above(name):
    """An unbounded requirement takes whatever PyPI serves newest on the day of the install."""
    unbounded = [str(r) for r in requirements(name).values() if not has_upper_bound(r)]
    assert not unbounded, f"{name}: bound these above (README, 'A later day, newer releases'): {unbounded}"


def test_the_bound_check_sees_each_form():
    assert [has_upper_bound(Requirement(line)) for line in ("a>=1", "a>=1,<2", "a~=1.2", "a==1", "a")] == \
        [False, True, True, True, False]


@pytest.mark.parametrize("peer", PEERS)
def test_each_peer_is_bounded_to_the_release_the_readme_names(peer):
    """The README says for which minor release (and which exact release, tested) each parity claim
    holds; the requirement admits that release and no later minor release."""
    claim = re.search(rf"\*\*{peer} (\d+)\.(\d+)\*\* \([^)]*?run with (\d+\.\d+\.\d+)\)", README)
    assert claim, f"README, 'Conventions': name the {peer} release the parity tests ran with"
    major, minor, tested = int(claim.group(1)), int(claim.group(2)), claim.group(3)
    assert Version(tested).release[:2] == (major, minor)
    specifier = requirements(PEERS[peer])[peer].specifier
    assert specifier.contains(tested), f"{PEERS[peer]}: {peer}{specifier} refuses the tested {tested}"
    assert not specifier.contains(f"{major}.{minor + 1}.0"), f"{PEERS[peer]}: bound {peer} below {major}.{minor + 1}"


@pytest.mark.parametrize("peer", ["sacrebleu", "nltk"])
def test_the_tested_environment_holds_the_release_the_readme_names(peer):
    pinned = re.search(rf"^{peer}==(\S+)$", (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8"),
                       re.MULTILINE | re.IGNORECASE)
    assert pinned, f"binder/requirements.txt does not pin {peer}"
    claim = rf"\*\*{peer} [\d.]+\*\* \([^)]*?run with {re.escape(pinned.group(1))}\)"
    assert re.search(claim, README), f"binder/requirements.txt pins {peer}=={pinned.group(1)}: say so in the README"
