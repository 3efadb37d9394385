"""The built site as a deployment: headers, precache manifest, pages, installability.

- Served with netlify.toml's headers: ``application/wasm``, immutable caching
  only under the versioned ``vendor/`` folders, a service worker that is never
  cached, a Content-Security-Policy that names no other origin.
- ``precache-manifest.json`` lists every file of the build that a page loads
  (with its content hash; tools/build_site.py's ``precached()``) and ``sw.js``
  carries the same version.
- Every page of ``site/`` loads under that policy without a console error or a
  request to another origin, and those that boot Python become ready.
- Chromium finds the site installable (manifest, icons, service worker).
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from pathlib import Path

import pytest

import build_site  # tools/ (pyproject's pythonpath)

ROOT = Path(__file__).resolve().parent.parent
#: the pages the build ships (bench.html is a dev tool: e2e/test_ai_speed.py serves it)
PAGES = sorted(p.name for p in (ROOT / "site").glob("*.html") if p.name not in build_site.SITE_DEV_ONLY)


def _head(url: str) -> dict[str, str]:
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD")) as response:
        return {k.lower(): v for k, v in response.headers.items()}


def _vendor_file(site_dir: Path, suffix: str) -> str:
    return next(p for p in (site_dir / "vendor").rglob(f"*{suffix}")).relative_to(site_dir).as_posix()


def test_headers_follow_netlify_toml(base_url, site_dir):
    wasm = _head(base_url + _vendor_file(site_dir, ".wasm"))
    assert wasm["content-type"] == "application/wasm"
    assert "immutable" in wasm["cache-control"]

    page = _head(base_url + "index.html")
    assert "immutable" not in page["cache-control"] and "max-age=0" in page["cache-control"]
    csp = dict(d.strip().split(" ", 1) for d in page["content-security-policy"].split(";"))
    assert "'wasm-unsafe-eval'" in csp["script-src"] and "blob:" in csp["worker-src"]
    for directive, sources in csp.items():  # no other origin, no wildcard, no data: scripts
        if directive == "connect-src":      # but exactly the friend games' default Nostr relays
            from webui.friend_params import DEFAULT_RELAYS, origin

            others = [x for x in sources.split() if x not in ("'self'", "blob:")]
            assert sorted(others) == sorted(origin(u) for u in DEFAULT_RELAYS), sources
            assert all(x.startswith("wss://") and "*" not in x for x in others), sources
            continue
        assert not re.search(r"https?:|\*|wss?:", sources), (directive, sources)
    assert "data:" not in csp["script-src"] and csp["default-src"] == "'self'"

    assert _head(base_url + "sw.js")["cache-control"] == "no-cache"
    assert _head(base_url + "manifest.webmanifest")["content-type"] == "application/manifest+json"


def test_vendor_folders_are_named_by_the_pinned_versions(site_dir):
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    names = sorted(p.name for p in (site_dir / "vendor").iterdir())
    assert names == [f"micropython-{pins['@micropython/micropython-webassembly-pyscript']}",
                     f"nostr-tools-{pins['nostr-tools']}", f"pyodide-{pins['pyodide']}",
                     f"pyscript-{pins['@pyscript/core']}"]


def test_precache_manifest_covers_the_build(site_dir):
    manifest = json.loads((site_dir / "precache-manifest.json").read_text())
    assert set(manifest["files"]) == set(build_site.precached(site_dir))
    for must in ("index.html", "rules.html", "opening-book.json", "py/worker.zip", "webui/ai_worker.py",
                 "py/main/app.bundle", "py/main/rules_app.bundle", "boot.mjs", "mpy-bundle.mjs",
                 "vendor/micropython-1.27.0/micropython.wasm"):
        assert must in manifest["files"], must
    left_out = {p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()} - set(manifest["files"])
    for rel in left_out:  # only what no page loads
        name = rel.rsplit("/", 1)[-1]
        assert (rel in ("sw.js", "precache-manifest.json") or name in build_site.NOT_PRECACHED_NAMES
                or (rel.startswith("vendor/pyscript-") and build_site._pyscript_unused(name))), rel
    for rel, digest in manifest["files"].items():
        assert hashlib.sha256((site_dir / rel).read_bytes()).hexdigest()[:16] == digest, rel
    sw = (site_dir / "sw.js").read_text()
    assert f'"version":"{manifest["version"]}"' in sw
    assert "/*@@BUILD@@*/" not in sw


@pytest.mark.parametrize("name", PAGES)
def test_every_page_loads_under_the_csp_from_this_origin_only(page, page_log, wait_ready, name):
    response = page.goto(name)
    assert response.ok
    assert "wasm-unsafe-eval" in response.headers.get("content-security-policy", "")
    if page.evaluate("document.body.hasAttribute('data-ready')") or name == "bare.html":
        wait_ready(page)
    else:
        page.wait_for_load_state("load")
    page.wait_for_timeout(500)  # late errors
    assert page_log.problems() == []


def test_chromium_finds_the_site_installable(context, page, wait_ready, wait_service_worker):
    page.goto("index.html")
    wait_ready(page)
    wait_service_worker(page)
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, which alone blocks installing.
    assert [e for e in errors if e["errorId"] != "in-incognito"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
