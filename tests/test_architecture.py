"""lmcore's shape: modules on floors (lmcore.FLOORS), imports only downwards or level, no
import circle (a lazy import inside a function counts), no underscore name imported across
modules, no module over about 500 lines, and the README's module table showing the floors."""

import ast
import re
from pathlib import Path

import pytest

import lmcore

PACKAGE = Path(lmcore.__file__).parent
README = PACKAGE.parent / "README.md"
MAX_LINES = 500
FLOOR_OF = {name: floor for floor, names in enumerate(lmcore.FLOORS, start=1) for name in names}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, str | None, int]]:
    """``(imported module, imported name or None, line)`` for every lmcore import in module
    ``name``, at any depth (inside functions too); ``from lmcore.x import y`` where y is a
    submodule counts as importing ``lmcore.x.y``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names if alias.name.startswith("lmcore")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from .base import x
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if not source.startswith("lmcore"):
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.append((submodule, None, node.lineno) if submodule in MODULES
                             else (source, alias.name, node.lineno))
    return found


def top(name: str) -> str:
    """The floor-holding name of a module: ``lmcore.widgets.lambdas`` -> ``widgets``."""
    return name.split(".")[1] if "." in name else name


def test_every_module_has_a_floor():
    missing = sorted({top(name) for name in MODULES if name != "lmcore"} - set(FLOOR_OF))
    assert not missing, f"add these modules to lmcore.FLOORS (lmcore/__init__.py) and the README table: {missing}"
    stale = sorted(set(FLOOR_OF) - {top(name) for name in MODULES})
    assert not stale, f"lmcore.FLOORS names modules that do not exist: {stale}"


def test_imports_go_down_or_level_never_up():
    upward = []
    for name in MODULES:
        if name == "lmcore":
            continue
        for imported, _, line in imports(name):
            if imported != "lmcore" and FLOOR_OF[top(imported)] > FLOOR_OF[top(name)]:
                upward.append(f"{name} (floor {FLOOR_OF[top(name)]}) imports {imported} "
                              f"(floor {FLOOR_OF[top(imported)]}), line {line}")
    assert not upward, "\n".join(upward)


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))  # __version__ is public


def test_no_underscore_name_is_imported_across_modules():
    private = [f"{name}, line {line}: {imported}.{what}" if what else f"{name}, line {line}: {imported}"
               for name in MODULES for imported, what, line in imports(name)
               if (what and is_private(what)) or any(is_private(part) for part in imported.split("."))]
    assert not private, "\n".join(private)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (module -> modules it imports), or None."""
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_find_cycle_finds_one_and_only_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_circle():
    graph = {name: {imported for imported, _, _ in imports(name) if imported != name} for name in MODULES}
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_about_500_lines(name):
    n_lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert n_lines <= MAX_LINES, f"{MODULES[name]} has {n_lines} lines: split it by idea"


def test_the_readme_module_table_shows_the_floors():
    readme = README.read_text(encoding="utf-8")
    table = readme[readme.index("| floor | modules |"):].split("\n\n")[0]
    rows = re.findall(r"^\| (\d) \| (.+?) \|", table, flags=re.MULTILINE)
    shown = {module: int(floor) for floor, names in rows for module in re.findall(r"`lmcore\.(\w+)`", names)}
    assert shown == FLOOR_OF


BACK_LINK = re.compile(r'Introduced in (notebooks/[\w/]+\.ipynb), section "([^"]+)"')


def headings(notebook: Path) -> set[str]:
    """The notebook's markdown headings without their '#'s and section numbers ('3. ')."""
    import json

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    lines = ("".join(c["source"]).splitlines() for c in cells if c["cell_type"] == "markdown")
    return {re.sub(r"^#+\s*(\d+\.\s*)?", "", line).strip() for cell in lines for line in cell if line.startswith("#")}


def test_back_links_name_a_chapter_and_section_that_exist():
    links = [(name, *match) for name, path in MODULES.items()
             for match in BACK_LINK.findall(path.read_text(encoding="utf-8"))]
    assert len(links) >= 15
    broken = [f"{name}: {notebook}, {section!r}" for name, notebook, section in links
              if not (PACKAGE.parent / notebook).exists() or section not in headings(PACKAGE.parent / notebook)]
    assert not broken, "back-links to a missing chapter or section:\n" + "\n".join(broken)
