"""The opening book (site/opening-book.json): fresh, exactly the real AI's
plays, every entry a legal play, and the same lookups in MicroPython."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine import WHITE, Position
from ai import opening_book as gen
from ai.levels import LEVELS, choose
from micropython import run
from webui.opening_book import Book

BOOK_PATH = gen.DEFAULT_OUT
TEXT = BOOK_PATH.read_text()
DATA = json.loads(TEXT)
BOOK = Book(DATA)
ENTRIES = list(gen.entries())


def sample(level: int, n: int) -> list:
    return random.Random(f"book sample {level}").sample(ENTRIES, n)


def test_the_book_is_fresh():
    """Built from the current weights, in this format, over the positions and
    rolls the generator defines, and byte-exact as the generator writes it."""
    assert DATA["weights"] == gen.weights_identity(), "stale: run python -m ai.opening_book --jobs 2"
    assert DATA["format"] == gen.FORMAT
    assert DATA["seed"] == gen.SEED
    assert DATA["alphabet"] == gen.ALPHABET
    assert DATA["turns"] == list(gen.TURNS)
    assert DATA["sections"] == [[name, ids, " ".join(f"{a}{b}" for a, b in rolls)]
                                for name, ids, rolls in gen.sections()]
    assert sorted(DATA["plays"]) == [str(lv) for lv in sorted(LEVELS)]
    assert TEXT == gen.dumps(DATA)


def test_the_book_covers_openings_and_replies():
    assert len(DATA["sections"][1][1]) == 175  # distinct positions after an opening play
    assert len(ENTRIES) == 2 * (15 + 175 * 21)
    for s in DATA["plays"].values():
        assert len(s) == len(ENTRIES)


def test_every_entry_is_a_legal_play():
    """Every entry of every level indexes one of the sorted legal plays."""
    for turn, pid, d1, d2 in ENTRIES:
        pos = Position.from_id(pid, turn=turn)
        plays = gen.sorted_plays(pos, d1, d2)
        for lv in LEVELS:
            k = BOOK.index(pid, turn, d1, d2, lv)
            assert k is not None and 0 <= k < len(plays), (turn, pid, d1, d2, lv, k)
        assert BOOK.play(pos, d1, d2, 3).result == plays[BOOK.index(pid, turn, d1, d2, 3)].result


@pytest.mark.slow
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_book_plays_what_the_ai_plays(level):
    """60 entries per level (both colours): the AI's play with the book's seed."""
    for turn, pid, d1, d2 in sample(level, 60):
        pos = Position.from_id(pid, turn=turn)
        want = choose(pos, d1, d2, level=level, seed=DATA["seed"])
        got = BOOK.play(pos, d1, d2, level)
        assert got.result == want.result, (turn, pid, d1, d2, level, got.notation, want.notation)
        assert BOOK.play(pos, d2, d1, level) == got  # dice in either order


def test_the_levels_keep_their_character():
    """The noisy levels do not all play alike (nor like level 5)."""
    plays = DATA["plays"]
    assert len({plays[str(lv)] for lv in LEVELS}) == len(LEVELS)
    half = len(ENTRIES) // 2
    assert plays["5"][:half] == plays["5"][half:]  # noiseless: the same for both colours
    assert plays["1"][:half] != plays["1"][half:]


def outside_cases() -> list:
    start = Position.start(WHITE)
    after_two = start.legal_plays(3, 1)[0].next.legal_plays(6, 5)[0].next
    later = after_two
    for d1, d2 in ((4, 4), (2, 1), (6, 3), (5, 5), (4, 1)):
        later = later.legal_plays(d1, d2)[-1].next
    return [
        (start, 6, 6, 3),            # an opening roll is never a double
        (after_two, 4, 2, 3),        # the third play of the game
        (start, 3, 1, 0),            # no such level
        (start, 3, 1, 6),
        (later, 5, 2, 2),            # mid-game
        (later.swap(), 5, 2, 2),
    ]


@pytest.mark.parametrize("pos,d1,d2,level", outside_cases())
def test_positions_outside_the_book_give_none(pos, d1, d2, level):
    assert BOOK.play(pos, d1, d2, level) is None


def test_not_a_book_is_refused():
    with pytest.raises(ValueError):
        Book({"format": gen.FORMAT + 1})
    with pytest.raises(ValueError):
        Book([])


def test_micropython_looks_up_the_same_plays():
    """The lookup in MicroPython (the page's main thread) gives the plays CPython does."""
    cases = [(pid, turn, d1, d2, lv) for lv in sorted(LEVELS) for turn, pid, d1, d2 in sample(lv + 10, 12)]
    cases += [(pos.id, pos.turn, d1, d2, lv) for pos, d1, d2, lv in outside_cases()]
    script = (
        "import json\n"
        "from engine import Position\n"
        "from webui.opening_book import Book\n"
        "book = Book(json.load(open('/opening-book.json')))\n"
        f"for pid, turn, d1, d2, lv in {cases!r}:\n"
        "    p = book.play(Position.from_id(pid, turn=turn), d1, d2, lv)\n"
        "    print('-' if p is None else p.notation + ' ' + p.result.id)\n"
    )
    out = run(script, libs=("engine", "webui"), files={"/opening-book.json": str(BOOK_PATH)})
    want = []
    for pid, turn, d1, d2, lv in cases:
        p = BOOK.play(Position.from_id(pid, turn=turn), d1, d2, lv)
        want.append("-" if p is None else p.notation + " " + p.result.id)
    assert out.splitlines() == want


def _opening_only(book: dict) -> dict:
    """``book`` cut to its first section (the opening rolls), both colours."""
    half = len(ENTRIES) // 2
    n = len(gen.OPENING_ROLLS)
    return {**book, "sections": book["sections"][:1],
            "plays": {lv: s[:n] + s[half:half + n] for lv, s in book["plays"].items()}}


def test_rebuilding_one_level_keeps_the_others(monkeypatch):
    """``--levels 4`` recomputes level 4 and keeps the rest: the same book."""
    all_sections = gen.sections
    monkeypatch.setattr(gen, "sections", lambda: all_sections()[:1])
    small = _opening_only(DATA)
    log = io.StringIO()
    assert gen.build(levels=[4], base=small, log=log) == small
    changed = {**small, "plays": {**small["plays"], "4": "0" * len(small["plays"]["4"])}}
    assert gen.build(levels=[4], base=changed, log=log) == small
    for stale in ({**small, "weights": "0" * 64}, {**small, "plays": {"4": small["plays"]["4"]}},
                  DATA, None, []):
        with pytest.raises(ValueError, match="other weights or entries"):
            gen.build(levels=[4], base=stale, log=log)
