"""Engine checks whose printed record must be identical in CPython and MicroPython.

Run as a script: the test prepends ``MODE = "..."`` and ``INPUT = "path"`` and
compares what CPython and MicroPython print (tests/test_engine_micropython.py).
Modes:

- ``corpus``: INPUT has lines ``POSITION_ID`` or ``POSITION_ID D1D2 RESULT_ID NOTATION``
  (gnubg's notation of one play); for every position and each of the 21 rolls
  it prints the number of plays, a digest of the sorted result IDs and a
  digest of the plays in order with their notation, after checking that every
  notation parses back to its play; for a gnubg line, the ID its notation
  parses to.
- ``games``: INPUT has seeds, one a line; each plays a game of random legal
  plays (dice and choices from ``Dice(seed)``) and prints its whole record.
- ``dice``: INPUT has seeds; prints 60 dice, an opening roll and the state.
- ``turns``: INPUT has lines ``POSITION_ID D1 D2``; prints TurnBuilder's
  sources, destinations and the result of following its first moves.
"""
import hashlib

from engine import Dice, Game, Position, TurnBuilder, parse_play
from engine.bench import random_game

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).digest()[:8].hex()


_plays: dict = {}  # (position ID, roll) -> (position, legal plays) of the gnubg lines


def corpus_lines(line: str) -> None:
    parts = line.split(" ", 3)
    if len(parts) == 4:  # gnubg's notation of one play
        d1, d2 = int(parts[1][0]), int(parts[1][1])
        key = parts[0] + parts[1]
        if key not in _plays:
            _plays.clear()
            pos = Position.from_id(parts[0])
            _plays[key] = (pos, pos.legal_plays(d1, d2))
        pos, plays = _plays[key]
        play = parse_play(pos, parts[3], d1, d2, plays)
        print("G", parts[0], parts[1], play.result.id, play.result.id == parts[2])
        return
    pos = Position.from_id(parts[0])
    out = [pos.id]
    for d1, d2 in ROLLS:
        plays = pos.legal_plays(d1, d2)
        ids = [p.result.id for p in plays]
        record = "|".join(p.notation + ">" + i for p, i in zip(plays, ids))
        back = all(parse_play(pos, p.notation, d1, d2, plays) is p for p in plays)
        out.append(f"{d1}{d2}:{len(plays)}:{digest(','.join(sorted(ids)))}:{digest(record)}:{int(back)}")
    print(" ".join(out))


def game_lines(seed: int) -> None:
    game = random_game(Dice(seed))
    print("game", seed, game.opening, len(game.history), game.winner, game.result_kind,
          str(game.points()), str(game.points(level=2)), str(game.points(level=5)))
    for e in game.history:
        print(e.color, "%d%d" % e.dice, e.notation or "-", e.before_id, e.after_id)
    saved = game.to_dict()
    again = Game.from_dict(saved)
    print("reloaded", again.position.id, again.turn, again.to_dict() == saved)


def dice_lines(seed: int) -> None:
    d = Dice(seed)
    print(seed, "".join(str(d.die()) for _ in range(60)), d.opening(), d.roll(), d.below(1000003), d.getstate())


def turn_lines(line: str) -> None:
    pid, a, b = line.split()
    pos = Position.from_id(pid)
    t = TurnBuilder(pos, (int(a), int(b)))
    out = [pid, a + b, str(t.no_play), str(t.forced), str(sorted(t.sources()))]
    while not t.is_complete:
        src = sorted(t.sources())[-1]
        dests = t.destinations(src)
        out.append(f"{src}->" + ",".join(f"{k}:{'/'.join(str(s.dst) for s in v)}" for k, v in sorted(dests.items())))
        t.move(src, sorted(dests)[0])
    out.append("done " + (t.play.notation if t.play else "-") + " " + t.position.id)
    while t.undo() is not None:
        pass
    out.append(str(t.position == pos) + " " + str(sorted(t.next_steps(), key=tuple)))
    print(" ".join(out))


HANDLERS = {"corpus": corpus_lines, "turns": turn_lines,
            "games": lambda line: game_lines(int(line)), "dice": lambda line: dice_lines(int(line))}

if __name__ == "__main__":
    with open(INPUT) as f:  # noqa: F821 - INPUT and MODE are prepended by the test
        for raw in f:
            line = raw.strip()
            if line:
                HANDLERS[MODE](line)  # noqa: F821
