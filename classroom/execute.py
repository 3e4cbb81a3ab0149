"""Execute chapters top to bottom in a fresh kernel and store them, saying where it is.

    python classroom/execute.py notebooks/04_perplexity.ipynb notebooks/zh/04_perplexity.ipynb

Each chapter is run the way the tests expect it stored (tests/notebooks/test_notebook_hygiene.py): in
a fresh ``python3`` kernel started in the chapter's folder, without saved widget state, each
cell's printout joined into one block (nbconvert's ``CoalesceStreamsPreprocessor``), written
back in place. It is ``jupyter nbconvert --execute --to notebook --inplace`` with those
options, plus one line per cell as it finishes (a chapter can take half a minute):

    04_perplexity.ipynb  [12/40]  2.3 s  from lmcore.ngram import AddK

A cell that raises stops the run and leaves the file as it was.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors import CoalesceStreamsPreprocessor


KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
"""The kernel every chapter names: ipykernel's own spec, which JupyterLab would otherwise rewrite."""


def first_line(source: str, width: int = 60) -> str:
    """The first non-blank line of a cell, cut to ``width`` characters.

    >>> first_line("\\n# a comment\\nx = 1")
    '# a comment'
    """
    line = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def execute(path: Path, out=sys.stdout) -> float:
    """Run ``path`` top to bottom, print a line per code cell to ``out``, store it; return the seconds taken."""
    notebook = nbformat.read(path, as_version=4)
    code = [index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    started = {}

    def cell_started(cell, cell_index, **_):
        started[cell_index] = time.perf_counter()

    def cell_executed(cell, cell_index, **_):
        seconds = time.perf_counter() - started[cell_index]
        print(f"{path.name}  [{code.index(cell_index) + 1}/{len(code)}]  {seconds:4.1f} s  "
              f"{first_line(cell.source)}", file=out, flush=True)

    start = time.perf_counter()
    client = NotebookClient(notebook, kernel_name="python3", store_widget_state=False,
                            resources={"metadata": {"path": str(path.parent)}},
                            on_cell_start=cell_started, on_cell_executed=cell_executed)
    client.execute()
    notebook, _ = CoalesceStreamsPreprocessor().preprocess(notebook, {})
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)  # as JupyterLab writes it, so opening marks nothing modified
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path, help="the chapters to execute and store")
    args = parser.parse_args(argv)
    for path in args.notebooks:
        if path.suffix != ".ipynb" or not path.is_file():
            parser.error(f"{path}: not a notebook file")
    for path in args.notebooks:
        print(f"{path}: stored after {execute(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
