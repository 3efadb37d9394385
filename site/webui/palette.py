"""The one colour palette of the board, shared by every page.

The renderer draws with these colours and ``css()`` turns them into CSS custom
properties (``--bg-felt`` ...) written to ``palette.css`` at build time, so the
game page, the rules page and any embedded board look exactly alike.
"""

#: (name, colour) in the order ``css()`` writes them
PALETTE_ITEMS = (
    # wooden frame
    ("wood", "#6b3f22"),        # frame base
    ("wood_light", "#8a5a34"),  # grain highlight
    ("wood_dark", "#4a2914"),   # grain shadow / inner edge
    ("wood_text", "#f1dcb8"),   # point numbers on the frame
    # playing field
    ("felt", "#1f5a43"),        # felt centre
    ("felt_edge", "#153f2f"),   # felt vignette
    ("point_light", "#e9d4a7"),  # ivory triangles
    ("point_dark", "#a8432f"),  # terracotta triangles
    ("bar", "#5a331b"),         # the bar between the halves
    ("tray", "#3b2312"),        # bear-off trays
    # checkers
    ("white", "#f6efe0"),       # White's checkers
    ("white_shade", "#cbbb98"),  # their rim and shading
    ("white_text", "#3a2a18"),  # count printed on a white checker
    ("black", "#2a2a2e"),       # Black's checkers
    ("black_shade", "#0e0e10"),  # their rim
    ("black_text", "#f3e6c8"),  # count printed on a black checker
    # feedback
    ("legal", "#ffd54a"),       # legal destination glow
    ("picked", "#5ec8ff"),      # the picked-up checker
    ("focus", "#ffffff"),       # keyboard focus ring
    ("hint", "#7ee0a0"),        # hinted play (and the best play in a review)
    ("played", "#ff8a65"),      # the play made, in a review
    ("movable", "#5ec8ff"),     # ring on a checker that can move after the roll
    ("refused", "#ff5a4a"),     # cross on a checker that cannot move
    # page
    ("page", "#f4efe6"),        # page background
    ("ink", "#2b1d12"),         # body text
    ("accent", "#a8432f"),      # links and primary buttons
)
PALETTE = dict(PALETTE_ITEMS)


def css() -> str:
    """The palette as a ``:root`` block of CSS custom properties.

    >>> css().splitlines()[1]
    '  --bg-wood: #6b3f22;'
    """
    lines = [":root {"]
    for name, value in PALETTE_ITEMS:
        lines.append(f"  --bg-{name.replace('_', '-')}: {value};")
    lines.append("}")
    return "\n".join(lines) + "\n"
