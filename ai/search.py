"""Evaluating plays: static (0-ply) evaluation of every legal play, and a
gnubg-style move filter followed by a one-roll lookahead (1-ply: all 21
rolls, the opponent's best 0-ply reply) on the best few candidates, and
for level 5 a two-roll lookahead (2-ply) on the best two when they are
close, within a budget counted in plays (:meth:`Evaluator.look`).

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
of rolls, at about a third of the contact net's evaluations. The pruning
net and the race net read only the board inputs, so they are evaluated
straight from checker counts (:class:`ai.net.BoardTable`), without an
encoding. In a 2-ply look our own best play to each roll is chosen the same
way, with the contact net evaluating only the pruning net's best
:data:`LOOK_KEEP`.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from engine import Play, Position, result_positions

from ai import bearoff, encoder
from ai.net import BoardTable, backs, equity, feature_diff, invert, nets, prune_net, sane

# (d1, d2, weight out of 36) for the 21 distinct rolls
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))
# In the lookahead, how many of a roll's contact replies (ranked by the small
# pruning net) the contact net evaluates to find the opponent's best.
PRUNE_KEEP = 4
# In a 2-ply look, how many of each of our own rolls' plays the contact net
# evaluates (the opponent's replies keep PRUNE_KEEP): the pruning net's best
# one. Keeping 4 chose a little better on held-out decisions (ai/README.md)
# but took 1.5x as long.
LOOK_KEEP = 1
# The order a 2-ply look takes the opponent's rolls in (indices into ROLLS):
# the non-doubles first, each twice as likely as a double, so that a look cut
# short by its budget has deepened as much of the dice's weight as it can.
LOOK_ORDER = tuple(sorted(range(len(ROLLS)), key=lambda j: -ROLLS[j][2]))


def win_probs(loser: Sequence[int]) -> tuple:
    """Probabilities for a side that has just borne off its last checker;
    ``loser`` is the other side in its own gnubg layout."""
    if sum(loser) < 15:
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    bg = 1.0 if any(loser[18:25]) else 0.0  # in the winner's home board or on the bar
    return (1.0, 1.0, bg, 0.0, 0.0)


class _Base:
    """A shared starting point for evaluating sibling boards: its encoding,
    its rearmost checkers, and each net's (or board table's) packed
    pre-activation, made when first needed."""

    __slots__ = ("board", "feats", "backs", "pre")

    def __init__(self, board):
        self.board = board
        self.feats = encoder.encode(board)
        self.backs = backs(board)
        self.pre: dict = {}


class Evaluator:
    """0-ply, 1-ply and 2-ply evaluation with the contact net, the race net
    and the bear-off database."""

    def __init__(self):
        self.contact, self.race = nets()
        self.prune = prune_net()
        self.prune_table = BoardTable(self.prune, True) if self.prune is not None else None
        self.race_table = BoardTable(self.race, False)
        self.evals = 0  # static evaluations done (for benchmarks)
        self.looked = 0  # plays a 2-ply look has valued at its second ply (its budget's unit)

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

    # --- lookahead ----------------------------------------------------------
    def ply1(self, r: Position, replies: list | None = None) -> tuple:
        """1-ply probabilities for the side that played into ``r``: the mean,
        over the opponent's 21 rolls, of the 0-ply value after the opponent's
        best (0-ply) reply. ``replies``: a list to append, roll by roll, the
        pair (that 0-ply value, that best reply), the reply None where the
        opponent cannot move, for :meth:`ply2` and :meth:`look`."""
        if not any(r.mover):
            return win_probs(r.opponent)
        rn = r.swap()  # the opponent on roll
        base = _Base((r.opponent, r.mover))  # us on roll, before their reply
        acc = [0.0] * 5
        for d1, d2, w in ROLLS:
            results = result_positions(rn, d1, d2)
            if not results:
                p, q = self.board(base.board, base), None
            else:
                p, q = self.best_reply(results, base)
            if replies is not None:
                replies.append((p, q))
            for k in range(5):
                acc[k] += w * p[k]
        return tuple(a / 36.0 for a in acc)

    def ply2(self, r: Position, keep: int | None = None, replies: Sequence | None = None) -> tuple:
        """2-ply probabilities for the side that played into ``r``: over the
        opponent's 21 rolls, after its best (0-ply, pruned) reply, our 1-ply
        value on roll: over our 21 rolls, the 0-ply value of our best play
        (the contact net evaluating the pruning net's best ``keep`` of a
        roll's contact plays; default :data:`LOOK_KEEP`). ``replies``: the
        pairs (0-ply value, best reply) :meth:`ply1` found for each roll."""
        return self.look([(r, replies)], keep)[0]

    def look(self, cands: Sequence, keep: int | None = None, budget: int | None = None) -> list[tuple]:
        """The 2-ply probabilities (:meth:`ply2`) of each of ``cands``, pairs
        (``r``, the (value, reply) pairs :meth:`ply1` found for it, or None),
        the opponent's rolls taken in :data:`LOOK_ORDER`, each for every
        candidate in turn.

        With a ``budget``: once the look has valued that many of our plays
        at its second ply (:attr:`looked`), the rolls not yet begun keep
        their 1-ply value (the 0-ply value after the opponent's best reply)
        for every candidate, so the candidates are still compared over the
        same rolls at the same depth. The work is counted, not timed, so
        the result is the same on every machine."""
        if keep is None:
            keep = LOOK_KEEP
        todo = []  # (r, replies, values by roll) of the candidates still in play
        vals = []
        for r, replies in cands:
            if not any(r.mover):
                vals.append(None)
                continue
            if replies is None:
                replies = []
                self.ply1(r, replies)
            v = [p for p, _ in replies]
            vals.append(v)
            todo.append((r, replies, v))
        start = self.looked
        for j in LOOK_ORDER:
            if budget is not None and self.looked - start >= budget:
                break
            for r, replies, v in todo:
                q = replies[j][1]
                if q is None:
                    v[j] = self.on_roll1(r, keep)  # they cannot move: we are on roll in r
                elif not any(q.mover):
                    v[j] = invert(win_probs(q.opponent))  # they bore off their last checker
                else:
                    v[j] = self.on_roll1(q.swap(), keep)
        out = []
        for (r, _), v in zip(cands, vals):
            if v is None:
                out.append(win_probs(r.opponent))
                continue
            acc = [0.0] * 5
            for (d1, d2, w), p in zip(ROLLS, v):
                for k in range(5):
                    acc[k] += w * p[k]
            out.append(tuple(a / 36.0 for a in acc))
        return out

    def on_roll1(self, pos: Position, keep: int | None = None) -> tuple:
        """1-ply probabilities for ``pos``'s mover, on roll: over its 21 rolls,
        the 0-ply value of its best play (pruned as :meth:`best_reply`). In a
        bear-off the database's value, which already plays every roll best."""
        if bearoff.applies((pos.opponent, pos.mover)):
            return self.board((pos.opponent, pos.mover))
        base = _Base((pos.mover, pos.opponent))
        acc = [0.0] * 5
        for d1, d2, w in ROLLS:
            results = result_positions(pos, d1, d2)
            if results:
                self.looked += len(results)
                p = invert(self.best_reply(results, base, keep)[0])
            else:
                p = invert(self.board(base.board, base))
            for k in range(5):
                acc[k] += w * p[k]
        return tuple(a / 36.0 for a in acc)

    def best_reply(self, replies: Sequence[Position], base: _Base, keep: int | None = None) -> tuple:
        """(probabilities, reply): the best of ``replies`` (sibling results of
        one roll, their player still the mover in them) for that player, by
        0-ply; the probabilities are for the other side, on roll after it
        (the lowest equity for that side). ``base``: the board before the
        play, with that other side on roll.

        With more than ``keep`` replies, the pruning net ranks the contact
        ones first, straight from their checker counts (it reads only the
        board inputs: :class:`ai.net.BoardTable`), and only its best ``keep``
        are encoded for the contact net (races and bear-offs always get their
        own evaluation)."""
        if keep is None:
            keep = PRUNE_KEEP
        best = best_q = None
        best_eq = 9.0
        prune = self.prune if len(replies) > keep else None
        ranked = []
        for q in replies:
            if not any(q.mover):  # its player bears off the last checker: nothing is better
                return invert(win_probs(q.opponent)), q
            board = (q.mover, q.opponent)
            bk = backs(board)
            if bk[0] + bk[1] >= 24:  # contact (see encoder.is_contact)
                if prune is not None:
                    ranked.append((prune.equity(self._table_pre(self.prune_table, base, board, bk)), board, q))
                    continue
                p = self.board(board, base)
            elif bearoff.applies(board):
                self.evals += 1
                p = bearoff.probabilities(board)
            else:  # a race: the race net reads only the board inputs
                self.evals += 1
                p = sane(self.race.output(self._table_pre(self.race_table, base, board, bk)))
            e = equity(p)
            if e < best_eq:
                best_eq, best, best_q = e, p, q
        if ranked:
            ranked.sort(key=_first)
            for _, board, q in ranked[:keep]:
                p = self.board(board, base)
                e = equity(p)
                if e < best_eq:
                    best_eq, best, best_q = e, p, q
        return best, best_q

    @staticmethod
    def _table_pre(table: BoardTable, base: _Base, board, bk) -> int:
        """The packed pre-activation of ``board`` (rearmost indices ``bk``)
        by ``table``, from ``base``'s."""
        acc = base.pre.get(table)
        if acc is None:
            acc = base.pre[table] = table.pre(base.board, base.backs)
        return table.sibling(acc, base.board, base.backs, board, bk)


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
    # its 1-ply equity, for a play evaluated again at 2-ply (its equity otherwise):
    # the plays left at 1-ply are compared with the best at that depth
    ply1_equity: float = 0.0


_EVALUATOR: list = []


def evaluator() -> Evaluator:
    if not _EVALUATOR:
        _EVALUATOR.append(Evaluator())
    return _EVALUATOR[0]


def rank(pos: Position, d1: int, d2: int, plies: int = 1, max_candidates: int = 6,
         threshold: float = 0.12, plays: Sequence[Play] | None = None,
         look: float = 0.0, look_budget: int | None = None, look_n: int = 2) -> list[Candidate]:
    """Every legal play of ``pos`` for the roll, best first.

    All plays get a 0-ply evaluation; with ``plies`` = 1 the filter keeps at
    most ``max_candidates`` plays within ``threshold`` equity of the best, and
    those are re-evaluated with the one-roll lookahead and ranked first.
    With ``look`` > 0, when the two best of those are within ``look`` of each
    other and one of them still has contact, both are evaluated again at
    2-ply (:meth:`Evaluator.ply2`) and ranked first by it (in races the race
    net's 1-ply is nearly as good: on held-out decisions a 2-ply look at races
    gained a twentieth of what it gained in contact). ``look_budget``: at
    most about that many of our plays valued at the look's second ply
    (:meth:`Evaluator.look`; None: no limit). ``look_n``: how many of the
    best may be looked at, each within ``look`` of the best.
    """
    ev = evaluator()
    if plays is None:
        plays = pos.legal_plays(d1, d2)
    if not plays:
        return []
    results = [p.result for p in plays]
    return refine(plays, results, ev.plays0(pos, results), plies, max_candidates, threshold, look,
                  look_budget, look_n)


def refine(plays: Sequence, results: Sequence[Position], probs: Sequence[tuple], plies: int = 1,
           max_candidates: int = 6, threshold: float = 0.12, look: float = 0.0,
           look_budget: int | None = None, look_n: int = 2) -> list[Candidate]:
    """Rank ``plays`` (any labels) by their results' 0-ply ``probs``, best
    first; with ``plies`` = 1 the move filter's survivors are re-evaluated
    with the one-roll lookahead and ranked first, and with ``look`` the best
    ``look_n`` of them (two) at 2-ply when they are that close (see :func:`rank`)."""
    eqs = [equity(pr) for pr in probs]
    order = sorted(range(len(eqs)), key=lambda i: -eqs[i])
    cands = [Candidate(plays[i], probs[i], eqs[i], 0, eqs[i]) for i in order]
    if plies >= 1 and len(order) > 1:
        best = eqs[order[0]]
        top = [i for i in order[:max_candidates] if eqs[i] >= best - threshold]
        if len(top) > 1:
            ev = evaluator()
            deep = []
            for i in top:
                replies = [] if look > 0.0 else None
                pr = ev.ply1(results[i], replies)
                e = equity(pr)
                deep.append((Candidate(plays[i], pr, e, 1, e), results[i], replies))
            deep.sort(key=lambda c: -c[0].equity)
            near = [c for c in deep[:look_n] if deep[0][0].equity - c[0].equity <= look]
            if (look > 0.0 and len(near) > 1
                    and any(encoder.is_contact((r.opponent, r.mover)) for _, r, _ in near)):
                probs2 = ev.look([(r, replies) for _, r, replies in near], budget=look_budget)
                two = []
                for (c, r, replies), pr in zip(near, probs2):
                    two.append((Candidate(c.play, pr, equity(pr), 2, c.equity), r, replies))
                two.sort(key=lambda c: -c[0].equity)
                deep[:len(near)] = two
            cands = [c[0] for c in deep] + cands[len(top):]
    return cands
