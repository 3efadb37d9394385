"""Game flow for the board page: DOM-free state and pure state changes.

The controller decides no rules: legal sources and destinations come from the
engine's ``TurnBuilder``; the controller only keeps track of what the player
picked up, which turn phase the game is in, and what to announce. Who plays
whom is the controller's ``mode`` (``modes.py``): a game against the computer,
two players on one device, or (``friend_controller.py``, which overrides the
hooks ``_commit``, ``_after_play`` and ``_next_turn``) a friend on another
device. The browser layer turns clicks, drags and keys into calls here,
renders ``view()`` and runs the computer's turns when ``phase == "ai"``.
What the page says about the state (status line, result, score, history
banner) is ``game_words.GameWords``, a mixin of ``Controller``.

Points given to and returned by the controller are absolute (1..24, "bar",
"off"), as on the board. Runs on CPython and MicroPython alike.
"""

from engine import (BLACK, WHITE, Dice, Game, Position, TurnBuilder, from_absolute, other, points_for, result_kind,
                    to_absolute)

from .board_numbers import board_notation
from .game_words import GameWords, dice_text, fraction_text
from .modes import KIND_TEXT, mode_for
from .render import View

STATE_VERSION = 1
#: what the board writes next to a held roll (``Controller.hold``)
HELD_NOTE = {"no-move": "No legal move", "forced": "Only one play"}


class Settings:
    """What game to play: the URL parameters and the New game form."""

    __slots__ = ("mode", "level", "color", "seed")

    def __init__(self, mode="ai", level=3, color=WHITE, seed=None):
        self.mode = mode      # "ai" | "local" (a friend game has its own controller)
        self.level = level    # AI level 1..5
        self.color = color    # the human's colour against the AI
        self.seed = seed      # fixed dice: a practice game, never on the leaderboard

    def __eq__(self, other):
        return isinstance(other, Settings) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return f"Settings({self.mode!r}, {self.level!r}, {self.color!r}, {self.seed!r})"

    @classmethod
    def from_params(cls, params: dict, base=None) -> "Settings":
        """Settings from URL parameters; bad values fall back to ``base``.

        >>> Settings.from_params({"mode": "local", "level": "9", "seed": "7"}).level
        3
        """
        b = base or cls()
        mode = params.get("mode", b.mode)
        if mode not in ("ai", "local"):
            mode = b.mode
        try:
            level = int(params.get("level", b.level))
            if not 1 <= level <= 5:
                raise ValueError
        except (TypeError, ValueError):
            level = b.level
        color = params.get("color", b.color)
        if color not in (WHITE, BLACK):
            color = b.color
        seed = b.seed if "seed" not in params else params.get("seed")
        try:
            seed = None if seed in (None, "") else int(seed)
        except (TypeError, ValueError):
            seed = None
        return cls(mode, level, color, seed)

    def to_dict(self) -> dict:
        return {"mode": self.mode, "level": self.level, "color": self.color, "seed": self.seed}

    def params(self) -> dict:
        """URL parameters (``PARAM_ORDER`` is the order the address bar shows them in)."""
        d = {"mode": self.mode}
        if self.mode == "ai":
            d["level"] = str(self.level)
            d["color"] = self.color
        if self.seed is not None:
            d["seed"] = str(self.seed)
        return d


PARAM_ORDER = ("mode", "level", "color", "seed")


class Frame:
    """One animation frame of a play: the position after a step."""

    __slots__ = ("position", "moved", "dice_left")

    def __init__(self, position, moved, dice_left):
        self.position = position    # mover still on roll
        self.moved = moved          # (src, dst, colour), absolute points
        self.dice_left = dice_left  # dice still unused after this step


