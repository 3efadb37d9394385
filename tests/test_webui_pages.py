"""The pages' pre-rendered boards (site/webui/prerender.py, embed.py) and rules diagrams."""

from __future__ import annotations

import pathlib
import re


from engine import Position, from_absolute, to_absolute  # noqa: E402
from webui import prerender  # noqa: E402
from webui.embed import board_from_attrs  # noqa: E402

from engine import TurnBuilder  # noqa: E402

SITE = pathlib.Path(__file__).resolve().parents[1] / "site"
DIV = re.compile(r'<div\s+([^>]*class="[^"]*bg-board[^"]*"[^>]*)>')


def diagrams(page: str) -> list[dict]:
    html = (SITE / page).read_text()
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1))) for m in DIV.finditer(html)]


def test_rules_page_has_the_required_diagrams():
    boards = diagrams("rules.html")
    static = [b for b in boards if b.get("data-live") != "true"]
    assert len(static) >= 8
    captions = " ".join(b.get("data-caption", "") for b in static).lower()
    for word in ("starting", "3-1", "bar", "enters", "bearing off", "gammon", "backgammon"):
        assert word in captions
    assert [b for b in boards if b.get("data-live") == "true"]


def test_rules_diagram_highlights_match_the_engine():
    """Every diagram that shows a picked-up checker lights exactly the engine's destinations."""
    checked = 0
    for b in diagrams("rules.html"):
        if "data-picked" not in b:
            continue
        pos = Position.from_id(b["data-position-id"], turn=b["data-turn"])
        d1, d2 = (int(x) for x in b["data-dice"].split(","))
        picked = b["data-picked"]
        src = from_absolute(pos.turn, picked if picked == "bar" else int(picked))
        dests = TurnBuilder(pos, (d1, d2)).destinations(src)
        want = {str(to_absolute(pos.turn, d)) for d in dests}
        assert {x for x in b["data-legal"].split(",") if x} == want, b.get("data-caption")  # "" = nothing lit
        checked += 1
    assert checked >= 4


def test_rules_result_diagrams_are_what_they_say():
    from engine.game import result_kind

    kinds = {}
    for b in diagrams("rules.html"):
        cap = b.get("data-caption", "").lower()
        if cap.startswith(("a gammon", "a backgammon")):
            pos = Position.from_id(b["data-position-id"], turn=b["data-turn"])
            kinds[cap.split(":")[0]] = result_kind(pos, pos.winner())
    assert kinds == {"a gammon": "gammon", "a backgammon": "backgammon"}


def test_prerender_fills_boards_and_writes_the_palette(tmp_path):
    (tmp_path / "index.html").write_text((SITE / "index.html").read_text())
    (tmp_path / "rules.html").write_text((SITE / "rules.html").read_text())
    prerender.prerender(tmp_path)
    index = (tmp_path / "index.html").read_text()
    assert index.count('data-testid="board"') == 1
    # the review's board starts hidden: left for the review to draw, not parsed on every load
    assert index.count("<svg") == 1
    assert re.search(r'<div id="review-board"[^>]*data-prerender="no"[^>]*>\s*</div>', index)
    assert 'data-position-id="4HPwATDgc/ABMA"' in index
    rules = (tmp_path / "rules.html").read_text()
    assert rules.count('data-testid="diagram"') == len(diagrams("rules.html")) - 1
    assert "--bg-felt" in (tmp_path / "palette.css").read_text()
    assert not (tmp_path / "py").exists()  # the build ships the page's modules (tools/build_site.py)


def test_embed_bad_id_is_reported_not_fatal():
    assert "Not a valid position ID" in board_from_attrs({"data-position-id": "@@@"})
    svg = board_from_attrs({"data-position-id": "4HPwATDgc/ABMA", "data-legal": "5,off,99", "data-dice": "3,1"})
    assert svg.count('data-legal="true"') == 2
