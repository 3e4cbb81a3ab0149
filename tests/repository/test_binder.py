"""Binder works on first click: binder/requirements.txt pins (==) everything the course and
`pytest` need (the Chinese font included: no apt step), the pins agree with each other and
with the `notebook` that goes with the pinned JupyterLab, and lmcore itself comes from postBuild.

Whether the pins agree is read from binder/pinned-requires.json, what each pinned release
requires (binder/pin.py writes it beside the pins), never from the releases installed here: a
fresh install gets today's newest releases, which may require other versions than the pinned ones.

The badges pointing at binder/repo.txt are checked in tests/notebooks/test_notebook_hygiene.py.
"""

import importlib.util
import json
import re
import shlex
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest brings tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
_spec = importlib.util.spec_from_file_location("binder_pin", BINDER / "pin.py")
pin = importlib.util.module_from_spec(_spec)  # binder/ is no package: loaded from its file
_spec.loader.exec_module(pin)
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# What pytest's addopts need beyond pytest itself: an option (or option prefix) -> the
# distributions that provide it. An option found in neither table fails the test below:
# add it to one of them.
PLUGIN_OPTIONS = {
    "-n": ("pytest-xdist", "execnet"),  # xdist runs its workers through execnet
    "--numprocesses": ("pytest-xdist", "execnet"),
    "--dist": ("pytest-xdist", "execnet"),
    "--nbval": ("nbval",),  # and every --nbval-... option
    "--hypothesis": ("hypothesis",),
}
BUILTIN_OPTIONS = {"--doctest-modules", "-p", "-q", "-v", "-ra", "-rs", "-x", "--strict-markers", "--strict-config",
                   "--import-mode"}


normalize = pin.normalize


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file, without comments, blank lines and options (``-e .``)."""
    lines = (line.split(" #")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith(("#", "-"))]


def names(path: Path) -> set[str]:
    return {normalize(Requirement(line).name) for line in requirement_lines(path)}


def pins() -> dict[str, str]:
    """binder/requirements.txt as {normalized name: version}; every line must be ``name==version``."""
    found = {}
    for line in requirement_lines(BINDER / "requirements.txt"):
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s=;]+)", line)
        assert match, f"binder/requirements.txt: {line!r} is not pinned as name==version"
        found[normalize(match.group(1))] = match.group(2)
    return found


def plugins_for(addopts: str) -> set[str]:
    """The distributions pytest needs for the options in ``addopts``."""
    needed = set()
    for token in shlex.split(addopts):
        if not token.startswith("-"):
            continue  # an option's value: auto, loadfile, no:cacheprovider, a path
        option = token.split("=", 1)[0]
        for prefix, distributions in PLUGIN_OPTIONS.items():
            if option == prefix or (prefix == "--nbval" and option.startswith("--nbval-")):
                needed.update(distributions)
                break
        else:
            assert option in BUILTIN_OPTIONS, f"pytest option {option} of pyproject.toml: map it in PLUGIN_OPTIONS"
    return needed


def test_plugins_for_reads_the_options():
    assert plugins_for("-n auto --dist loadfile -p no:cacheprovider") == {"pytest-xdist", "execnet"}
    assert plugins_for("--nbval --nbval-current-env --nbval-sanitize-with=x.cfg") == {"nbval"}
    assert plugins_for("--doctest-modules") == set()
    with pytest.raises(AssertionError, match="--cov"):
        plugins_for("--cov=lmcore")


def test_every_line_is_pinned_with_double_equals():
    assert len(pins()) >= 50


def test_everything_requirements_txt_names_is_pinned():
    missing = sorted(names(ROOT / "requirements.txt") - set(pins()))
    assert not missing, f"binder/requirements.txt misses {missing}; regenerate it (README, section Binder)"


def test_lmcores_own_dependencies_are_pinned():
    needed = {normalize(Requirement(line).name) for line in PYPROJECT["project"]["dependencies"]}
    assert needed <= set(pins()), sorted(needed - set(pins()))


def test_pytests_options_have_their_plugins_pinned():
    needed = plugins_for(PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"]) | {"pytest", "pytest-xdist"}
    missing = sorted({normalize(name) for name in needed} - set(pins()))
    assert not missing, f"`pytest` in a Binder session needs {missing}; pin them in binder/requirements.txt"


def test_the_optional_extras_and_lmcore_are_not_pinned():
    """KenLM and the browser test do not run on Binder; lmcore comes from the repository (postBuild)."""
    unwanted = names(ROOT / "requirements-extra.txt") | {"lmcore"}
    assert not unwanted & set(pins()), sorted(unwanted & set(pins()))
    post_build = (BINDER / "postBuild").read_text(encoding="utf-8")
    assert re.search(r"pip install --no-deps -e \.", post_build)


def recorded() -> dict[str, dict]:
    """binder/pinned-requires.json: each pin's release and what it requires (written by binder/pin.py)."""
    return json.loads((BINDER / "pinned-requires.json").read_text(encoding="utf-8"))


