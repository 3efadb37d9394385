"""GNU Backgammon's noisy 0-ply evaluation, for the benchmark's noisy opponents.

Dev/test only (``ai.bench``): gnubg-nn has no noise setting, so the bench
adds gnubg's noise itself, the way gnubg 1.07 does for its predefined players
(Beginner 0.06, Casual 0.05, Intermediate 0.04, Advanced 0.015; all with
"deterministic noise"):

* the noise is added to each of the five outputs of the evaluated position
  (the position after a play, seen by the side then on roll), scaled by 1 for
  the win output, 0.25 for the two gammon outputs and 0.01 for the two
  backgammon outputs; each output is then clamped to [0, 1] and put through
  gnubg's sanity check (gammons at most wins, backgammons at most gammons,
  impossible gammons zero, ...);
* deterministic noise is a function of the board alone: the sum of the 16
  bytes of the MD5 digest of the board, the output's index added to the first
  byte, less 2040 and divided by 295.6. gnubg reads those bytes as ``char``,
  which is signed on x86, so the sum is centred near -8 rather than 2040 and
  the noise has a mean of about -6.9 times the setting on every output; only
  the part that differs between positions (standard deviation about 1 times
  the setting) and the clamping change which play is chosen;
* a finished game (one side has no checkers left) gets no noise.

``tests/reference/gnubg_noise.json.gz`` holds Debian gnubg's own clean and
noisy evaluations of 5,000 positions (the engine's reference corpus, each
side on roll); from the clean ones this module gives the noisy ones to within
1e-5 on every output of 4,979 of them. The other 21 are crashed positions
whose raw lose-gammon output exceeded 1 - win: the clean evaluation caps it
there, gnubg adds the noise before capping, and the capped value no longer
says how far over it was.
"""

from __future__ import annotations

import hashlib

from ai import bearoff

# noise scale of each output: win, win gammon, win backgammon, lose gammon, lose backgammon
_SCALE = (1.0, 0.25, 0.01, 0.25, 0.01)


def deviate(board, output: int) -> float:
    """gnubg's deterministic standard-normal-ish draw for ``board``
    ((not on roll, on roll), 25 points each) and output index 0-4."""
    raw = bytearray(50)
    for i in range(25):
        raw[2 * i] = board[0][i]
        raw[2 * i + 1] = board[1][i]
    raw[0] = (raw[0] + output) & 0xFF
    digest = hashlib.md5(bytes(raw)).digest()
    total = sum(b - 256 if b > 127 else b for b in digest)  # signed char, as on x86
    return (total - 2040.0) / 295.6


def _max_turns(side) -> int:
    """The most rolls a side with every checker home can need to bear off."""
    return len(bearoff.dist(tuple(side[:6]))) - 1


def sanity_check(board, out: list) -> None:
    """gnubg's SanityCheck, in place, on outputs for the side on roll (board[1])."""
    out[0] = min(max(out[0], 0.0), 1.0)
    count, back, cross, gcross = [0, 0], [0, 0], [0, 0], [1, 1]
    for j in (0, 1):
        side = board[j]
        for lo, hi, cw, gw in ((0, 6, 1, 0), (6, 12, 2, 1), (12, 18, 3, 2), (18, 24, 4, 3)):
            n = 0
            for i in range(lo, hi):
                if side[i]:
                    back[j] = i
                    n += side[i]
            count[j] += n
            cross[j] += cw * n
            gcross[j] += gw * n
        if side[24]:
            back[j] = 24
            count[j] += side[24]
            cross[j] += 5 * side[24]
            gcross[j] += 4 * side[24]
    contact = back[0] + back[1] >= 24
    turns = [0, 0]
    if not contact:
        for i in (0, 1):
            turns[i] = _max_turns(board[i]) if back[i] < 6 else cross[i] * 2
        if not turns[1]:
            turns[1] = 1
    if not contact and cross[0] > 4 * (turns[1] - 1):
        out[0] = 1.0  # certain win
    if count[0] < 15:
        out[1] = out[2] = 0.0
    elif not contact:
        if cross[1] > 8 * gcross[0]:
            out[1] = 0.0
        elif gcross[0] > 4 * (turns[1] - 1):
            out[1] = 1.0
        if back[0] < 18:
            out[2] = 0.0
    if not contact and cross[1] > 4 * turns[0]:
        out[0] = 0.0  # certain loss
    if count[1] < 15:
        out[3] = out[4] = 0.0
    elif not contact:
        if cross[0] > 8 * gcross[1] - 4:
            out[3] = 0.0
        elif gcross[1] > 4 * turns[0]:
            out[3] = 1.0
        if back[1] < 18:
            out[4] = 0.0
    out[1] = min(out[1], out[0])
    out[3] = min(out[3], 1.0 - out[0])
    out[2] = min(out[2], out[1])
    out[4] = min(out[4], out[3])
    if contact:
        for i in (1, 2, 3, 4):
            if out[i] < 1e-4:
                out[i] = 0.0


def noisy(board, probs, noise: float) -> tuple:
    """gnubg's 0-ply outputs of ``board`` with deterministic noise ``noise``,
    from its clean outputs ``probs`` (both for the side on roll, board[1])."""
    if not noise or not any(board[0]) or not any(board[1]):
        return tuple(probs)
    out = [min(max(p + deviate(board, i) * noise * _SCALE[i], 0.0), 1.0)
           for i, p in enumerate(probs)]
    sanity_check(board, out)
    return tuple(out)
