"""Fixtures for the end-to-end tests: the built site, served, in Chromium.

- ``site_dir`` (session): ``dist/`` (or ``$BG_E2E_DIST``), rebuilt once per
  session with ``tools/build_site.py`` when missing or older than its inputs
  (``site/``, ``engine/``, ``ai/``, the build tools, the npm pins).
  ``BG_E2E_NO_BUILD=1`` serves it as it is.
- ``base_url`` (session): that folder served on a free localhost port by
  ``tools/serve.py`` in a thread, with netlify.toml's headers (so the
  Content-Security-Policy is the deployed one) and ``application/wasm``.
  pytest-playwright's ``page``/``context`` use it: ``page.goto("index.html")``.
- The browser is Debian's Chromium (``/usr/bin/chromium``, or
  ``$BG_CHROMIUM``) through Playwright's ``executable_path``, headless: no
  browser download, ever.
- ``page_log``: what went wrong on the pages of a test (console errors, uncaught
  exceptions, CSP violations, requests to other origins, HTTP errors).
- ``shoot(page, name)``: a screenshot into ``e2e/screenshots/`` (look at them).
- ``wait_ready(page)`` (fixture): waits for ``body[data-ready="true"]`` (Python has taken
  over the page), failing with the page's errors when it does not come;
  ``wait_service_worker(page)`` (fixture): the site is precached and the
  service worker controls the page.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent

import serve  # noqa: E402  (tools/serve.py)

CHROMIUM = os.environ.get("BG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
SCREENSHOTS = ROOT / "e2e" / "screenshots"
#: Generous: Python (Pyodide + PyScript) boots in 2-6 s here; a loaded CI
#: machine may take several times that.
READY_TIMEOUT_MS = 90_000

BUILD_INPUTS = ["site", "engine", "ai", "tools/build_site.py", "package.json", "package-lock.json"]
SKIP_PARTS = {"__pycache__", "training", ".pytest_cache", ".hypothesis"}

def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(ROOT / "e2e"):
            item.add_marker(pytest.mark.e2e)


# --------------------------------------------------------------------------- build


def _newest_input() -> float:
    newest = 0.0
    for name in BUILD_INPUTS:
        path = ROOT / name
        paths = [path] if path.is_file() else path.rglob("*") if path.is_dir() else []
        for p in paths:
            if p.is_file() and not SKIP_PARTS.intersection(p.relative_to(ROOT).parts):
                newest = max(newest, p.stat().st_mtime)
    return newest


def _build(out: Path) -> None:
    if not (ROOT / "node_modules" / "pyodide" / "package.json").is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.exit("node_modules/ is missing and npm is not installed: run scripts/test.sh", 3)
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    cmd = [sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if result.returncode:
        pytest.exit(f"site build failed:\n{result.stdout}\n{result.stderr}", 3)
    print(result.stdout.strip())


@pytest.fixture(scope="session")
def site_dir() -> Path:
    out = Path(os.environ.get("BG_E2E_DIST", ROOT / "dist")).resolve()
    stamp = out / "precache-manifest.json"
    if os.environ.get("BG_E2E_NO_BUILD") != "1":
        if not stamp.is_file() or stamp.stat().st_mtime < _newest_input():
            _build(out)
    if not (out / "index.html").is_file():
        pytest.exit(f"{out}/index.html missing: the site build produced no page", 3)
    return out


@pytest.fixture(scope="session")
def base_url(site_dir: Path):
    server, url = serve.serve_in_thread(site_dir)
    yield url
    server.shutdown()
    server.server_close()


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser_type_launch_args(pytestconfig) -> dict:
    if not Path(CHROMIUM).is_file():
        pytest.exit(f"{CHROMIUM} not found: install Debian's chromium (scripts/test.sh does)", 3)
    return {
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": not pytestconfig.getoption("--headed"),
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}, "service_workers": "allow"}


class PageLog:
    """Problems seen on a context's pages; ``problems()`` lists them."""

    IGNORED = (
        # PyScript warns that workers can't reach window/document without
        # SharedArrayBuffer (no COOP/COEP on purpose: the worker only computes).
        "Unable to use `window` or `document` in worker",
    )

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.errors: list[str] = []
        self.csp: list[str] = []
        self.external: list[str] = []
        self.http: list[str] = []

    def attach(self, context) -> None:
        context.on("page", self._watch_page)
        for page in context.pages:
            self._watch_page(page)
        context.on("request", self._on_request)
        context.on("response", self._on_response)

    def _watch_page(self, page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda err: self.errors.append(f"uncaught: {err}"))

    def _on_console(self, msg) -> None:
        text = msg.text
        if "Content Security Policy" in text:
            self.csp.append(text)
        elif msg.type == "error" and not any(s in text for s in self.IGNORED):
            self.errors.append(text)

    def _on_request(self, request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("blob", "data") and url.hostname not in ("127.0.0.1", "localhost"):
            self.external.append(request.url)

    def _on_response(self, response) -> None:
        if response.status >= 400:
            self.http.append(f"{response.status} {response.url}")

    def problems(self, *, errors: bool = True) -> list[str]:
        found = [f"CSP: {t}" for t in self.csp] + [f"other origin: {u}" for u in self.external]
        found += [f"HTTP {h}" for h in self.http]
        if errors:
            found += self.errors
        return found


@pytest.fixture
def page_log(context, base_url) -> PageLog:
    log = PageLog(base_url)
    log.attach(context)
    return log


def _wait_ready(page, log: PageLog | None = None, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait until Python has taken over the page (``body[data-ready="true"]``)."""
    try:
        page.wait_for_selector('body[data-ready="true"]', state="attached", timeout=timeout_ms)
    except Exception as err:
        seen = "\n".join(log.problems()) if log else "(no page log)"
        raise AssertionError(f"{page.url}: Python not ready after {timeout_ms / 1000:.0f} s; "
                             f"page problems:\n{seen}") from err


PRECACHE_VERSION = """async () => {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return null;
    for (const name of await caches.keys()) {
        const hit = await (await caches.open(name)).match("__precache-manifest__");
        if (hit) return (await hit.json()).version;
    }
    return null;
}"""


def _wait_service_worker(page, timeout_ms: int = 60_000) -> str:
    """Wait until the service worker is active, controls the page and has
    precached the whole build (the marker sw.js writes last); returns the
    build version. Polled with ``evaluate``, which awaits the check's promise:
    ``wait_for_function`` took the promise itself for a true value, so until
    2026-12-04 this returned at once, before the precache was done."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        version = page.evaluate(PRECACHE_VERSION)
        if version:
            return version
        if time.monotonic() > deadline:
            raise AssertionError(f"{page.url}: the service worker did not precache the site within "
                                 f"{timeout_ms / 1000:.0f} s")
        page.wait_for_timeout(250)


@pytest.fixture
def wait_ready(page_log):
    """``wait_ready(page, timeout_ms=...)``: Python has taken over the page."""
    return lambda page, timeout_ms=READY_TIMEOUT_MS: _wait_ready(page, page_log, timeout_ms)


@pytest.fixture
def wait_service_worker():
    """``wait_service_worker(page) -> version``: the site is precached and the
    service worker controls the page."""
    return _wait_service_worker


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def shoot(screenshot_dir: Path):
    def take(page, name: str, **kwargs) -> Path:
        path = screenshot_dir / f"{name}.png"
        page.screenshot(path=str(path), **kwargs)
        return path

    return take
