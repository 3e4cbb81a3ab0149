"""A native dependency is imported where it is used: with ``tokenizers`` (a Rust wheel) and
``constriction`` (a Rust wheel) unable to load, ``lmcore`` and every package face still import,
and the one function that needs each says which package is missing and which chapter needs it."""

import subprocess
import sys
import textwrap
from pathlib import Path

import lmcore

PACKAGE = Path(lmcore.__file__).parent
FACES = sorted(".".join(path.relative_to(PACKAGE.parent).parent.parts) for path in PACKAGE.rglob("__init__.py"))
BLOCKED = ("tokenizers", "constriction")

# A finder first on sys.meta_path that refuses the blocked packages, as a platform where their
# wheels cannot load would; it runs in a fresh interpreter so that no earlier import hides it.
PRELUDE = textwrap.dedent(f"""
    import importlib, sys
    BLOCKED = {BLOCKED!r}

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{{name}} cannot load on this platform (blocked by the test)")
            return None

    sys.meta_path.insert(0, Refuse())
""")


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=PACKAGE.parent, timeout=300)


def test_faces_are_found():
    assert {"lmcore", "lmcore.text", "lmcore.coding", "lmcore.ngram", "lmcore.neural"} <= set(FACES)


def test_lmcore_and_every_face_import_without_the_native_dependencies():
    result = run(f"""
        for face in {FACES!r}:
            importlib.import_module(face)
        loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
        assert not loaded, loaded
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_bpe_without_tokenizers_names_the_package_and_the_chapter():
    result = run("""
        from lmcore import text
        for call in (lambda: text.train_bpe([["a", "b"]], 4), lambda: text.load_stored_bpe("english")):
            try:
                call()
            except ImportError as error:
                print(error)
            else:
                raise AssertionError("no ImportError")
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert "tokenizers" in line and "chapter 7" in line and "notebooks/07_neural_models.ipynb" in line
        assert "pip install tokenizers" in line


def test_coder_without_constriction_names_the_package_and_the_chapter():
    result = run("""
        from lmcore import coding, ngram
        model = ngram.AddK(2).fit([["a", "b"]])
        try:
            coding.Coder(model)
        except ImportError as error:
            print(error)
        else:
            raise AssertionError("no ImportError")
    """)
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert "constriction" in message and "chapter 3" in message and "notebooks/03_cross_entropy.ipynb" in message
    assert "pip install constriction" in message
