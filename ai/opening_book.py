"""Build the opening book: the computer's first play at each level, from the real AI.

Dev/build-time only (the site ships its output, ``site/opening-book.json``,
and reads it with ``site/webui/opening_book.py``). The page's main thread
runs the engine but not the AI, which loads in a worker; with the book it
can play the computer's first play itself, before the worker is ready:

- ``opening``: the computer won the opening roll: the start position with
  the computer on roll, each of the 15 non-double rolls;
- ``replies``: the player opened: every distinct position after one of the
  player's legal opening plays (15 rolls; 175 positions), the computer on
  roll, each of the 21 rolls.

Both colours are covered (the computer may be White or Black), levels 1-5.
Each entry is exactly what ``ai.choose(position, d1, d2, level, seed=SEED)``
plays with the dice given high die first, so levels 1-4 keep their noise
(keyed by the seed, the position, the colour and the dice, as always). A
level without noise (5) plays the same for both colours (its search sees
only the checkers), so it is computed once per position and roll and
written for both; the tests compare samples of both colours with the AI.

Format (``FORMAT``), a JSON object: ``format``; ``weights`` (sha256 of the
AI's weight files, to tell a stale book); ``seed``; ``alphabet``; ``turns``;
``sections``: ``[[name, [position IDs], "21 31 ..."], ...]``; ``plays``:
``{level: string}``, one character per entry, the chosen play's index in the
sorted list of the distinct results of the legal plays (each result's
Position ID with the mover still on roll, sorted as strings: independent of
the engine's generation order), written as ``alphabet[index]``. Entries run
in this order: turn (as in ``turns``), section, position, roll.

    python -m ai.opening_book [--out PATH] [--jobs N] [--levels 4 ...]

``--levels`` recomputes only those levels (after a change to their noise)
and keeps the others from the book already at ``--out``, which must have
been built by this generator from the same weights; the result is the same
file a full build would write.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import pathlib
import string
import sys
import time

from engine import BLACK, WHITE, Position

from ai.levels import LEVELS, choose

FORMAT = 1
SEED = 0
#: 92 characters that JSON writes as themselves; index i is ALPHABET[i]
ALPHABET = (string.digits + string.ascii_lowercase + string.ascii_uppercase
            + "".join(c for c in string.punctuation if c not in '"\\'))
TURNS = (BLACK, WHITE)
OPENING_ROLLS = tuple((a, b) for a in range(2, 7) for b in range(1, a))  # 21, 31, 32, ...
REPLY_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))  # 11, 21, 22, ...
WEIGHTS_DIR = pathlib.Path(__file__).resolve().parent / "weights"
DEFAULT_OUT = pathlib.Path(__file__).resolve().parents[1] / "site" / "opening-book.json"


def weights_identity() -> str:
    """sha256 over the AI's weight files (names and bytes, in name order)."""
    h = hashlib.sha256()
    for path in sorted(WEIGHTS_DIR.iterdir()):
        if path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def reply_positions() -> list[str]:
    """Sorted IDs of the distinct positions after a legal opening play, the
    opener's opponent on roll (the same IDs whichever colour opened)."""
    start = Position.start(WHITE)
    return sorted({p.next.id for d1, d2 in OPENING_ROLLS for p in start.legal_plays(d1, d2)})


def sections() -> list[tuple[str, list[str], tuple]]:
    """(name, position IDs, rolls) in the book's order."""
    return [("opening", [Position.start().id], OPENING_ROLLS),
            ("replies", reply_positions(), REPLY_ROLLS)]


def entries(secs=None):
    """Every (turn, position ID, d1, d2) in the book's order (d1 >= d2)."""
    secs = secs or sections()
    for turn in TURNS:
        for _name, ids, rolls in secs:
            for pid in ids:
                for d1, d2 in rolls:
                    yield turn, pid, d1, d2


def sorted_plays(pos: Position, d1: int, d2: int) -> list:
    """The legal plays sorted by their result's Position ID (mover on roll)."""
    return sorted(pos.legal_plays(d1, d2), key=lambda p: p.result.id)


def book_index(pos: Position, d1: int, d2: int, level: int, seed: int = SEED) -> int:
    """The index of the level's play (with ``seed``) among :func:`sorted_plays`."""
    play = choose(pos, d1, d2, level=level, seed=seed)
    return [p.result.id for p in sorted_plays(pos, d1, d2)].index(play.result.id)


