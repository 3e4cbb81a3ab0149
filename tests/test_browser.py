"""The explorers in a real browser: JupyterLab, driven in Debian's chromium by Playwright.

What plain pytest cannot see: that the widgets render in a front end, that a
keyboard move on a slider reaches the kernel, and that the number on the page then
equals the one lmcore's pure functions give. The test serves a copy of
``tests/browser/widgets_demo.ipynb`` (outputs stripped) from a throw-away root,
runs all cells, moves a slider of each explorer with ArrowRight, compares the shown
numbers with values computed here, clicks the test-set button and saves a
screenshot. Only 127.0.0.1 is reachable from the page; the browser is the
system's chromium (never one downloaded by Playwright). Skipped where chromium or
playwright is missing, unless ``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import importlib.util
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
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "tests" / "browser" / "widgets_demo.ipynb"
CHROMIUM = "/usr/bin/chromium"
SCREENSHOT_COPY = Path("/tmp/lmcore-browser-screenshot.png")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
]
# The notebook's inputs, repeated here to compute the expected numbers.
N_TOKENS, SEED, START_LAMBDAS = 5000, 0, (0.1, 0.3, 0.6)
SERVER_START_SECONDS = 30
UI_TIMEOUT_MS = 30_000  # a cold kernel importing matplotlib on a busy machine can take a while


def _unavailable(reason: str):
    if os.environ.get("LMCORE_REQUIRE_EXTRAS"):
        pytest.fail(f"{reason} (LMCORE_REQUIRE_EXTRAS is set)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
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


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's bookkeeping is left


def _stop(pid: int, timeout: float = 5) -> None:
    """SIGTERM, then SIGKILL if ``pid`` is still running after ``timeout`` seconds."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _running(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _stripped_copy(source: Path, target: Path) -> None:
    notebook = json.loads(source.read_text(encoding="utf-8"))
    notebook["metadata"].pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    target.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


@pytest.fixture
def jupyterlab(tmp_path):
    """A JupyterLab server on 127.0.0.1 serving a stripped copy of the demo notebook."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    if importlib.util.find_spec("jupyterlab") is None:  # the server runs in its own process: no import here
        pytest.skip("jupyterlab is not installed")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("playwright (Python) is not installed")

    served = tmp_path / "root"
    served.mkdir()
    _stripped_copy(NOTEBOOK, served / NOTEBOOK.name)
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
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)

    port, token = _free_port(), secrets.token_hex(16)
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
        kernels = _children(server.pid)
        server.terminate()  # SIGTERM: the server shuts its kernels down itself ...
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        for pid in kernels:  # ... and whatever is left (kernels run in their own session) ends here
            _stop(pid)


def test_sliders_move_the_shown_numbers(jupyterlab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)

    from lmcore.widgets import PRESETS, distribution_from_weights, lambda_report, synthetic_order_probs

    base, token = jupyterlab
    heldout, test = synthetic_order_probs(n_tokens=N_TOKENS, seed=SEED)
    start_perplexity = lambda_report(heldout, START_LAMBDAS).perplexity
    moved_lambdas = (0.11, 0.3, 0.59)  # λ1 one step (0.01) to the right; λ3 takes the rest
    moved_perplexity = lambda_report(heldout, moved_lambdas).perplexity
    test_perplexity = lambda_report(test, moved_lambdas).perplexity
    horse_race = PRESETS["horse race"]
    moved_weights = [horse_race.p[0] + 0.001, *horse_race.p[1:]]  # horse 1 one step (0.001) to the right
    moved_entropy = distribution_from_weights(moved_weights, horse_race.q).entropy

    screenshot = tmp_path / "lmcore-browser-screenshot.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 2200})
            context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).hostname
                          == "127.0.0.1" else route.abort())
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(f"{base}/lab/tree/{NOTEBOOK.name}?token={token}&reset")
            # The execution indicator says "idle" before a kernel exists; the status bar
            # names the kernel once it has started.
            idle = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
            kernel_idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\(ipykernel\) \| Idle"))
            expect(kernel_idle).to_have_count(1)
            expect(idle).to_have_count(1)

            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
            prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
            expect(prompts).to_have_count(3)
            for prompt in prompts.all():
                expect(prompt).to_have_text(re.compile(r"\[\d+\]:"))
            expect(idle).to_have_count(1)

            # The λ explorer: the shown perplexity is lambda_report's, before and after a keyboard step.
            heldout_perplexity = page.locator(".lmcore-heldout-perplexity")
            expect(heldout_perplexity).to_have_text(f"{start_perplexity:.4f}")
            page.locator(".lmcore-lambda1 .noUi-handle").focus()
            page.keyboard.press("ArrowRight")
            expect(page.locator(".lmcore-lambda1 .widget-readout")).to_have_text("0.11")
            expect(page.locator(".lmcore-lambda3 .widget-readout")).to_have_text("0.59")
            expect(heldout_perplexity).to_have_text(f"{moved_perplexity:.4f}")
            assert f"{moved_perplexity:.4f}" != f"{start_perplexity:.4f}"

            # The test set, once.
            page.locator(".lmcore-test-button").click()
            expect(page.locator(".lmcore-test-perplexity")).to_have_text(f"{test_perplexity:.4f}")
            expect(page.locator(".lmcore-test-button")).to_be_disabled()

            # The probability explorer: the horse race's 2 bits move when horse 1's weight does.
            entropy = page.locator(".lmcore-entropy")
            expect(entropy).to_have_text("2.0000")
            page.locator(".lmcore-p-weight .noUi-handle").first.focus()
            page.keyboard.press("ArrowRight")
            expect(entropy).to_have_text(f"{moved_entropy:.4f}")
            assert f"{moved_entropy:.4f}" != "2.0000"

            expect(page.locator(".lmcore-map img, img.lmcore-map")).to_have_count(1)
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    shutil.copyfile(screenshot, SCREENSHOT_COPY)
    print(f"screenshot: {screenshot} (copied to {SCREENSHOT_COPY})")
