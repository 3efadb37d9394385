"""Build-time step: draw boards into the pages so they show before Python starts.

``tools/build_site.py`` calls ``prerender(dist_dir)`` after copying the site.
It

- writes ``palette.css`` (the board palette as CSS custom properties);
- fills every empty ``<div class="bg-board" ...></div>`` in the built HTML pages
  with the SVG of the position its data attributes describe (the one-element
  board embed; see ``embed.py`` for the attributes), and the game page's
  ``<div id="board" ...>`` with the starting position;
- packs ``webui/`` into ``py/webui.zip`` for the PyScript config
  (``"./py/webui.zip" = "./*"``).

Run by hand: ``python -m webui.prerender dist`` from ``site/``.
"""

from __future__ import annotations

import pathlib
import re
import sys
import zipfile

if __package__ in (None, ""):  # loaded by file path (build_site.py)
    _here = pathlib.Path(__file__).resolve()
    for p in (_here.parents[2], _here.parents[1]):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    from webui.embed import board_from_attrs  # type: ignore  # noqa: E402
    from webui.palette import css  # type: ignore  # noqa: E402
else:
    from .embed import board_from_attrs
    from .palette import css

ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# <div class="bg-board" ...></div> (empty) and the game page's board slot
_EMPTY_DIV = re.compile(r'<div\s+([^>]*\bclass="[^"]*\bbg-board\b[^"]*"[^>]*)>\s*</div>', re.S)
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def _attrs(text: str) -> dict:
    return {k: v for k, v in _ATTR.findall(text)}


def fill_boards(html: str, prefix: str = "p") -> tuple[str, int]:
    """Fill every empty ``.bg-board`` div with its SVG; returns (html, count)."""
    count = 0

    def repl(m: re.Match) -> str:
        nonlocal count
        count += 1
        attrs = _attrs(m.group(1))
        svg = board_from_attrs(attrs, uid=f"{prefix}{count}")
        return f"<div {m.group(1)} data-rendered=\"build\">{svg}</div>"

    return _EMPTY_DIV.sub(repl, html), count


def pack_webui(dist_dir: pathlib.Path) -> pathlib.Path:
    """``py/webui.zip``: webui/ and engine/, all the page's own Python needs
    (the AI and its weights are fetched only by the worker, from packages.zip)."""
    src = pathlib.Path(__file__).resolve().parent
    out = dist_dir / "py" / "webui.zip"
    out.parent.mkdir(parents=True, exist_ok=True)
    files = [(f"webui/{p.name}", p) for p in sorted(src.glob("*.py")) if p.name != "prerender.py"]
    engine_dir = dist_dir / "engine"
    if not engine_dir.is_dir():
        engine_dir = src.parents[1] / "engine"
    files += [(f"engine/{p.relative_to(engine_dir).as_posix()}", p) for p in sorted(engine_dir.rglob("*.py"))
              if "__pycache__" not in p.parts]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return out


def prerender(dist_dir: pathlib.Path) -> None:
    dist_dir = pathlib.Path(dist_dir)
    (dist_dir / "palette.css").write_text(css())
    for page in sorted(dist_dir.glob("*.html")):
        html = page.read_text()
        new, n = fill_boards(html, prefix=page.stem[:1] or "p")
        if n:
            page.write_text(new)
    pack_webui(dist_dir)


if __name__ == "__main__":
    prerender(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist"))
