"""The SVG renderer: a pure function of position and view (site/webui/render.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine import Position, build  # noqa: E402
from webui import render  # noqa: E402
from webui.palette import PALETTE, css  # noqa: E402
from webui.render import View, render_board  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("data-point"): el for el in root.iter() if el.get("data-point")}


def test_start_position_dom_contract():
    pos = Position.start()
    root = parse(render_board(pos, View(dice=(3, 1), me="white")))
    assert root.tag == NS + "svg"
    assert root.get("data-testid") == "board"
    assert root.get("data-position-id") == "4HPwATDgc/ABMA"
    assert root.get("data-turn") == "white"
    assert root.get("data-dice") == "3,1"
    assert root.get("data-me") == "white"
    assert root.get("viewBox") == f"0 0 {render.WIDTH} {render.HEIGHT}"
    pts = points(root)
    assert set(pts) == {str(p) for p in range(1, 25)} | {"bar", "off"}
    assert pts["13"].get("aria-label") == "point 13, 5 white checkers"
    assert pts["1"].get("aria-label") == "point 1, 2 black checkers"
    assert pts["2"].get("aria-label") == "point 2, empty"
    assert pts["bar"].get("aria-label").startswith("bar, 0 white checkers, 0 black checkers")
    assert "data-me" not in parse(render_board(pos)).attrib
    assert parse(render_board(pos)).get("data-dice") == ""


def test_only_legal_destinations_are_marked():
    root = parse(render_board(Position.start(), View(dice=(3, 1), legal={5, 7}, picked=8)))
    legal = [el.get("data-point") for el in root.iter() if el.get("data-legal")]
    assert sorted(legal) == ["5", "7"]
    assert all(el.get("data-legal") == "true" for el in root.iter() if el.get("data-legal"))
    picked = [el.get("data-point") for el in root.iter() if el.get("data-picked")]
    assert picked == ["8"]
    pts = points(root)
    assert pts["5"].get("aria-label") == "point 5, empty, legal destination"
    assert pts["8"].get("aria-label") == "point 8, 3 white checkers, checker picked up"
    assert not [el for el in parse(render_board(Position.start())).iter() if el.get("data-legal")]


def test_off_and_bar_can_be_marked():
    pos = build("w 6:1 5:2 off:12; b 24:2 bar:1 off:12", turn="white")
    root = parse(render_board(pos, View(dice=(6, 5), legal={"off"}, picked=6)))
    assert [el.get("data-point") for el in root.iter() if el.get("data-legal")] == ["off"]
    pts = points(root)
    assert "12 white checkers" in pts["off"].get("aria-label")
    assert "1 black checker" in pts["bar"].get("aria-label")
    root = parse(render_board(pos.swap(), View(dice=(2, 1), picked="bar")))
    assert points(root)["bar"].get("data-picked") == "true"


def test_stacks_above_five_show_a_count():
    pos = build("w 6:9 8:6; b 19:15", turn="white")
    root = parse(render_board(pos))
    g6 = points(root)["6"]
    assert len([c for c in g6.iter(NS + "g") if "checker" in (c.get("class") or "")]) == 5
    assert [t.text for t in g6.iter(NS + "text")] == ["9"]
    g19 = points(root)["19"]
    assert [t.text for t in g19.iter(NS + "text")] == ["15"]


@pytest.mark.parametrize("bottom", ["white", "black"])
def test_home_board_is_bottom_right(bottom):
    """Each player sees their own home board bottom-right, point 1 (own) at the corner."""
    home_corner = 1 if bottom == "white" else 24
    x, top = render.point_column(bottom, home_corner)
    assert not top and x == render.FIELD_END - render.PW
    far = 24 if bottom == "white" else 1
    x, top = render.point_column(bottom, far)
    assert top and x == render.FIELD_END - render.PW
    # every point has its own column
    cols = {render.point_column(bottom, p) for p in range(1, 25)}
    assert len(cols) == 24
    for p in range(1, 25):
        x, top = render.point_column(bottom, p)
        cx, cy = render.checker_center(bottom, p, 0)
        assert render.hit_test(bottom, cx, cy) == p
    assert render.hit_test(bottom, render.BAR_X + 5, 300) == "bar"
    assert render.hit_test(bottom, render.TRAY_X + 5, 300) == "off"


def test_bottom_attribute_and_turn_override():
    pos = Position.start()
    root = parse(render_board(pos, View(bottom="black", turn="black", position_id="X")))
    assert root.get("data-bottom") == "black"
    assert root.get("data-turn") == "black"
    assert root.get("data-position-id") == "X"


def test_dice_doubles_opening_and_used():
    pos = Position.start()
    root = parse(render_board(pos, View(dice=(4, 4), dice_left=(4, 4))))
    dice = [g for g in root.iter(NS + "g") if (g.get("class") or "").startswith("die ")]
    assert len(dice) == 4
    assert sum("used" in g.get("class") for g in dice) == 2
    root = parse(render_board(pos, View(opening=(5, 3), dice=(5, 3))))
    dice = [g for g in root.iter(NS + "g") if (g.get("class") or "").startswith("die ")]
    assert sorted(g.get("class") for g in dice) == ["die black", "die white"]
    assert sorted(g.get("data-die") for g in dice) == ["3", "5"]


def test_pip_counts_and_turn_shown():
    pos = Position.start()
    svg = render_board(pos)
    assert svg.count(">167<") == 2
    assert 'class="pips white on-roll"' in svg


def test_focus_and_diagrams():
    pos = Position.start()
    root = parse(render_board(pos, View(focus=13)))
    assert points(root)["13"].get("tabindex") == "0"
    assert points(root)["12"].get("tabindex") == "-1"
    root = parse(render_board(pos, View(testid=None, interactive=False, uid="d1")))
    assert root.get("data-testid") is None
    assert points(root)["13"].get("tabindex") is None
    assert 'id="d1-felt"' in render_board(pos, View(uid="d1"))


def test_animation_respects_reduced_motion():
    pos = build("w 24:2 13:5 8:3 6:4 5:1; b 1:2 12:5 17:3 19:5", turn="white")
    assert "animateTransform" in render_board(pos, View(moved=(8, 5, "white")))
    assert "animateTransform" not in render_board(pos, View(moved=(8, 5, "white"), animate=False))


def test_palette_css():
    text = css()
    for name, value in PALETTE.items():
        assert f"--bg-{name.replace('_', '-')}: {value};" in text
    assert re.fullmatch(r"#[0-9a-f]{6}", PALETTE["felt"])


def test_exactly_one_point_in_the_tab_order():
    pos = Position.start()
    for view in (View(), View(tab_stop=13), View(focus="bar", tab_stop=13)):
        root = parse(render_board(pos, view))
        zero = [el.get("data-point") for el in root.iter() if el.get("tabindex") == "0"]
        assert len(zero) == 1
    assert [el.get("data-point") for el in parse(render_board(pos, View(tab_stop=13))).iter() if el.get("tabindex") == "0"] == ["13"]


def test_hint_arrows():
    pos = Position.start()
    svg = render_board(pos, View(dice=(3, 1), hint=((8, 5), (6, 5))))
    root = parse(svg)
    hint = [g for g in root.iter(NS + "g") if g.get("class") == "hint"]
    assert len(hint) == 1 and len(list(hint[0].iter(NS + "line"))) == 2
    assert 'class="hint"' not in render_board(pos, View(dice=(3, 1)))


def test_a_rotated_board_turns_a_quarter_and_keeps_its_words_upright():
    """Portrait phones: the same board a quarter turn clockwise (viewBox swapped),
    every point number, pip count and checker count turned back upright."""
    from engine import Position
    from webui.render import HEIGHT, STRETCH, WIDTH, View, render_board

    flat = render_board(Position.start(), View())
    svg = render_board(Position.start(), View(rotated=True))
    assert f'viewBox="0 0 {HEIGHT} {round(WIDTH * STRETCH, 1):g}"' in svg and 'data-rotated="true"' in svg
    assert f'<g transform="translate({HEIGHT} 0) rotate(90) scale({STRETCH} 1)">' in svg and svg.endswith("</g></svg>")
    # round things stay round: every checker is unstretched about its centre
    assert svg.count('<g class="checker') == flat.count('<g class="checker') == 30
    assert svg.count(f'<g transform="matrix({1 / STRETCH:.4f} 0 0 1 ') >= 30
    assert svg.count('class="num"') == flat.count('class="num"') == 24
    nums = [part for part in svg.split('<text class="num"')[1:]]
    assert all(p.split(">", 1)[0].count("rotate(-90") == 1 for p in nums)
    assert svg.count('class="pips') == 2 and all('rotate(-90' in p.split(">", 1)[0] for p in svg.split('class="pips')[1:])
    assert svg.count("data-point=") == flat.count("data-point=") == 26
