"""Binder works on first click: binder/requirements.txt pins (==) everything the course and
`pytest` need (the Chinese font included: no apt step), the pins agree with each other and
with the `notebook` that goes with the pinned JupyterLab, and lmcore itself comes from postBuild.

The badges pointing at binder/repo.txt are checked in tests/notebooks/test_notebook_hygiene.py.
"""

import re
import shlex
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest brings tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
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
BUILTIN_OPTIONS = {"--doctest-modules", "-p", "-q", "-v", "-ra", "-x", "--strict-markers", "--strict-config",
                   "--import-mode"}


def normalize(name: str) -> str:
    """PEP 503: ``Jinja2``, ``jupyter_core`` and ``jupyter.core`` name one project each."""
    return re.sub(r"[-_.]+", "-", name).lower()


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


def test_pinned_packages_bring_their_dependencies():
    """Where this environment has a pinned package at its pinned version, what it requires
    (on the Python of binder/runtime.txt) is pinned too, at a version it accepts: `pip check` for Binder."""
    pinned = pins()
    python = re.fullmatch(r"python-(\d+\.\d+)", (BINDER / "runtime.txt").read_text(encoding="utf-8").strip())
    assert python, "binder/runtime.txt should read python-X.Y"
    environment = {"python_version": python.group(1), "python_full_version": python.group(1) + ".0"}
    checked, missing = 0, []
    for name in pinned:
        try:
            # the installed release's requirements stand in for the pinned one's: a release
            # that drifted from its pin rarely adds a dependency, and a skip could hide one
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        checked += 1
        for line in requires:
            try:
                requirement = Requirement(line)
            except InvalidRequirement:
                continue
            if requirement.marker and not requirement.marker.evaluate({**environment, "extra": ""}):
                continue  # an optional extra, or another Python or platform
            wanted = normalize(requirement.name)
            if wanted not in pinned:
                missing.append(f"{name} needs {requirement}")
            elif not requirement.specifier.contains(pinned[wanted], prereleases=True):
                missing.append(f"{name} needs {requirement}, pinned {wanted}=={pinned[wanted]}")
    assert checked >= 10, f"only {checked} pinned packages are installed here: install requirements.txt first"
    assert not missing, "\n".join(missing)


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
