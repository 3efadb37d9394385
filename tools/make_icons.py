#!/usr/bin/env python3
"""Draw the app icons (SVG and PNG) into ``site/icons/`` from code.

    python3 tools/make_icons.py

The icon: a wooden frame around green felt, an ivory and a terracotta point,
a white and a black checker; colours from ``site/webui/palette.py``. The PNGs
are rasterised here with a tiny supersampling renderer (standard library
only), so nothing is downloaded. The outputs are committed; rerun this after
changing the palette.
"""

from __future__ import annotations

import importlib.util
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "site" / "icons"

FALLBACK = {
    "wood": "#6b3f22", "wood_dark": "#4a2914", "felt": "#1f5a43",
    "point_light": "#e9d4a7", "point_dark": "#a8432f",
    "white": "#f6efe0", "white_shade": "#cbbb98", "black": "#2a2a2e", "black_shade": "#0e0e10",
}


def palette() -> dict[str, str]:
    path = ROOT / "site" / "webui" / "palette.py"
    try:
        spec = importlib.util.spec_from_file_location("_palette", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return {**FALLBACK, **module.PALETTE}
    except Exception:  # the palette is optional for the icon
        return FALLBACK


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def shapes(p: dict[str, str], maskable: bool):
    """The icon as (kind, params, colour) in a 0..1 square, back to front."""
    inset = 0.0 if maskable else 0.04   # maskable icons must fill the square
    frame = 0.0 if maskable else 0.14   # corner radius
    felt_in = inset + (0.14 if maskable else 0.08)
    out = [
        ("rrect", (inset, inset, 1 - inset, 1 - inset, frame), p["wood"]),
        ("rrect", (felt_in, felt_in, 1 - felt_in, 1 - felt_in, 0.03), p["felt"]),
    ]
    top, bottom = felt_in, 1 - felt_in
    width = (1 - 2 * felt_in) / 4
    for i in range(4):
        left = felt_in + i * width
        colour = p["point_light"] if i % 2 == 0 else p["point_dark"]
        # points from the top edge, and from the bottom edge offset by one
        out.append(("tri", ((left, top), (left + width, top), (left + width / 2, top + 0.36)), colour))
        colour = p["point_dark"] if i % 2 == 0 else p["point_light"]
        out.append(("tri", ((left, bottom), (left + width, bottom), (left + width / 2, bottom - 0.36)), colour))
    r = 0.13
    out += [
        ("circle", (0.36, 0.62, r), p["white_shade"]),
        ("circle", (0.36, 0.62, r * 0.8), p["white"]),
        ("circle", (0.64, 0.38, r), p["black_shade"]),
        ("circle", (0.64, 0.38, r * 0.8), p["black"]),
    ]
    return out


def _inside(kind, params, x, y) -> bool:
    if kind == "circle":
        cx, cy, r = params
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    if kind == "rrect":
        x0, y0, x1, y1, r = params
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    (ax, ay), (bx, by), (cx, cy) = params
    d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by)
    d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy)
    d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def rasterise(size: int, items, samples: int = 3) -> bytes:
    """RGBA rows for a PNG, ``samples``x``samples`` supersampling."""
    compiled = [(kind, params, rgb(colour)) for kind, params, colour in items]
    offsets = [(i + 0.5) / samples for i in range(samples)]
    n = samples * samples
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for oy in offsets:
                y = (py + oy) / size
                for ox in offsets:
                    x = (px + ox) / size
                    for kind, params, colour in reversed(compiled):
                        if _inside(kind, params, x, y):
                            r += colour[0]; g += colour[1]; b += colour[2]; a += 255
                            break
            if a:
                cover = a // 255
                rows += bytes((r // cover, g // cover, b // cover, a // n))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def svg(items) -> str:
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">']
    for kind, params, colour in items:
        if kind == "circle":
            cx, cy, r = (round(v * 100, 2) for v in params)
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}"/>')
        elif kind == "rrect":
            x0, y0, x1, y1, r = (round(v * 100, 2) for v in params)
            parts.append(
                f'<rect x="{x0}" y="{y0}" width="{round(x1 - x0, 2)}" height="{round(y1 - y0, 2)}" '
                f'rx="{r}" fill="{colour}"/>'
            )
        else:
            pts = " ".join(f"{round(x * 100, 2)},{round(y * 100, 2)}" for x, y in params)
            parts.append(f'<polygon points="{pts}" fill="{colour}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    p = palette()
    OUT.mkdir(parents=True, exist_ok=True)
    regular, maskable = shapes(p, False), shapes(p, True)
    (OUT / "icon.svg").write_text(svg(regular))
    for name, size, items in (
        ("icon-192.png", 192, regular),
        ("icon-512.png", 512, regular),
        ("icon-maskable-512.png", 512, maskable),
        ("apple-touch-icon.png", 180, maskable),
    ):
        (OUT / name).write_bytes(png(size, rasterise(size, items)))
        print(f"wrote {(OUT / name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