def _block(task):
    """One position's characters for one level and colour, and the seconds taken."""
    level, turn, pid, rolls = task
    t0 = time.perf_counter()
    pos = Position.from_id(pid, turn=turn)
    chars = "".join(ALPHABET[book_index(pos, d1, d2, level)] for d1, d2 in rolls)
    return chars, time.perf_counter() - t0


def _header(secs) -> dict:
    """Everything in a book but its plays."""
    return {
        "format": FORMAT,
        "weights": weights_identity(),
        "seed": SEED,
        "alphabet": ALPHABET,
        "turns": list(TURNS),
        "sections": [[name, ids, " ".join(f"{a}{b}" for a, b in rolls)] for name, ids, rolls in secs],
    }


def _same_book(base, header: dict, levels, n_entries: int) -> bool:
    """Whether ``base`` is a book with ``header`` and whole plays for ``levels``."""
    if not isinstance(base, dict) or {k: base.get(k) for k in header} != header:
        return False
    plays = base.get("plays")
    return isinstance(plays, dict) and all(
        isinstance(plays.get(str(lv)), str) and len(plays[str(lv)]) == n_entries for lv in levels)


def build(jobs: int = 1, log=sys.stderr, levels=None, base: dict | None = None) -> dict:
    """Compute the book (``jobs`` processes); progress and timing go to ``log``.

    With ``levels``, compute only those and take the other levels' plays from
    ``base``, a book with the same header (format, weights, seed, entries).

    :raises ValueError: ``base`` missing or built differently.
    """
    t0 = time.perf_counter()
    secs = sections()
    header = _header(secs)
    levels = sorted(LEVELS) if levels is None else sorted(set(levels))
    if not set(levels) <= set(LEVELS):
        raise ValueError(f"no such level in {levels}: levels are 1-{len(LEVELS)}")
    kept = [lv for lv in LEVELS if lv not in levels]
    n_entries = sum(len(ids) * len(rolls) for _n, ids, rolls in secs) * len(TURNS)
    if kept and not _same_book(base, header, kept, n_entries):
        raise ValueError("the existing book was built from other weights or entries: "
                         "build every level (leave out --levels)")
    shared = {lv for lv in LEVELS if not LEVELS[lv].noise}
    # level 5 first: the slow one, so the pool ends on short tasks
    tasks = [(lv, turn, pid, rolls) for lv in sorted(levels, reverse=True)
             for turn in TURNS if not (lv in shared and turn != TURNS[0])
             for _name, ids, rolls in secs for pid in ids]
    print(f"opening book: {len(levels)} level(s) x {n_entries} entries, {len(tasks)} tasks, "
          f"{jobs} job(s)", file=log, flush=True)
    blocks: dict = {}
    seconds = dict.fromkeys(levels, 0.0)
    with multiprocessing.Pool(jobs) if jobs > 1 else _Serial() as pool:
        for i, (task, (chars, secs_taken)) in enumerate(zip(tasks, pool.imap(_block, tasks)), 1):
            blocks[task[:3]] = chars
            seconds[task[0]] += secs_taken
            if i % 50 == 0 or i == len(tasks):
                print(f"  {i}/{len(tasks)} tasks, {time.perf_counter() - t0:.0f} s", file=log, flush=True)
    plays = {str(lv): base["plays"][str(lv)] for lv in kept}
    for lv in levels:
        plays[str(lv)] = "".join(blocks[(lv, turn if lv not in shared else TURNS[0], pid)]
                                 for turn in TURNS for _name, ids, _r in secs for pid in ids)
        assert len(plays[str(lv)]) == n_entries
    for lv in levels:
        print(f"  level {lv}: {seconds[lv]:.1f} s of computing", file=log)
    print(f"opening book: built in {time.perf_counter() - t0:.1f} s", file=log, flush=True)
    return {**header, "plays": {k: plays[k] for k in sorted(plays)}}


class _Serial:
    """A stand-in for a one-process pool: imap is map."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    imap = staticmethod(map)


def dumps(book: dict) -> str:
    """The book's file text: deterministic (sorted keys, one line per field)."""
    return json.dumps(book, indent=1, sort_keys=True) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.opening_book", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--levels", type=int, nargs="+", default=None,
                    help="recompute only these levels, keeping the others from --out")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    base = None
    if args.levels is not None:
        try:
            base = json.loads(args.out.read_text())
        except (OSError, ValueError) as exc:
            ap.error(f"--levels needs the existing book at {args.out}: {exc}")
    try:
        book = build(args.jobs, levels=args.levels, base=base)
    except ValueError as exc:
        ap.error(str(exc))
    text = dumps(book)
    args.out.write_text(text)
    print(f"wrote {args.out} ({len(text.encode())} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
