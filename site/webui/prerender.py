"""Build-time step: draw boards into the pages so they show before Python starts.

``tools/build_site.py`` calls ``prerender(dist_dir)`` after copying the site.
It

- writes ``palette.css`` (the board palette as CSS custom properties);
- fills every empty ``<div class="bg-board" ...></div>`` in the built HTML pages
  with the SVG of the position its data attributes describe (the one-element
  board embed; see ``embed.py`` for the attributes), and the game page's
  ``<div id="board" ...>`` with the starting position;
- leaves empty the boards marked ``data-prerender="no"``: boards in panels
  that start hidden (the game page's review board, drawn when a review
  opens). A drawn board is ~27 kB of HTML and ~290 SVG elements that every
  load would parse before the page's Python can start.

Run by hand: ``python -m webui.prerender dist`` from ``site/``.
"""

import pathlib
import re
import sys

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
        attrs = _attrs(m.group(1))
        if attrs.get("data-prerender") == "no":
            return m.group(0)
        count += 1
        svg = board_from_attrs(attrs, uid=f"{prefix}{count}")
        return f"<div {m.group(1)} data-rendered=\"build\">{svg}</div>"

    return _EMPTY_DIV.sub(repl, html), count


def prerender(dist_dir: pathlib.Path) -> None:
    dist_dir = pathlib.Path(dist_dir)
    (dist_dir / "palette.css").write_text(css())
    for page in sorted(dist_dir.glob("*.html")):
        html = page.read_text()
        new, n = fill_boards(html, prefix=page.stem[:1] or "p")
        if n:
            page.write_text(new)


if __name__ == "__main__":
    prerender(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist"))
