"""The board page's controller for a game against a friend (pure, no DOM).

``FriendController`` is the board page's ``Controller`` (picking, moving,
undo, Done, announcements, the view) with the turn flow of a friend game: the
dice come from the ``FriendSession``'s fair exchange, this page moves only its
own colour (``modes.FriendMode``), and the friend's plays arrive as messages
that the session checks with the engine before anything changes. It overrides
the controller's hooks (``_commit``, ``_is_over``, ``_next_turn``, ``result``)
and adds the friend's side (``receive``/``handle``). Phases (``data-phase``):

- ``opening``: waiting for the opening roll (connecting, or the exchange);
- ``roll``: this player's turn to roll; ``rolling``: the exchange is under way;
- ``move``: this player is moving; ``remote``: the friend's turn;
- ``waiting``: this player's turn to roll but the friend is not connected;
- ``over``: the game ended (or someone resigned); ``stopped``: it cannot go on.
"""

from engine import Position, TurnBuilder, other

from .board_numbers import board_notation
from .controller import Controller, Settings, dice_text, fraction_text
from .friend_session import FriendSession
from .modes import KIND_TEXT, FriendMode, cap

STATE_VERSION = 1


class FriendController(Controller):
    opening_phases = ("remote", "move")

    def __init__(self, session: FriendSession):
        super().__init__(settings=Settings(mode="friend", level=3, color=session.me),
                         mode=FriendMode(session.me, lambda: self.peer_name))
        self.session = session
        self.game = session.game
        self.alerts = []             # sentences to show as a notice: ["Your friend's game refused ..."]
        self.phase = "opening"
        self.sync()

    # ------------------------------------------------------------ who's who
    @property
    def me(self) -> str:
        return self.session.me

    @property
    def peer_name(self) -> str:
        return self.session.peer_name or "Your friend"

    # ------------------------------------------------------------ phase
    def sync(self) -> None:
        """Recompute the phase from the session (after restoring, connecting, disconnecting)."""
        s = self.session
        self.game = s.game
        g = s.game
        if s.stopped:
            self.phase, self.builder = "stopped", None
        elif s.is_over:
            self.phase, self.builder = "over", None
        elif not g.started:
            self.phase, self.builder = "opening", None
        elif g.dice is None:
            self.builder = None
            if g.turn != self.me:
                self.phase = "remote"
            elif s.rolling:
                self.phase = "rolling"
            else:
                self.phase = "roll" if s.agreed else "waiting"
        elif g.turn == self.me:
            if self.builder is None:
                self.builder = TurnBuilder(g.position, tuple(g.dice))
            self.phase = "move"
        else:
            self.phase, self.builder = "remote", None
        if self.phase != "move":
            self.picked, self.legal = None, {}

    # ------------------------------------------------------------ local turn flow
    def roll(self):
        """The Roll button: start the fair-dice exchange (the dice arrive with the friend's answer)."""
        if self.phase != "roll":
            raise ValueError("not the time to roll")
        self.session.start_roll()
        self.phase = "rolling"
        self.say("Rolling: waiting for your friend's half of the dice…")
        return None

    def _commit(self, play) -> None:
        self.session.play_local(play)
        self._after_play()

    def _is_over(self) -> bool:
        return self.session.is_over

    def _next_turn(self) -> None:
        self.opening = None
        self.builder = None
        if self.game.turn == self.me:
            self.phase = "roll" if self.session.agreed else "waiting"
            self.say("Your turn: roll the dice." if self.session.agreed else
                     "Your turn, but your friend is not connected: reconnect to roll.")
        else:
            self.phase = "remote"

    # ------------------------------------------------------------ the friend's side
    def receive(self, text) -> list:
        """A message from the friend's page. :raises ProtocolError: refused (nothing changed)."""
        events = self.session.receive(text)
        self.handle(events)
        return events

    def handle(self, events) -> None:
        for e in events:
            k = e.kind
            if k == "hello":
                self.say(e.text)
                self.sync()
            elif k == "resumed":
                self.say(e.text)
                self.sync()
            elif k == "rolling":
                self.say(e.text)
            elif k == "opening":
                w, b = e.data["white"], e.data["black"]
                self.opening = (w, b)
                who = self.mode.who(e.data["first"])
                self.say(f"Opening roll: White {w}, Black {b}: {who} {'go' if who == 'You' else 'goes'} first.")
                self._begin_turn()
            elif k == "dice":
                self.held = None
                if e.data["color"] == self.me:
                    self._begin_turn()
                else:
                    self.say(f"{self.peer_name} rolled {dice_text(e.data['dice'])}.")
                    self.phase = "remote"
            elif k == "play":
                self._peer_played(e.data["notation"], e.data["dice"])
                self._after_play()
            elif k == "over":
                if e.text:
                    self.say(e.text)
                self.phase = "over"
                self.builder = None
                self.say(self.result_sentence())
            elif k == "new-game":
                self.game = self.session.game
                self.builder, self.picked, self.legal, self.viewing, self.opening = None, None, {}, None, None
                self.say(f"Rematch! {e.text} Rolling for the opening…")
                self.sync()
            elif k == "rematch-offered":
                self.say(e.text)
            elif k in ("peer-error", "stopped"):
                self.say(e.text)
                self.alerts.append(e.text)
                if k == "stopped":
                    self.sync()
            elif k == "chat":
                self.say(f"{e.data.get('from', 'Your friend')} says: {e.text}")
        if self.phase not in ("move",):
            self.picked, self.legal = None, {}

    def _peer_played(self, notation, dice) -> None:
        """The friend's play arrived: said in the board's numbers; a roll that
        passed (no legal move, or its only play) stays on the board a moment."""
        entry = self.game.history[-1] if self.game.history else None
        color = entry.color if entry is not None else other(self.me)
        if not notation:
            self.hold(color, dice, "no-move")
            return
        if entry is not None and len(Position.from_id(entry.before_id, turn=color).legal_plays(*dice)) == 1:
            self.hold(color, dice, "forced", notation)
            return
        self.say(f"{self.peer_name} played {board_notation(notation, color)}.")

    def status_line(self) -> str:
        """A friend game's status line is its latest message (the page's friend
        panel says the rest), after the last turn when it is this player's to roll."""
        if self.phase == "move":
            return super().status_line()
        if self.phase in ("roll", "waiting") and self.game.history and self.message != self.last_turn_text():
            return f"{self.last_turn_text()} {self.message}"
        return self.message

    # ------------------------------------------------------------ actions
    def resign(self) -> str:
        kind = self.session.resign()
        self.phase, self.builder = "over", None
        self.say(f"You resigned. {self.result_sentence()}")
        return kind

    def rematch(self) -> None:
        events = self.session.propose_rematch()
        if events:
            self.handle(events)
        else:
            self.say(f"Rematch proposed: waiting for {self.peer_name} to accept.")

    # ------------------------------------------------------------ results
    def points(self):
        return self.session.points() or 0

    def result(self):
        s = self.session
        if not s.is_over:
            return None
        return {"winner": s.winner, "kind": s.result_kind, "points": fraction_text(self.points())}

    def result_sentence(self, short: bool = False) -> str:
        s = self.session
        if not s.is_over:
            return ""
        who = self.mode.winner_words(s.winner)
        how = " by resignation" if s.resigned else ""
        return f"{who} with {KIND_TEXT[s.result_kind]}{how} ({cap(s.winner)}). Friend games score no leaderboard points."

    # ------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        steps = [[st.src, st.dst] for st in self.builder.steps] if self.builder is not None else []
        return {
            "v": STATE_VERSION,
            "session": self.session.to_dict(),
            "steps": steps,
            "opening": list(self.opening) if self.opening else None,
            "message": self.message,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "FriendController":
        """:raises ValueError: not a saved friend game of this version, or damaged."""
        if not isinstance(d, dict) or d.get("v") != STATE_VERSION:
            raise ValueError("the saved friend game is from another version")
        c = cls(FriendSession.from_dict(d["session"]))
        c.opening = tuple(d["opening"]) if d.get("opening") else None
        c.message = str(d.get("message") or "")
        if c.phase == "move" and d.get("steps"):
            try:
                for src, dst in d["steps"]:
                    c.builder.move(int(src), int(dst))
            except (ValueError, TypeError):
                c.builder = TurnBuilder(c.game.position, tuple(c.game.dice))
        return c

