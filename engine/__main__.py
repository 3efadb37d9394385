"""Command line: ``python -m engine moves ID D1 D2`` and ``python -m engine bench``.

``moves`` prints one line per distinct legal play, ``NOTATION<TAB>RESULT_ID``,
RESULT_ID being the position after the play with the mover still on roll.
With no ID it reads ``ID D1 D2`` lines from stdin and answers each with its
play lines and one empty line.  Bad input: one line on stderr, exit code 2.
"""
import argparse
import sys

from .errors import EngineError
from .movegen import check_dice
from .position import Position


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line (exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{message} (see python -m engine --help)")


def _die(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"bad die {text!r}: dice are whole numbers from 1 to 6") from None


def moves_lines(position_id: str, d1: str, d2: str) -> list[str]:
    pos = Position.from_id(position_id)
    a, b = check_dice(_die(d1), _die(d2))
    return [f"{p.notation}\t{p.result.id}" for p in pos.legal_plays(a, b)]


def _moves(args) -> int:
    if args.request:
        if len(args.request) != 3:
            raise UsageError("usage: python -m engine moves POSITION_ID DIE1 DIE2")
        lines = moves_lines(*args.request)
        sys.stdout.write("".join(line + "\n" for line in lines))
        return 0
    status = 0
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        try:
            if len(parts) != 3:
                raise UsageError(f"bad request {raw.strip()!r}: expected 'POSITION_ID DIE1 DIE2'")
            lines = moves_lines(*parts)
        except (EngineError, UsageError) as exc:
            print(f"error: {exc}", file=sys.stderr, flush=True)
            sys.stdout.write("\n")
            sys.stdout.flush()
            status = 2
            continue
        sys.stdout.write("".join(line + "\n" for line in lines) + "\n")
        sys.stdout.flush()
    return status


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m engine", description="Backgammon rules engine")
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("moves", help="list the legal plays of a position and roll")
    m.add_argument("request", nargs="*", help="POSITION_ID DIE1 DIE2 (omit to read lines from stdin)")
    b = sub.add_parser("bench", help="print legal-play generation and self-play speed")
    b.add_argument("--positions", type=int, default=1000)
    b.add_argument("--games", type=int, default=50)
    b.add_argument("--profile", action="store_true")
    try:
        args = parser.parse_args(argv)
        if args.cmd == "moves":
            return _moves(args)
        from .bench import main as bench_main

        bench_main(args.positions, args.games, args.profile)
        return 0
    except (EngineError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
