#!/usr/bin/env python3
"""Build the complete static site into ``dist/``.

Run from anywhere (paths are relative to the repository root)::

    npm ci                       # fetches the pinned pyodide and @pyscript/core
    python3 tools/build_site.py  # -> dist/

What ends up in ``dist/``:

- everything in ``site/`` (minus Python caches);
- ``vendor/pyodide-<version>/``: the Pyodide runtime files needed to boot
  offline (``pyodide.mjs``, ``pyodide.asm.mjs``, ``pyodide.asm.wasm``,
  ``python_stdlib.zip``, ``pyodide-lock.json``);
- ``vendor/pyscript-<version>/``: PyScript's ``dist/`` (``core.js``,
  ``core.css`` and their chunks, without source maps);
- ``engine/`` and ``ai/``: the runtime Python packages (``*.py`` and data
  files; never ``ai/training/``, tests or caches), for PyScript's ``[files]``,
  and the same two packages in one archive, ``py/packages.zip``, which a
  PyScript config can unpack in one fetch::

      [files]
      "./py/packages.zip" = "./*"

- whatever ``site/webui/prerender.py``'s ``prerender(dist_dir)`` writes
  (called when that file exists);
- ``precache-manifest.json``: ``{"version": ..., "files": {path: sha256}}``,
  the content-hashed list the service worker precaches; the same data is
  stamped into ``dist/sw.js`` so that every deploy with different content is a
  byte-different service worker (which is how browsers detect an update).

The vendor directories carry the package version in their path, so
``netlify.toml`` can serve them as immutable.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
NODE_MODULES = ROOT / "node_modules"

#: Pyodide files needed to boot (the asm module is ``.mjs`` in 0.28+/314,
#: ``.js`` before: whichever exists is taken).
PYODIDE_FILES = ["pyodide.mjs", "pyodide-lock.json", "python_stdlib.zip", "pyodide.asm.wasm"]
PYODIDE_ASM = ["pyodide.asm.mjs", "pyodide.asm.js"]

#: Runtime Python packages shipped to the browser.
PY_PACKAGES = ["engine", "ai"]
#: Directory names never shipped from them.
SKIP_DIRS = {"__pycache__", "training", "tests", "test", ".pytest_cache", ".mypy_cache", ".hypothesis"}
#: File names never shipped from ``site/`` or the Python packages.
SKIP_SUFFIXES = (".pyc", ".pyo", ".map", ".swp", "~")
SKIP_NAMES = {".DS_Store", "Thumbs.db", "conftest.py"}

#: The placeholder in ``site/sw.js`` replaced by the build's manifest.
SW_PLACEHOLDER = "/*@@BUILD@@*/ null"
#: Files in dist/ that the service worker must not precache.
NOT_PRECACHED = {"sw.js", "precache-manifest.json", "_headers", "_redirects"}

ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed timestamp: same inputs -> same bytes


class BuildError(Exception):
    """A clear, one-line reason the build cannot go on."""


def _skip_file(name: str) -> bool:
    return name in SKIP_NAMES or name.startswith(".") or name.endswith(SKIP_SUFFIXES)


def _walk(src: Path, *, python_package: bool = False):
    """Yield files under ``src`` (sorted) that belong in the site."""
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if _skip_file(name):
                continue
            if python_package and (name.startswith("test_") or name.endswith("_test.py")):
                continue
            yield Path(dirpath) / name


def _package_version(name: str) -> str:
    pkg = NODE_MODULES / name / "package.json"
    if not pkg.is_file():
        raise BuildError(f"{pkg.relative_to(ROOT)} not found: run `npm ci` first")
    return json.loads(pkg.read_text())["version"]


def _pinned_version(name: str) -> str:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return deps[name]


def vendor(out: Path) -> dict[str, str]:
    """Copy Pyodide and PyScript into ``out/vendor``; return {package: dir url}."""
    dirs = {}
    for npm_name, short in (("pyodide", "pyodide"), ("@pyscript/core", "pyscript")):
        version = _package_version(npm_name)
        pinned = _pinned_version(npm_name)
        if version != pinned:
            raise BuildError(
                f"node_modules has {npm_name}@{version} but package.json pins {pinned}: run `npm ci`"
            )
        dirs[short] = f"vendor/{short}-{version}"

    py_src = NODE_MODULES / "pyodide"
    py_dst = out / dirs["pyodide"]
    py_dst.mkdir(parents=True)
    asm = [name for name in PYODIDE_ASM if (py_src / name).is_file()]
    if not asm:
        raise BuildError(f"no {' or '.join(PYODIDE_ASM)} in node_modules/pyodide")
    for name in PYODIDE_FILES + asm[:1]:
        if not (py_src / name).is_file():
            raise BuildError(f"node_modules/pyodide/{name} is missing")
        shutil.copy2(py_src / name, py_dst / name)

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
    return dirs


def copy_site(out: Path) -> None:
    if not SITE.is_dir():
        raise BuildError("site/ not found")
    for path in _walk(SITE):
        dst = out / path.relative_to(SITE)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dst)


def copy_python(out: Path) -> list[str]:
    """Copy engine/ and ai/ into ``out`` and zip them into ``out/py/packages.zip``."""
    shipped: list[Path] = []
    for package in PY_PACKAGES:
        src = ROOT / package
        if not src.is_dir():
            print(f"build_site: note: {package}/ does not exist yet, not shipped", file=sys.stderr)
            continue
        for path in _walk(src, python_package=True):
            rel = path.relative_to(ROOT)
            dst = out / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dst)
            shipped.append(rel)
    (out / "py").mkdir(exist_ok=True)
    with zipfile.ZipFile(out / "py" / "packages.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for rel in shipped:
            info = zipfile.ZipInfo(rel.as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (ROOT / rel).read_bytes())
    return [rel.as_posix() for rel in shipped]


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


VENDOR_REF = re.compile(r"vendor/(pyodide|pyscript)-(\d[\w.+-]*?)/")


def check_vendor_refs(out: Path, dirs: dict[str, str]) -> None:
    """Fail if a page points at a vendored version that this build lacks."""
    wanted = {short: path.split("-", 1)[1] for short, path in dirs.items()}
    for path in sorted(out.rglob("*")):
        if path.suffix not in (".html", ".toml", ".json", ".js", ".py") or "vendor" in path.parts:
            continue
        for match in VENDOR_REF.finditer(path.read_text(errors="replace")):
            if match.group(2) != wanted[match.group(1)]:
                raise BuildError(
                    f"{path.relative_to(out)} refers to {match.group(0)} but this build vendors "
                    f"{dirs[match.group(1)]}/"
                )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(out: Path) -> dict:
    """Hash every precached file, write the manifest and stamp ``sw.js``."""
    files = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = path.relative_to(out).as_posix()
        if rel in NOT_PRECACHED or path.name.endswith(".map"):
            continue
        files[rel] = _sha256(path)[:16]
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
        shipped = copy_python(tmp)
        did_prerender = prerender and run_prerender(tmp)
        check_vendor_refs(tmp, dirs)
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
    return {"dirs": dirs, "python_files": len(shipped), "prerendered": did_prerender, **manifest}


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
    print(
        f"build_site: {args.out} version {info['version']}: {len(info['files'])} files precached, "
        f"{size / 1e6:.1f} MB, {info['python_files']} Python package files, "
        f"prerender {'ran' if info['prerendered'] else 'absent'}, "
        f"{', '.join(info['dirs'].values())} ({time.perf_counter() - started:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
