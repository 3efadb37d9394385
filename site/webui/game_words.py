"""What the game page says about the game: the status line, the result and its
score, the history banner, the end-of-game numbers (pure wording).

``GameWords`` is the controller's wording, kept apart from the game flow: a
mixin of ``controller.Controller`` (whose state it reads: ``game``, ``mode``,
``phase``, ``builder``, ``held``, ``opening``, ``refused``, ``resigned``,
``settings``, ``viewing``) and, through it, of ``FriendController``, which
overrides ``status_line`` and ``result_sentence``. Every move is written in
the numbers printed on the board (``board_numbers``). Runs on CPython and
MicroPython alike.
"""

from engine import BLACK, WHITE

from .board_numbers import board_notation, steps_text
from .modes import KIND_TEXT


def fraction_text(x) -> str:
    """Exact points as the result and the leaderboard write them: ``5/3``, ``2``."""
    return str(x)


def dice_text(dice) -> str:
    return "-".join(str(d) for d in dice)


class GameWords:
    """The wording of a ``Controller``'s state (a mixin: see the module)."""

    def viewing_text(self) -> str:
        """The banner while the history is shown: "Viewing move 3 of 12: White 3-1: 8/5 6/5"."""
        if self.viewing is None:
            return ""
        h = self.history()
        e = h[self.viewing]
        shown = board_notation(e.notation, e.color) or "no legal move"
        return f"Viewing move {self.viewing + 1} of {len(h)}: {e.color[:1].upper()}{e.color[1:]} {dice_text(e.dice)}: {shown}"

    def result_sentence(self, short: bool = False) -> str:
        """The result in words: the status line's (``short``) or the result box's."""
        res = self.result()
        if not res:
            return ""
        who = self.mode.winner_words(res["winner"])
        pts = res["points"]
        s = "" if pts == "1" else "s"
        how = " by resignation" if self.resigned is not None else ""
        if short:
            kind = res["kind"]
            return f"{who}{how}: {'a ' + kind + ' game' if kind == 'single' else 'a ' + kind}, {pts} point{s}."
        return f"{who} with {KIND_TEXT[res['kind']]}{how}."  # (the points are worked out in score_text)

    def score_text(self) -> str:
        """How the result is scored, worked out: "Gammon: 2 points, × 1/3 for
        level 1 = 2/3 on the leaderboard." ("" before the end)."""
        res = self.result()
        if not res:
            return ""
        return self.score_words(res["winner"], res["kind"], res["points"], self.resigned is not None)

    def score_words(self, winner, kind, points, resigned=False) -> str:
        """``score_text`` for a given result (also what a resignation would give)."""
        base = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
        name = "Single game" if kind == "single" else kind[:1].upper() + kind[1:]
        how = " by resignation" if resigned else ""
        text = f"{name}{how}: {base} point{'' if base == 1 else 's'}"
        level = self.mode.level()
        if level is None:
            return text + "."
        text += f", × {level}/3 for level {level} = {points}"
        if winner != self.settings.color:
            return text + " for the computer (only your wins go on the leaderboard)."
        if self.settings.seed is not None:
            return text + " (a seeded practice game: not on the leaderboard)."
        return text + " on the leaderboard."

    def game_stats(self) -> list:
        """A few numbers about the game, per colour: [(label, white, black)]."""
        if self.game is None:
            return []
        h = self.game.history
        pos = self.game.position
        rows = [("Pips left", pos.pip(WHITE), pos.pip(BLACK)),
                ("Checkers borne off", pos.off(WHITE), pos.off(BLACK))]
        for label, count in (("Turns", lambda e: 1), ("Shut out (no legal move)", lambda e: 0 if e.notation else 1),
                             ("Hits", lambda e: e.notation.count("*"))):
            rows.append((label, sum(count(e) for e in h if e.color == WHITE), sum(count(e) for e in h if e.color == BLACK)))
        return rows

    # ------------------------------------------------------------- status
    def last_turn_text(self) -> str:
        """What the last turn did, in the board's numbers ("" before any)."""
        if self.held is not None:
            return self.held["text"]
        h = self.game.history if self.game else ()
        if not h:
            return ""
        e = h[-1]
        who = self.mode.who(e.color)
        if not e.notation:
            return f"{who} rolled {dice_text(e.dice)}: no legal move, the turn passed."
        return f"{who} played {board_notation(e.notation, e.color)}."

    def status_line(self) -> str:
        """The status line: the state the game is in now (the history keeps the
        log), every move in the numbers printed on the board."""
        if self.game is None:
            return ""
        if self.phase == "over":
            return self.result_sentence(short=True)
        game = self.game
        color = game.turn
        who = self.mode.who(color)
        if self.opening and self.phase in self.opening_phases:
            w, b = self.opening
            lead = f"Opening roll: White {w}, Black {b}: {who} {'go' if who == 'You' else 'goes'} first."
        else:
            lead = self.last_turn_text() if self.phase in ("roll", "ai", "remote", "waiting") else ""
        if self.phase == "roll":
            now = self.mode.to_roll(color)
        elif self.phase == "move" and self.builder is not None:
            now = self._move_text(who)
        elif self.phase == "ai":
            now = f"The computer rolled {dice_text(game.dice)}." if game.dice else "The computer to roll."
        else:
            now = ""
        return " ".join(t for t in (lead, now) if t)

    def _move_text(self, who: str) -> str:
        b = self.builder
        color = self.turn
        if self.refused is not None:
            return f"The checker on {self.refused} cannot move with {dice_text(b.dice_left)}: pick a marked one."
        if not b.steps:
            if self.opening:
                return "Click a checker to move it by the higher die." if self.quick_moves else "Pick up a checker to move."
            doubles = " (doubles: four moves)" if b.dice[0] == b.dice[1] else ""
            what = "click a checker to move it by the higher die" if self.quick_moves else "pick up a checker to move"
            return f"{who} rolled {dice_text(b.dice)}{doubles}: {what}."
        moved = steps_text(color, b.steps)
        if b.is_complete:
            return f"Play complete ({moved}): press Done, or Undo to change it."
        left = " and ".join(str(d) for d in b.dice_left)
        return f"{who} moved {moved}; still to play: {left}."