def binder_markers() -> dict[str, str]:
    """Binder's machine as environment markers: the CPython of binder/runtime.txt on 64-bit Linux,
    whatever machine runs the tests."""
    python = re.fullmatch(r"python-(\d+\.\d+)", (BINDER / "runtime.txt").read_text(encoding="utf-8").strip())
    assert python, "binder/runtime.txt should read python-X.Y"
    return {"python_version": python.group(1), "python_full_version": python.group(1) + ".0",
            "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "platform_machine": "x86_64",
            "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def unmet_requirements(record: dict[str, dict], markers: dict[str, str]) -> list[str]:
    """What ``pip check`` would report for an environment holding exactly ``record``'s releases:
    each requirement (of the pins, and of the extras a pin is required with) that applies on the
    machine ``markers`` describe and names a package not pinned, or pinned at a version it refuses."""
    unmet, wanted = [], [(name, "") for name in record]  # (package, extra) pairs still to check
    seen = set()
    while wanted:
        name, extra = wanted.pop()
        if (name, extra) in seen or name not in record:
            continue
        seen.add((name, extra))
        for line in record[name]["requires"]:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker and not marker.evaluate({**markers, "extra": extra}):
                continue  # another extra, Python or platform
            if extra and (marker is None or marker.evaluate({**markers, "extra": ""})):
                continue  # not the extra's own: checked with the package itself
            target = normalize(requirement.name)
            if target not in record:
                unmet.append(f"{name}{f'[{extra}]' if extra else ''} needs {requirement}, which is not pinned")
            elif not requirement.specifier.contains(record[target]["version"], prereleases=True):
                unmet.append(f"{name} needs {requirement}, pinned {target}=={record[target]['version']}")
            wanted.extend((target, normalize(e)) for e in requirement.extras)
    return unmet


def test_the_record_is_the_pins():
    """binder/requirements.txt is binder/pin.py's text of the record, so neither changes alone."""
    assert pin.pins_text(recorded()) == (BINDER / "requirements.txt").read_text(encoding="utf-8"), \
        "binder/requirements.txt and binder/pinned-requires.json disagree: regenerate both with binder/pin.py"
    assert {name: entry["version"] for name, entry in recorded().items()} == pins()


def test_the_pins_satisfy_one_another():
    """The pinned file installs consistently (what `pip install --dry-run -r binder/requirements.txt`
    would find): every requirement of every pinned release, on Binder's Python and platform, is pinned
    at a version it accepts. It reads the record alone, so no network is needed and the releases
    installed on the testing machine (newer ones, after a fresh install) play no part."""
    unmet = unmet_requirements(recorded(), binder_markers())
    assert not unmet, "\n".join(unmet)


def test_the_check_finds_what_pip_check_would():
    record = {
        "a": {"name": "a", "version": "1.0", "requires": ['b>=2', 'c[fast]==1.0; python_version >= "3.8"',
                                                       'd; sys_platform == "win32"', 'e; extra == "docs"']},
        "b": {"name": "b", "version": "1.5", "requires": []},
        "c": {"name": "c", "version": "1.0", "requires": ['f; extra == "fast"']},
    }
    assert sorted(unmet_requirements(record, binder_markers())) == [
        "a needs b>=2, pinned b==1.5", 'c[fast] needs f; extra == "fast", which is not pinned']
    record["b"]["version"], record["f"] = "2.0", {"name": "f", "version": "0.1", "requires": []}
    assert unmet_requirements(record, binder_markers()) == []


def test_the_record_agrees_with_each_release_installed_at_its_pinned_version():
    """The record cannot drift from the releases it describes. Assumption about versions: only a
    package installed here at exactly its pinned version is compared (its installed metadata then
    describes the pinned release); one installed at another version (a newer release after a fresh
    install, or an older one) or not at all says nothing about the pinned release and is left out,
    so the test holds whatever releases PyPI serves on the day of the install."""
    disagree = []
    for name, entry in recorded().items():
        try:
            installed = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        at_pin = Version(installed.version) == Version(entry["version"])
        if at_pin and sorted(installed.requires or []) != entry["requires"]:
            disagree.append(f"{name}=={entry['version']}")
    assert not disagree, f"binder/pinned-requires.json is not what these releases require: {disagree}"


def test_no_apt_step_the_font_comes_from_the_pins():
    assert not (BINDER / "apt.txt").exists(), "the Chinese font comes from PyPI (noto-cjk-sans-otc), no apt step"
    assert "noto-cjk-sans-otc" in pins()


def test_binders_notebook_goes_with_the_pinned_jupyterlab():
    """repo2docker's environment already has `notebook`, whose release 7.N requires JupyterLab
    4.N (7.4 requires jupyterlab<4.5, 7.6 jupyterlab>=4.6.6,<4.7): the pins carry the matching one."""
    pinned = pins()
    notebook, jupyterlab = Version(pinned["notebook"]), Version(pinned["jupyterlab"])
    assert (notebook.major, jupyterlab.major) == (7, 4)
    assert notebook.minor == jupyterlab.minor, f"notebook {notebook} needs JupyterLab 4.{notebook.minor}"


def test_postbuild_removes_the_extension_jupyterlab_lists_as_incompatible():
    post_build = (BINDER / "postBuild").read_text(encoding="utf-8")
    assert "jupyterlab-mathjax3" in pins()  # jupyterlab-rise requires it, so pip installs it ...
    assert re.search(r"^pip uninstall -y jupyterlab-mathjax3$", post_build, re.MULTILINE)  # ... and then it goes


def test_repo_txt_holds_one_repository_and_the_readme_has_badges():
    lines = [line for line in (BINDER / "repo.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) == 1 and re.fullmatch(r"[\w.-]+/[\w.-]+", lines[0]), lines
    for name in ("README.md", "README.zh-CN.md"):
        readme = (ROOT / name).read_text(encoding="utf-8")
        assert f"mybinder.org/v2/gh/{lines[0]}/HEAD" in readme, name
        assert f"git clone https://github.com/{lines[0]}.git" in readme, f"{name}: run binder/set_repo.py"
    badges = re.compile(r"mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/HEAD")
    for notebook in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        assert set(badges.findall(notebook.read_text(encoding="utf-8"))) <= {lines[0]}, notebook
