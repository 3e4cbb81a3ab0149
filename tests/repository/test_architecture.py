"""lmcore's shape: packages on floors (lmcore.FLOORS), imports only downwards or level, no
import circle (a lazy import inside a function counts), another package reached only through
its face (its ``__init__``), no underscore name imported across packages, each public name
exported by one face and defined in one module, no module re-exporting another's names, the
docstring maps of ``lmcore/__init__`` and each face naming what is there, no module over about
500 lines, and the README's module table showing the packages on their floors."""

import ast
import importlib
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
    assert not missing, f"add these packages to lmcore.FLOORS (lmcore/__init__.py) and the README table: {missing}"
    stale = sorted(set(FLOOR_OF) - {top(name) for name in MODULES})
    assert not stale, f"lmcore.FLOORS names packages that do not exist: {stale}"


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


def test_no_underscore_name_is_imported_across_packages():
    private = [f"{name}, line {line}: {imported}.{what}" if what else f"{name}, line {line}: {imported}"
               for name in MODULES for imported, what, line in imports(name)
               if top(imported) != top(name)
               and ((what and is_private(what)) or any(is_private(part) for part in imported.split(".")))]
    assert not private, "\n".join(private)


def test_another_package_is_reached_only_through_its_face():
    inside = [f"{name}, line {line}: {imported}" for name in MODULES for imported, _, line in imports(name)
              if imported.count(".") >= 2 and top(imported) != top(name) and imported not in FACES]
    assert not inside, "import these from the package, not from its module:\n" + "\n".join(inside)


FACES = {name for name, path in MODULES.items() if path.name == "__init__.py" and name != "lmcore"}


def exported(face: str) -> list[str]:
    tree = ast.parse(MODULES[face].read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return [element.value for element in node.value.elts]
    return []


def defined(name: str) -> set[str]:
    """The names module ``name`` defines at its top level (not the ones it imports)."""
    found = set()
    for node in ast.parse(MODULES[name].read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                found |= {element.id for element in elements if isinstance(element, ast.Name)}
    return found


TOPIC_PACKAGES = sorted(face for face in FACES
                        if face.count(".") == 1 and face not in ("lmcore.widgets", "lmcore.exercises"))


@pytest.mark.parametrize("face", TOPIC_PACKAGES)
def test_a_face_exports_each_name_defined_in_exactly_one_of_its_modules(face):
    modules = [name for name in MODULES if name.startswith(face + ".")]
    names = exported(face)
    assert names and len(names) == len(set(names)), f"{face}.__all__ is empty or repeats a name"
    homes = {name: [module for module in modules if name in defined(module)] for name in names}
    wrong = {name: found for name, found in homes.items() if len(found) != 1}
    assert not wrong, f"{face} exports names defined in no module or in several: {wrong}"
    module = importlib.import_module(face)
    assert all(hasattr(module, name) for name in names)


# Where a reader imports from: every package's face (widgets and exercises included) and the
# single-module topics (lmcore.checks, lmcore.lm, ...).
PUBLIC_FACES = sorted(FACES | {name for name in MODULES if name.count(".") == 1 and name not in FACES})


def test_no_two_faces_export_the_same_name():
    """One name, one thing: ``check_number`` cannot be both an argument check and an answer's grader."""
    owners: dict[str, list[str]] = {}
    for face in PUBLIC_FACES:
        for name in exported(face):
            owners.setdefault(name, []).append(face)
    shared = {name: faces for name, faces in owners.items() if len(faces) > 1}
    assert not shared, f"a name importable from two places: {shared}"
    assert {"lmcore.checks", "lmcore.lm", "lmcore.widgets", "lmcore.exercises"} <= set(PUBLIC_FACES)


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name not in FACES and name != "lmcore"))
def test_no_module_re_exports_another_modules_names(name):
    listed = exported(name)
    if not listed:
        return
    borrowed = sorted(set(listed) - defined(name))
    assert not borrowed, f"{name}.__all__ lists names it imports: {borrowed}"


@pytest.mark.parametrize("face", sorted(FACES))
def test_each_face_docstring_names_its_modules(face):
    """The map at the top of each package names every module in it, as ``module``."""
    doc = ast.get_docstring(ast.parse(MODULES[face].read_text(encoding="utf-8"))) or ""
    modules = {name.rsplit(".", 1)[1] for name in MODULES if name.rsplit(".", 1)[0] == face}
    missing = sorted(module for module in modules if f"``{module}``" not in doc and f"`{module}`" not in doc)
    assert not missing, f"{face}'s docstring does not name these modules: {missing}"