class Controller(GameWords):
    """A game on the board page. Phases (``data-phase``): "roll", "move", "ai",
    "over", "idle" (and the friend game's own, see ``friend_controller``)."""

    def __init__(self, settings=None, mode=None):
        self.settings = settings or Settings()
        self.mode = mode or mode_for(self.settings)
        self.game = None
        self.builder = None
        self.phase = "idle"
        self.picked = None          # picked-up source point
        self.legal = {}             # absolute dst -> steps, while picked
        self.viewing = None         # history index shown read-only
        self.focus = None           # keyboard focus point
        self.opening = None         # (white_die, black_die) of the opening roll
        self.announcements = []
        self.message = ""
        self.hint = None            # suggested play (gnubg notation) for this roll
        self.recorded = False       # result already on the leaderboard
        self.auto = None            # (position, dice, frames) of a play made automatically
        self.held = None            # a roll that passed without the player's moves, still shown: see ``hold``
        self._moves, self._moves_of = [], None  # steps per checker move of ``_moves_of`` (the builder)
        self.refused = None         # a point clicked whose checker cannot move now (shown until the next click)
        self.resigned = None        # (winner, kind) once a player resigned
        self.quick_moves = False    # the page's quick-moves option (only changes what the status line says)

    # ------------------------------------------------------------ set-up
    def new_game(self, settings=None, start=None) -> None:
        """A new game; ``start`` (a Position, its side on roll) sets up a practice position."""
        if settings is not None:
            self.settings = settings
            self.mode = mode_for(settings)
        self.game = Game(dice=Dice(self.settings.seed), position=start)
        self.builder = None
        self.picked = None
        self.legal = {}
        self.viewing = None
        self.hint = None
        self.held = None
        self.resigned = None
        self.message = ""
        if start is not None:
            self.opening = None
            self.say("Practice position set up.")
            self._next_turn()
            return
        w, b = self.game.opening_roll()
        self.opening = (w, b)
        who = self.mode.who(self.game.turn)
        self.say(f"New game. Opening roll: White {w}, Black {b}: {who} {'go' if who == 'You' else 'goes'} first.")
        self._begin_turn()

    # ------------------------------------------------------------- helpers
    def say(self, text: str) -> None:
        self.announcements.append(text)
        self.message = text

    def take_announcements(self) -> list:
        out, self.announcements = self.announcements, []
        return out

    def is_human(self, color: str) -> bool:
        return self.mode.is_human(color)

    @property
    def turn(self) -> str:
        return self.game.turn

    @property
    def position(self) -> Position:
        """The position on screen: the turn's start plus the steps taken so far."""
        if self.builder is not None:
            return self.builder.position
        return self.game.position

    @property
    def human_to_move(self) -> bool:
        return self.phase == "move" and self.is_human(self.turn)

    # --------------------------------------------------------- turn flow
    def _begin_turn(self) -> None:
        """Dice are on the table for ``game.turn``: move, pass or auto-play."""
        self.picked, self.legal, self.hint = None, {}, None
        game = self.game
        color = game.turn
        self.builder = None
        if not self.is_human(color):
            self.phase = self.mode.away_phase
            return
        b = TurnBuilder(game.position, tuple(game.dice))
        if b.no_play:
            self.hold(color, game.dice, "no-move")
            self._commit(None)
            return
        if b.forced:
            play = b.plays[0]
            self.auto = (game.position, tuple(game.dice), play_frames(game.position, tuple(game.dice), play))
            self.hold(color, game.dice, "forced", play.notation)
            self._commit(play)
            return
        self.builder = b
        self.phase = "move"
        self.say(self.status_line())

    def hold(self, color, dice, reason, notation="") -> None:
        """Keep a roll that passed without the player's moves on the board
        (``data-dice``, and ``data-held`` = ``reason``: "no-move" or "forced"),
        so it can be read: the page lets it go after about a second
        (``release_held``), the next roll replaces it."""
        who = self.mode.who(color)
        d = dice_text(dice)
        if reason == "no-move":
            text = f"{who} rolled {d}: no legal move, the turn passes."
        else:
            text = f"{who} rolled {d}: the only legal play, {board_notation(notation, color)}, was played automatically."
        self.held = {"color": color, "dice": tuple(dice), "reason": reason, "text": text}
        self.say(text)

    def release_held(self, held=None) -> bool:
        """Stop showing the held roll (``held``: only if it is still that one)."""
        if self.held is None or (held is not None and self.held is not held):
            return False
        self.held = None
        return True

    def _commit(self, play) -> None:
        """Hook: make this screen's play (None: the turn passes), then go on."""
        if play is None:
            self.game.pass_turn()
        else:
            self.game.play(play)
        self._after_play()

    def _is_over(self) -> bool:
        return self.game.is_over or self.resigned is not None

    # ------------------------------------------------------------ resigning
    @property
    def resigner(self):
        """Who would resign now (the human against the computer, the player on
        turn between two players), or None when it is not possible."""
        if self.game is None or self._is_over() or self.phase in ("over", "idle") or not self.game.started:
            return None
        return self.mode.resigner(self.game.turn)

    def resign_offer(self):
        """(winner, kind, points) a resignation now would give: what the position shows."""
        loser = self.resigner
        if loser is None:
            return None
        winner = other(loser)
        kind = result_kind(self.game.position, winner)
        return winner, kind, fraction_text(points_for(kind, self.mode.level()))

    def resign(self) -> bool:
        """Concede the game: the other side wins what the position shows
        (single, gammon or backgammon, as if it ended now)."""
        offer = self.resign_offer()
        if offer is None:
            return False
        loser = self.resigner
        winner, kind, _ = offer
        self.resigned = (winner, kind)
        self.builder, self.picked, self.legal, self.held, self.hint = None, None, {}, None, None
        self.opening = None
        self.phase = "over"
        self.say(f"{self.mode.who(loser)} resigned. {self.result_sentence(short=True)}")
        return True

    def _after_play(self) -> None:
        self.opening = None
        self.builder = None
        if self._is_over():
            self.phase = "over"
            self.say(self.result_sentence(short=True))
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.opening = None
        self.builder = None
        color = self.game.turn
        if self.is_human(color):
            self.phase = "roll"
            self.say(self.mode.to_roll(color))
        else:
            self.phase = self.mode.away_phase

    def roll(self):
        """The human on turn rolls (the Roll button)."""
        if self.phase != "roll":
            raise ValueError("not the time to roll")
        self.held = None
        dice = self.game.roll()
        self._begin_turn()
        return dice

    # ------------------------------------------------------ picking/moving
    def sources(self) -> set:
        if not self.human_to_move or self.builder is None or self.viewing is not None:
            return set()
        return {to_absolute(self.turn, s) for s in self.builder.sources()}

    def movable_order(self) -> list:
        """The checkers that can move now (absolute points or "bar"), the
        farthest from home first: the order keyboard play jumps through."""
        return sorted(self.sources(), key=lambda p: -from_absolute(self.turn, p))

    def click(self, point) -> str:
        """A click/tap/Enter on a point. Returns what happened:
        "pick", "drop" (put down), "move", "none"."""
        self.refused = None
        if not self.human_to_move or self.viewing is not None:
            return "none"
        if self.picked is not None:
            if point == self.picked:
                self.picked, self.legal = None, {}
                return "drop"
            if point in self.legal:
                self.move(self.picked, point)
                return "move"
        if point in self.sources():
            self.pick(point)
            return "pick"
        if self.picked is not None:
            self.picked, self.legal = None, {}
            return "drop"
        return self._refuse(point)

    def _refuse(self, point) -> str:
        """A click on one of the mover's own checkers that cannot move: "refused" (shown), else "none"."""
        if point in ("off", None) or self.builder is None:
            return "none"
        pos = self.builder.position
        own = pos.bar(self.turn) if point == "bar" else (pos.owner(point)[1] if pos.owner(point)[0] == self.turn else 0)
        if not own:
            return "none"
        self.refused = point
        return "refused"

    def quick(self, point, die: str = "high") -> str:
        """One-click play: move the checker on ``point`` by the higher die
        (``die="low"``: the lower one), or by the other die when that one
        cannot be played; a second click moves it on with what is left.
        Returns "move", "refused" (it cannot move) or "none"."""
        self.refused = None
        if not self.human_to_move or self.viewing is not None or self.builder is None:
            return "none"
        self.picked, self.legal = None, {}
        if point not in self.sources():
            return self._refuse(point)
        src = from_absolute(self.turn, point)
        dests = self.builder.destinations(src)
        order = sorted(set(self.builder.dice_left), reverse=(die != "low"))
        for d in order:
            for dst, path in dests.items():
                if len(path) == 1 and path[0].die == d:
                    self.move(point, to_absolute(self.turn, dst))
                    return "move"
        # only a combined move of this checker is legal (e.g. 6-6 with one checker left to play)
        dst = min(dests, key=lambda k: len(dests[k]))
        self.move(point, to_absolute(self.turn, dst))
        return "move"

    def pick(self, point) -> None:
        src = from_absolute(self.turn, point)
        dests = self.builder.destinations(src)
        self.picked = point
        self.legal = {to_absolute(self.turn, d): path for d, path in dests.items()}

    def move(self, src, dst) -> list:
        """Move the picked checker; returns the steps applied (own numbering)."""
        color = self.turn
        s, d = from_absolute(color, src), from_absolute(color, dst)
        moves = self.moves  # (read before the builder changes)
        before = len(self.builder.steps)
        self.builder.move(s, d)
        steps = list(self.builder.steps[before:])
        moves.append(len(steps))
        self.picked, self.legal = None, {}
        self.say(self.status_line())
        return steps

    def undo(self, everything: bool = False) -> bool:
        """Take back the last checker's whole move (all its steps), or with
        ``everything`` the whole turn so far. False: nothing to undo."""
        if not self.human_to_move or not self.builder or not self.builder.steps:
            return False
        b = self.builder
        while b.steps:
            n = self.moves.pop() if self.moves else 1
            for _ in range(min(n, len(b.steps))):
                b.undo()
            if not everything:
                break
        self.picked, self.legal = None, {}
        self.say(self.status_line())
        return True

    @property
    def moves(self) -> list:
        """How many steps each checker move of this turn took (for Undo)."""
        b = self.builder
        if b is None:
            return []
        if self._moves_of is not b or sum(self._moves) != len(b.steps):
            self._moves_of, self._moves = b, [1] * len(b.steps)
        return self._moves

    @property
    def can_done(self) -> bool:
        return bool(self.human_to_move and self.builder and self.builder.is_complete)

    def done(self) -> bool:
        if not self.can_done:
            return False
        play = self.builder.play
        color = self.turn
        self.say(f"{self.mode.who(color)} played {board_notation(play.notation, color)}.")
        self._commit(play)
        return True

    # --------------------------------------------------------------- AI
    def ai_roll(self):
        """Roll for the computer (phase "ai", no dice yet on a normal turn)."""
        self.held = None
        dice = self.game.roll()
        self.say(f"The computer rolled {dice_text(dice)}.")
        return dice

    def ai_needs_roll(self) -> bool:
        return self.phase == "ai" and not self.game.dice

    def ai_play(self, notation: str) -> list:
        """Apply the computer's chosen play; returns animation frames."""
        game = self.game
        d1, d2 = game.dice
        pos = game.position
        plays = pos.legal_plays(d1, d2)
        if not plays:
            self.hold(game.turn, game.dice, "no-move")
            game.pass_turn()
            self._after_play()
            return []
        play = pos.parse_play(notation, d1, d2) if notation else plays[0]
        frames = play_frames(pos, (d1, d2), play)
        color = game.turn
        game.play(play)
        self.say(f"The computer played {board_notation(play.notation, color)}.")
        self._after_play()
        return frames

    # ------------------------------------------------------------ history
    def history(self) -> list:
        return list(self.game.history) if self.game else []

    def view_history(self, index) -> None:
        h = self.history()
        if index is None or not (0 <= index < len(h)):
            self.viewing = None
        else:
            self.viewing = index
            self.picked, self.legal = None, {}

    def step_history(self, delta: int) -> None:
        """Previous (-1) / next (+1) move of the history; from the game, -1 shows
        the last move, and +1 after the last move is back to the game."""
        n = len(self.history())
        if self.viewing is None:
            if delta < 0 and n:
                self.view_history(n - 1)
            return
        i = self.viewing + delta
        self.view_history(max(i, 0) if i < n else None)

    def history_arrows(self, index) -> tuple:
        """The move ``index`` of the history as arrows on the board: absolute (src, dst) per step."""
        e = self.history()[index]
        if not e.notation:
            return ()
        pos = Position.from_id(e.before_id, turn=e.color)
        play = pos.parse_play(e.notation, *e.dice)
        return tuple((to_absolute(e.color, st.src), to_absolute(e.color, st.dst)) for st in play.steps)

    # ------------------------------------------------------------ results
    def points(self):
        if self.resigned is not None:
            return points_for(self.resigned[1], self.mode.level())
        return self.game.points(self.mode.level())

    def result(self):
        if not self.game or not self._is_over():
            return None
        if self.resigned is not None:
            winner, kind = self.resigned
        else:
            winner, kind = self.game.winner, self.game.result_kind
        return {"winner": winner, "kind": kind, "points": fraction_text(self.points())}

    def leaderboard_entry(self, name: str, date: str):
        """The leaderboard entry this finished game earns, once: a win against
        the computer without a seed (seeded games are practice); else None."""
        res = self.result()
        s = self.settings
        if not res or self.recorded or s.mode != "ai" or s.seed is not None or res["winner"] != s.color \
                or self.practice:
            return None
        self.recorded = True
        return {"name": name, "date": date, "level": s.level, "kind": res["kind"], "points": res["points"]}

    @property
    def practice(self) -> bool:
        """A game from a set-up position (no opening roll): practice, never on the leaderboard."""
        return self.game is not None and self.game.started and self.game.opening is None

    def set_hint(self, notation: str) -> tuple:
        """Show a suggested play on the board (arrows); returns its steps as
        absolute (src, dst) pairs. Cleared by the next move, undo or turn."""
        if not self.human_to_move or not notation:
            self.hint = None
            return ()
        play = self.game.position.parse_play(notation, *self.game.dice)
        self.hint = notation
        return self.hint_arrows(play)

    def hint_arrows(self, play=None) -> tuple:
        if play is None:
            if not self.hint or not self.human_to_move or self.builder is None or self.builder.steps:
                return ()
            play = self.game.position.parse_play(self.hint, *self.game.dice)
        color = self.turn
        return tuple((to_absolute(color, st.src), to_absolute(color, st.dst)) for st in play.steps)

    # --------------------------------------------------------------- view
    def view(self, **kw) -> tuple:
        """(position, View) to render now."""
        me = self.mode.me()
        game = self.game
        bottom = self.mode.bottom(game.turn)
        if self.viewing is not None:
            e = self.history()[self.viewing]
            pos = Position.from_id(e.before_id, turn=e.color)
            v = View(
                bottom=bottom, dice=tuple(e.dice) if e.dice else (), me=me, interactive=True,
                label=f"Position before move {self.viewing + 1}, with the move drawn (read-only)",
                extra={"viewing": str(self.viewing)}, focus=self.focus, hint=self.history_arrows(self.viewing),
                dice_note="" if e.notation else HELD_NOTE["no-move"], **kw,
            )
            return pos, v
        turn_start = game.position
        dice = tuple(game.dice) if game.dice else ()
        dice_left = tuple(self.builder.dice_left) if self.builder is not None else None
        extra = {"phase": self.phase}
        held = self.held
        if held is not None and not dice:
            # a roll that passed (no legal move, or its only play was made): still on the table
            dice, dice_left, turn = held["dice"], None, held["color"]
            extra["held"] = held["reason"]
            note = HELD_NOTE[held["reason"]]
        else:
            turn, note = game.turn, ""
        sources = self.sources()
        v = View(
            bottom=bottom,
            dice=dice,
            dice_left=dice_left,
            opening=self.opening if self.opening and self.phase in self.opening_phases else None,
            me=me,
            legal=set(self.legal),
            picked=self.picked,
            focus=self.focus,
            turn=game.turn,
            dice_turn=turn,
            dice_note=note,
            tab_stop=max(sources, key=lambda p: from_absolute(game.turn, p)) if sources else None,
            hint=self.hint_arrows() if self.picked is None else (),
            movable=sources if self.picked is None else (),
            refused=self.refused,
            position_id=turn_start.id,
            extra=extra,
            **kw,
        )
        return self.position, v

    #: phases in which the opening roll's two dice are shown
    opening_phases = ("move", "ai")

    # -------------------------------------------------------- persistence
    def to_dict(self) -> dict:
        steps = []
        if self.builder is not None:
            steps = [[st.src, st.dst] for st in self.builder.steps]
        return {
            "v": STATE_VERSION,
            "settings": self.settings.to_dict(),
            "game": self.game.to_dict(),
            "phase": self.phase,
            "steps": steps,
            "opening": list(self.opening) if self.opening else None,
            "message": self.message,
            "recorded": self.recorded,
            "resigned": list(self.resigned) if self.resigned else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Controller":
        """Restore a saved game exactly; raises ValueError on anything odd."""
        if not isinstance(d, dict) or d.get("v") != STATE_VERSION:
            raise ValueError(f"saved game is from another version ({d.get('v') if isinstance(d, dict) else '?'})")
        s = d["settings"]
        params = {k: s.get(k) for k in ("mode", "level", "color")}
        if s.get("seed") is not None:
            params["seed"] = s["seed"]
        c = cls(settings=Settings.from_params(params))
        c.game = Game.from_dict(d["game"])
        phase = d.get("phase")
        if phase not in ("roll", "move", "ai", "over"):
            raise ValueError(f"bad phase {phase!r}")
        c.opening = tuple(d["opening"]) if d.get("opening") else None
        c.message = str(d.get("message") or "")
        c.recorded = bool(d.get("recorded"))
        resigned = d.get("resigned")  # (absent in games saved before resigning existed)
        if resigned:
            winner, kind = resigned
            if winner not in (WHITE, BLACK) or kind not in KIND_TEXT:
                raise ValueError(f"bad resignation {resigned!r}")
            c.resigned = (winner, kind)
        if c._is_over():
            c.phase = "over"
        elif phase == "move":
            if not c.game.dice:
                raise ValueError("saved move phase without dice")
            c.builder = TurnBuilder(c.game.position, tuple(c.game.dice))
            c.phase = "move"
            for src, dst in d.get("steps") or []:
                c.builder.move(int(src), int(dst))
        else:
            c.phase = phase
        return c


def play_frames(pos: Position, dice: tuple, play) -> list:
    """Animation frames for a whole play, one per step."""
    t = TurnBuilder(pos, dice)
    color = pos.turn
    frames = []
    for st in play.steps:
        t.move(st.src, st.dst)
        frames.append(
            Frame(t.position, (to_absolute(color, st.src), to_absolute(color, st.dst), color), tuple(t.dice_left))
        )
    return frames
