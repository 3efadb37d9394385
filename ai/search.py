"""Evaluating plays: static (0-ply) evaluation of every legal play, and a
gnubg-style move filter followed by a one-roll lookahead (1-ply: all 21
rolls, the opponent's best 0-ply reply) on the best few candidates.

Probabilities are always ``(win, win_g, win_bg, lose_g, lose_bg)`` for a named
side; equity is cubeless with gammons and backgammons counting
(:func:`ai.net.equity`).

Positions evaluated by the nets are "boards" ``(opponent, mover)`` for the
player on roll. Sibling positions (all plays from one position, all replies
to one candidate) share one base encoding, and each is evaluated from the
base's hidden pre-activation plus the rows of the inputs that changed.

In the lookahead, a small pruning net (``weights/prune.bin``, distilled
from the contact net by ``python -m ai.training.prune``) ranks each roll's
contact replies first, and only its best :data:`PRUNE_KEEP` get the contact
net, as gnubg prunes its deeper plies: the same opponent's reply in about 97%
of rolls, at about a third of the contact net's evaluations.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from engine import Play, Position, result_positions

from ai import bearoff, encoder
from ai.net import equity, feature_diff, invert, nets, prune_net, sane

# (d1, d2, weight out of 36) for the 21 distinct rolls
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))
# In the lookahead, how many of a roll's contact replies (ranked by the small
# pruning net) the contact net evaluates to find the opponent's best.
PRUNE_KEEP = 4


def win_probs(loser: Sequence[int]) -> tuple:
    """Probabilities for a side that has just borne off its last checker;
    ``loser`` is the other side in its own gnubg layout."""
    if sum(loser) < 15:
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    bg = 1.0 if any(loser[18:25]) else 0.0  # in the winner's home board or on the bar
    return (1.0, 1.0, bg, 0.0, 0.0)


class _Base:
    """A shared starting point for evaluating sibling boards."""

    __slots__ = ("feats", "pre")

    def __init__(self, board):
        self.feats = encoder.encode(board)
        self.pre: dict = {}


class Evaluator:
    """0-ply and 1-ply evaluation with the contact net, the race net and the
    bear-off database."""

    def __init__(self):
        self.contact, self.race = nets()
        self.prune = prune_net()
        self.evals = 0  # static evaluations done (for benchmarks)

    # --- static evaluation of a board (player on roll) -------------------------
    def board(self, board, base: _Base | None = None, feats=None) -> tuple:
        """Probabilities for the player on roll of ``board`` = (opponent, mover)
        (``feats``: its encoding, if already made)."""
        self.evals += 1
        if feats is None:
            feats = encoder.encode(board)
        contact = feats[-1][0] == encoder.CONTACT
        if not contact and bearoff.applies(board):
            return bearoff.probabilities(board)
        net = self.contact if contact else self.race
        return sane(net.output(_packed(net, feats, base)))

    def after(self, r: Position, base: _Base | None = None) -> tuple:
        """Probabilities, for the side that just played, of a play's result
        ``r`` (that side still on roll in ``r``), at 0-ply."""
        if not any(r.mover):
            return win_probs(r.opponent)
        return invert(self.board((r.mover, r.opponent), base))

    def plays0(self, pos: Position, results: Sequence[Position]) -> list[tuple]:
        """0-ply probabilities (for the mover of ``pos``) of each result."""
        base = _Base((pos.mover, pos.opponent))
        return [self.after(r, base) for r in results]

    # --- one-roll lookahead -------------------------------------------------
    def ply1(self, r: Position) -> tuple:
        """1-ply probabilities for the side that played into ``r``: the mean,
        over the opponent's 21 rolls, of the 0-ply value after the opponent's
        best (0-ply) reply."""
        if not any(r.mover):
            return win_probs(r.opponent)
        rn = r.swap()  # the opponent on roll
        base_board = (r.opponent, r.mover)  # us on roll, before their reply
        base = _Base(base_board)
        acc = [0.0] * 5
        for d1, d2, w in ROLLS:
            replies = result_positions(rn, d1, d2)
            if not replies:
                p = self.board(base_board, base)
            else:
                p = self.best_reply(replies, base)
            for k in range(5):
                acc[k] += w * p[k]
        return tuple(a / 36.0 for a in acc)

    def best_reply(self, replies: Sequence[Position], base: _Base) -> tuple:
        """Our probabilities (on roll again) after the opponent's best reply
        among ``replies`` (their results, the opponent still to move in them),
        by our 0-ply value, the lowest for us.

        With more than :data:`PRUNE_KEEP` contact replies, the pruning net
        ranks them first and only its best :data:`PRUNE_KEEP` get the contact
        net (races and bear-offs always get their own evaluation)."""
        best = None
        best_eq = 9.0
        prune = self.prune if len(replies) > PRUNE_KEEP else None
        ranked = []
        for q in replies:
            if not any(q.mover):  # the opponent bears off its last checker
                p = invert(win_probs(q.opponent))
            else:
                board = (q.mover, q.opponent)
                feats = encoder.encode(board)
                if prune is not None and feats[-1][0] == encoder.CONTACT:
                    ranked.append((equity(prune.output(_packed(prune, feats, base))), board, feats))
                    continue
                p = self.board(board, base, feats)
            e = equity(p)
            if e < best_eq:
                best_eq = e
                best = p
        if ranked:
            ranked.sort(key=_first)
            for _, board, feats in ranked[:PRUNE_KEEP]:
                p = self.board(board, base, feats)
                e = equity(p)
                if e < best_eq:
                    best_eq = e
                    best = p
        return best


def _first(t):
    return t[0]


def _packed(net, feats, base: _Base | None) -> int:
    """The net's packed hidden pre-activation for ``feats``: from ``base``'s
    (a sibling's) by the changed inputs when that is shorter."""
    if base is not None:
        diff = feature_diff(base.feats, feats)
        if len(diff) < len(feats):
            pre = base.pre.get(net)
            if pre is None:
                pre = base.pre[net] = net.pre(base.feats)
            return net.delta(pre, diff)
    return net.pre(feats)


class Candidate(NamedTuple):
    """A ranked play."""

    play: Play
    probs: tuple  # (win, win_g, win_bg, lose_g, lose_bg) for the mover
    equity: float
    ply: int  # depth it was last evaluated at


_EVALUATOR: list = []


def evaluator() -> Evaluator:
    if not _EVALUATOR:
        _EVALUATOR.append(Evaluator())
    return _EVALUATOR[0]


def rank(pos: Position, d1: int, d2: int, plies: int = 1, max_candidates: int = 6,
         threshold: float = 0.12, plays: Sequence[Play] | None = None) -> list[Candidate]:
    """Every legal play of ``pos`` for the roll, best first.

    All plays get a 0-ply evaluation; with ``plies`` = 1 the filter keeps at
    most ``max_candidates`` plays within ``threshold`` equity of the best, and
    those are re-evaluated with the one-roll lookahead and ranked first.
    """
    ev = evaluator()
    if plays is None:
        plays = pos.legal_plays(d1, d2)
    if not plays:
        return []
    results = [p.result for p in plays]
    return refine(plays, results, ev.plays0(pos, results), plies, max_candidates, threshold)


def refine(plays: Sequence, results: Sequence[Position], probs: Sequence[tuple], plies: int = 1,
           max_candidates: int = 6, threshold: float = 0.12) -> list[Candidate]:
    """Rank ``plays`` (any labels) by their results' 0-ply ``probs``, best
    first; with ``plies`` = 1 the move filter's survivors are re-evaluated
    with the one-roll lookahead and ranked first (see :func:`rank`)."""
    eqs = [equity(pr) for pr in probs]
    order = sorted(range(len(eqs)), key=lambda i: -eqs[i])
    cands = [Candidate(plays[i], probs[i], eqs[i], 0) for i in order]
    if plies >= 1 and len(order) > 1:
        best = eqs[order[0]]
        top = [i for i in order[:max_candidates] if eqs[i] >= best - threshold]
        if len(top) > 1:
            ev = evaluator()
            deep = []
            for i in top:
                pr = ev.ply1(results[i])
                deep.append(Candidate(plays[i], pr, equity(pr), 1))
            deep.sort(key=lambda c: -c.equity)
            cands = deep + cands[len(top):]
    return cands