def test_the_lmcore_docstring_names_every_package_on_its_floor():
    doc = lmcore.__doc__
    floors = re.split(r"^\d\. ", doc, flags=re.MULTILINE)[1:]
    shown = {name: floor for floor, text in enumerate(floors, start=1) for name in re.findall(r"``(\w+)``", text)
             if name in FLOOR_OF}
    assert shown == FLOOR_OF


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


def test_the_readme_module_table_shows_the_packages_on_their_floors_with_their_modules():
    readme = README.read_text(encoding="utf-8")
    table = readme[readme.index("| floor | package | modules |"):].split("\n\n")[0]
    rows = re.findall(r"^\| (\d) \| (.+?) \| (.+?) \|", table, flags=re.MULTILINE)
    shown = {package: int(floor) for floor, packages, _ in rows for package in re.findall(r"`lmcore\.(\w+)`", packages)}
    assert shown == FLOOR_OF
    for _, packages, modules in rows:
        for package in re.findall(r"`lmcore\.(\w+)`", packages):
            inside = {name.rsplit(".", 1)[1] for name in MODULES if name.startswith(f"lmcore.{package}.")}
            listed = set(re.findall(r"`(\w+)`", modules))
            if "..." in modules:  # chapter01 ... chapter07
                listed |= {name for name in inside if name.startswith("chapter")}
            assert listed == inside, (f"lmcore.{package}: the README lists {sorted(listed)}, "
                                      f"the package holds {sorted(inside)}")


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
    links = [(name, notebook, " ".join(section.split())) for name, notebook, section in links]  # wrapped titles
    broken = [f"{name}: {notebook}, {section!r}" for name, notebook, section in links
              if not (PACKAGE.parent / notebook).exists() or section not in headings(PACKAGE.parent / notebook)]
    assert not broken, "back-links to a missing chapter or section:\n" + "\n".join(broken)


PUBLIC_DUNDERS = ("__init__", "__call__")  # public although their names start with "_"


def public_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(qualified name, node)`` of every public function of a module: module-level functions and
    methods of public classes (nested public classes too), named without a leading "_" or in
    :data:`PUBLIC_DUNDERS`; also those defined under a module- or class-level ``if``/``try``."""
    found = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                if not node.name.startswith("_"):
                    visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not node.name.startswith("_") or node.name in PUBLIC_DUNDERS:
                    found.append((prefix + node.name, node))
            elif isinstance(node, ast.If):
                visit(node.body + node.orelse, prefix)
            elif isinstance(node, ast.Try):
                visit(node.body + [s for h in node.handlers for s in h.body] + node.orelse + node.finalbody, prefix)

    visit(tree.body, "")
    return found


def missing_annotations(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters of ``node`` without an annotation (``self`` and ``cls`` exempt; ``*args`` and
    ``**kwargs`` by their names), and ``return`` if it has no return annotation (``__init__`` exempt)."""
    arguments = node.args
    parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                  *([arguments.vararg] if arguments.vararg else []), *([arguments.kwarg] if arguments.kwarg else [])]
    missing = [p.arg for p in parameters if p.annotation is None and p.arg not in ("self", "cls")]
    if node.returns is None and node.name != "__init__":
        missing.append("return")
    return missing


def test_missing_annotations_sees_every_kind_of_parameter():
    tree = ast.parse("def f(a, /, b: int, *args, c, **kwargs): pass\n"
                     "class A:\n    def __init__(self, x): pass\n    def g(self) -> None: pass\n"
                     "    def _h(self, y): pass\n    class B:\n        def __call__(self, z): pass\n"
                     "class _C:\n    def k(self, w): pass\n")
    found = {name: missing_annotations(node) for name, node in public_functions(tree)}
    assert found == {"f": ["a", "c", "args", "kwargs", "return"], "A.__init__": ["x"], "A.g": [],
                     "A.B.__call__": ["z", "return"]}


def test_every_public_function_and_method_is_annotated():
    """Every public function and method of lmcore annotates each parameter and its return (not
    ``__init__``'s): the signature tells a student what to pass, in the editor as in the docs."""
    unannotated = []
    for path in MODULES.values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, node in public_functions(tree):
            if missing := missing_annotations(node):
                where = path.relative_to(PACKAGE.parent).as_posix()
                unannotated.append(f"{where}:{node.lineno} {name} [{', '.join(missing)}]")
    assert not unannotated, f"{len(unannotated)} public functions lack annotations:\n" + "\n".join(unannotated)
