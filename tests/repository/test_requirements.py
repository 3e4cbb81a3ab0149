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


def declared() -> dict[str, Requirement]:
    """pyproject.toml's dependencies and extras, by project name."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = project["dependencies"] + [line for extra in project["optional-dependencies"].values() for line in extra]
    return {requirement.name.lower(): requirement for requirement in map(Requirement, lines)}


def imported_distributions() -> dict[str, str]:
    """The distribution of every module outside the standard library that lmcore imports, by module."""
    import ast
    import importlib.metadata
    import sys

    owners = importlib.metadata.packages_distributions()
    found = {}
    for path in (ROOT / "lmcore").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and not node.level and node.module else []
            for top in {name.split(".")[0] for name in names} - set(sys.stdlib_module_names) - {"lmcore"}:
                found[top] = owners[top][0].lower()
    return found


def test_pyproject_declares_what_lmcore_imports_with_the_bounds_of_requirements_txt():
    """``pip install .`` alone gives a working lmcore: each package it imports is declared (or comes with
    one declared, as IPython with ipywidgets), each corpus it reads is an extra, and each bound is the one
    requirements.txt tested."""
    import importlib.metadata

    from lmcore.text import TRANSLATIONS
    from lmcore.text.corpora import _CORPORA

    ours = declared()
    brought = {Requirement(line).name.lower() for name in ours for line in importlib.metadata.requires(name) or ()}
    missing = {module: dist for module, dist in imported_distributions().items()
               if dist.replace("_", "-") not in ours and dist.replace("_", "-") not in brought}
    assert not missing, f"declare these in pyproject.toml: {missing}"
    assert {"numpy", "matplotlib", "ipywidgets", "tokenizers", "constriction"} <= set(ours)
    owners = importlib.metadata.packages_distributions()
    corpora = ({corpus.pip_name.lower() for corpus in _CORPORA.values()}
               | {owners[translation.module][0].lower().replace("_", "-") for translation in TRANSLATIONS.values()})
    assert corpora <= set(ours), f"declare these corpora as an extra: {corpora - set(ours)}"
    tested = requirements("requirements.txt")
    differ = {name: (str(r.specifier), str(tested[name].specifier)) for name, r in ours.items()
              if name in tested and r.specifier != tested[name].specifier}
    assert not differ, f"pyproject.toml and requirements.txt bound these differently: {differ}"
    assert set(ours) <= set(tested), f"not in requirements.txt: {set(ours) - set(tested)}"
