"""What the real-browser tests share: Debian's chromium driven by Playwright, offline, and a
throw-away JupyterLab server on 127.0.0.1.

Never a browser downloaded by Playwright (``executable_path`` is the system's chromium),
and every request that is not to 127.0.0.1 is aborted. A test module imports what it
needs (``from browser_support import ...``; pytest puts ``tests/`` on the path). Where
chromium or playwright is missing the tests skip, unless ``LMCORE_REQUIRE_EXTRAS`` is set
(CI), where that fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urlparse

import optional_extras
import pytest
from optional_extras import unavailable  # noqa: F401  (re-exported for the browser tests)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
MATHJAX3_EXTENSION = "@jupyterlab/mathjax3-extension"
SLIDESHOW_CHAPTER = ROOT / "notebooks" / "02_entropy.ipynb"  # what tests/browser/test_browser_slides.py presents
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
]
SERVER_START_SECONDS = 120  # a machine three times slower than this one, busy with other tests
UI_TIMEOUT_MS = 90_000  # a cold kernel importing matplotlib on a busy machine three times slower than ours


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def children(pid: int) -> list[int]:
    """Descendants of ``pid`` (the kernels a server started), read from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, ppid in parents.items() if ppid == parent]
        found += kids
        frontier += kids
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's bookkeeping is left


def stop(pid: int, timeout: float = 5) -> None:
    """SIGTERM, then SIGKILL if ``pid`` is still running after ``timeout`` seconds."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if running(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stripped_copy(source: Path, target: Path) -> None:
    """``source`` without outputs, execution counts or widget state, written to ``target``."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    notebook["metadata"].pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    target.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def require_browser() -> None:
    """Skip (or, under ``LMCORE_REQUIRE_EXTRAS``, fail) unless chromium and playwright are here."""
    optional_extras.require("chromium")
    optional_extras.require("playwright")


@contextlib.contextmanager
def jupyterlab_server(tmp_path: Path, notebooks: Sequence[Path]) -> Iterator[tuple[str, str]]:
    """A JupyterLab server on 127.0.0.1 serving stripped copies of ``notebooks``: yields (base URL, token).

    Throw-away Jupyter and IPython folders, no news pop-up, lmcore importable from this
    checkout; on exit the server and every kernel it started are stopped.
    """
    require_browser()
    served = tmp_path / "root"
    served.mkdir()
    for notebook in notebooks:
        stripped_copy(notebook, served / notebook.name)
    shutil.copytree(ROOT / "notebooks" / "images", served / "images")  # as beside the chapters: the Binder badge
    env = dict(os.environ)
    for variable in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR",
                     "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR"):
        folder = tmp_path / variable.lower()
        folder.mkdir()
        env[variable] = str(folder)
    # Without this, a news pop-up covers the page.
    settings = tmp_path / "jupyterlab_settings_dir" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    # As Binder's postBuild removes it: jupyterlab-rise's JupyterLab-3 maths extension, which
    # JupyterLab 4 lists as incompatible; the maths on the pages must render without it.
    labconfig = tmp_path / "jupyter_config_dir" / "labconfig"
    labconfig.mkdir()
    (labconfig / "page_config.json").write_text(json.dumps({"disabledExtensions": {MATHJAX3_EXTENSION: True}}))
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)

    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               "--port-retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={served}",
               "--LabApp.extension_manager=readonly"]  # no PyPI look-ups from the extension manager
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log_path = tmp_path / "jupyterlab.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited with {server.returncode}:\n{log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                log_tail = log_path.read_text()[-2000:]
                pytest.fail(f"JupyterLab did not answer within {SERVER_START_SECONDS} s:\n{log_tail}")
            time.sleep(0.2)
        yield base, token
    finally:
        kernels = children(server.pid)
        server.terminate()  # SIGTERM: the server shuts its kernels down itself ...
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        for pid in kernels:  # ... and whatever is left (kernels run in their own session) ends here
            stop(pid)


def local_only_context(browser, outside: list[str] | None = None, **options):
    """A browser context in which every request not to 127.0.0.1 is aborted (and listed in ``outside``)."""
    context = browser.new_context(**options)

    def local_only(route):
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            if outside is not None:
                outside.append(route.request.url)
            route.abort()

    context.route("**/*", local_only)
    return context


def launch_chromium(playwright):
    """Debian's chromium, headless, with the flags that keep it quiet and offline."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)


def run_all_cells(page, base: str, token: str, notebook_name: str, n_code_cells: int) -> None:
    """Open ``notebook_name`` in JupyterLab, wait for its kernel, run all cells and wait until each
    of the ``n_code_cells`` code cells has run and the kernel is idle again."""
    from playwright.sync_api import expect

    page.goto(f"{base}/lab/tree/{notebook_name}?token={token}&reset")
    # The execution indicator says "idle" before a kernel exists; the status bar
    # names the kernel once it has started.
    idle = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    kernel_idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\(ipykernel\) \| Idle"))
    expect(kernel_idle).to_have_count(1)
    expect(idle).to_have_count(1)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
    expect(prompts).to_have_count(n_code_cells)
    for prompt in prompts.all():
        expect(prompt).to_have_text(re.compile(r"\[\d+\]:"))
    expect(idle).to_have_count(1)


def wait_for_kernel_idle(page, base: str, token: str, notebook_name: str,
                         timeout_s: float = UI_TIMEOUT_MS / 1000) -> None:
    """Wait until ``page``'s notebook ``notebook_name`` has a kernel that is connected and idle.

    RISE's slideshow starts its kernel some seconds after the slides show, and a Shift+Enter
    before that is dropped: the cell stays ``[ ]:``. The server lists the session (named after
    the notebook; its path may be an id) with the kernel's state and connections; the page's
    execution indicator says "idle" both before a kernel exists and once it is ready, so it is
    read after the server's answer.
    """
    from playwright.sync_api import expect

    deadline = time.monotonic() + timeout_s
    while True:
        with urllib.request.urlopen(f"{base}/api/sessions?token={token}", timeout=10) as response:
            sessions = json.load(response)
        kernels = [session["kernel"] for session in sessions if session.get("kernel")
                   and notebook_name in (session.get("name"), Path(session.get("path", "")).name)]
        if any(kernel["execution_state"] == "idle" and kernel["connections"] > 0 for kernel in kernels):
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"no connected, idle kernel for {notebook_name} after {timeout_s:.0f} s: {kernels}")
        page.wait_for_timeout(200)  # not time.sleep: the page's requests wait on this thread's route handler
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")).to_have_count(1)


def settled_box(locator, interval_s: float = 0.2, timeout_s: float = UI_TIMEOUT_MS / 1000) -> dict:
    """``locator``'s bounding box once it has stopped moving (two reads ``interval_s`` apart agree).

    A mouse drag aims at coordinates: read them while the slide still settles (the explorer's
    outputs render and push it a few pixels) and the press lands beside the handle.
    """
    deadline = time.monotonic() + timeout_s
    box = locator.bounding_box()
    while True:
        locator.page.wait_for_timeout(interval_s * 1000)  # serves the page's routed requests meanwhile
        settled, box = box, locator.bounding_box()
        if box == settled and box is not None:
            return box
        if time.monotonic() > deadline:
            raise AssertionError(f"{locator} still moves after {timeout_s} s: {settled} then {box}")
