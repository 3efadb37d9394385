"""Command line (protocol in docs/contracts.md):

``python -m ai play --level N [--seed S]``
    long-lived: for each stdin line ``ID D1 D2`` writes one line
    ``NOTATION<TAB>RESULT_ID`` (RESULT_ID: the position after the play, the
    mover still on roll; no legal play: empty notation and RESULT_ID = ID),
    flushed. Blank lines are ignored.
``python -m ai hint ID D1 D2 [--level N] [--json]``
    every legal play, best first, one per line:
    ``NOTATION<TAB>EQUITY<TAB>WIN<TAB>WIN_G<TAB>WIN_BG<TAB>LOSE_G<TAB>LOSE_BG<TAB>PLY``
    (cubeless equity for the player on roll, gammons counting), or a JSON list.

The Position ID carries no colour: the player on roll is whoever is on roll.
Bad input: one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, no usage dump
        raise _Usage(message)


def _parse_roll(pid: str, d1: str, d2: str):
    from engine import DiceError, Position, PositionIdError, check_dice

    try:
        pos = Position.from_id(pid)
    except (PositionIdError, ValueError) as exc:
        raise _Usage(str(exc)) from None
    try:
        a, b = int(d1), int(d2)
    except ValueError:
        raise _Usage(f"bad dice {d1!r} {d2!r}: dice are whole numbers from 1 to 6") from None
    try:
        check_dice(a, b)
    except DiceError as exc:
        raise _Usage(str(exc)) from None
    return pos, a, b


def _play(level: int, seed) -> int:
    from ai.levels import choose

    out = sys.stdout
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 3:
            raise _Usage(f"bad request {line.strip()!r}: expected 'ID D1 D2'")
        pos, d1, d2 = _parse_roll(*parts)
        play = choose(pos, d1, d2, level=level, seed=seed)
        if play is None:
            out.write(f"\t{pos.id}\n")
        else:
            out.write(f"{play.notation}\t{play.result.id}\n")
        out.flush()
    return 0


def _hint(pid: str, d1: str, d2: str, level: int, as_json: bool) -> int:
    from ai.hint import hint

    pos, a, b = _parse_roll(pid, d1, d2)
    hints = hint(pos, a, b, level=level)
    if as_json:
        print(json.dumps([h.as_dict() for h in hints]))
    else:
        for h in hints:
            print(f"{h.notation}\t{h.equity:+.4f}\t{h.win:.4f}\t{h.win_gammon:.4f}\t"
                  f"{h.win_backgammon:.4f}\t{h.lose_gammon:.4f}\t{h.lose_backgammon:.4f}\t{h.ply}")
    return 0


def _level(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad level {text!r}: levels are 1 to 5") from None
    if not 1 <= n <= 5:
        raise argparse.ArgumentTypeError(f"bad level {text!r}: levels are 1 to 5")
    return n


def main(argv=None) -> int:
    ap = _Parser(prog="python -m ai", add_help=True)
    sub = ap.add_subparsers(dest="cmd", parser_class=_Parser)
    p = sub.add_parser("play", help="answer 'ID D1 D2' lines with the level's play")
    p.add_argument("--level", type=_level, required=True)
    p.add_argument("--seed", type=int, default=None)
    h = sub.add_parser("hint", help="ranked plays with equities")
    h.add_argument("id")
    h.add_argument("d1")
    h.add_argument("d2")
    h.add_argument("--level", type=_level, default=5)
    h.add_argument("--json", action="store_true")
    try:
        a = ap.parse_args(argv)
        if a.cmd == "play":
            return _play(a.level, a.seed)
        if a.cmd == "hint":
            return _hint(a.id, a.d1, a.d2, a.level, a.json)
        raise _Usage("expected a command: play or hint")
    except _Usage as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
