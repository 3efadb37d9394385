"""A game against a friend on another device: the session state machine (pure).

One ``FriendSession`` lives in each player's page. It owns the engine's
``Game`` and talks to the other page only through messages
(``friend_protocol``) handed to ``transport`` (the data channel). It never
trusts the other side:

- dice come only from commit-reveal exchanges (``fair_dice``): roll 0 is the
  opening roll, roll ``i`` the dice of the game's ``i``-th turn; the player on
  roll starts an exchange (White starts the opening), the other side answers
  with its commitment and secret, the starter reveals last;
- every play received is checked by the engine against the position and the
  fair dice, and the Position ID it claims must be the engine's result;
- anything refused raises ``ProtocolError`` *before* the game is touched, and
  the other side is told with an ``error`` message; a dice secret that does
  not match its commitment, or boards that disagree, stop the game
  (``GameStopped``);
- on every (re)connection both sides send ``hello`` with their game number,
  turn count and position; they continue only if these agree, or if one side
  is exactly one play behind, in which case the other resends that play.

>>> from engine import WHITE, BLACK
>>> a, b = FriendSession(WHITE, "0123456789ab", "Ann"), FriendSession(BLACK, "0123456789ab", "Bob")
>>> net = Loopback(a, b)
>>> net.run()
>>> a.peer_name, b.peer_name, a.game.started, a.game.position.id == b.game.position.id
('Bob', 'Ann', True, True)
"""

from engine import WHITE, Game, other, points_for, result_kind

from . import fair_dice
from .friend_protocol import Channel, ProtocolError, clean_name

APP = "backgammon-web/1"
STATE_VERSION = 1


class GameStopped(ProtocolError):
    """The game cannot go on (cheating detected, boards disagree)."""


class Event:
    """Something the page should show: ``Event('play', 'Bob played 8/5 6/5.')``.

    ``kind``: hello | rolling | opening | dice | play | over | rematch-offered |
    new-game | peer-error | stopped | chat | resumed; ``text`` for the player;
    ``data`` the details (``{"dice": (3, 1), "color": "white"}``).
    """

    def __init__(self, kind: str, text: str = "", data=None):
        self.kind = kind
        self.text = text
        self.data = {} if data is None else data

    def __eq__(self, other) -> bool:
        return (isinstance(other, Event) and self.kind == other.kind and self.text == other.text
                and self.data == other.data)

    def __ne__(self, other) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.text!r}, {self.data!r})"


class FriendSession:
    def __init__(self, me: str, room: str, name: str = "", game_no: int = 1):
        self.me = me                         # this page's colour: "white"
        self.peer = other(me)
        self.room = room                     # 12 hex digits, shared by both pages: "0123456789ab"
        self.name = clean_name(name, "")     # this player's name: "Ann"
        self.peer_name = None                # the friend's name (plain text): "Bob"
        self.game_no = game_no               # 1, 2, ... (rematches)
        self.game = Game()
        self.exchanges = {}                  # roll index -> fair_dice.Exchange (the last two kept)
        self.resigned = None                 # (winner, kind) when a player resigned
        self.stopped = None                  # why the game cannot go on (text)
        self.rematch_sent = False
        self.rematch_received = False
        # per connection
        self.transport = None                # send(text) on the open data channel, else None
        self.channel = None                  # the connection's Channel (sequence numbers)
        self.agreed = False                  # hellos exchanged and states agree
        self.peer_hello = None               # the friend's hello message (dict)
        self._revealed = set()               # roll indexes whose secret this side has sent

    # ------------------------------------------------------------ state
    @property
    def connected(self) -> bool:
        return self.transport is not None

    @property
    def is_over(self) -> bool:
        return self.game.is_over or self.resigned is not None

    @property
    def winner(self):
        return self.resigned[0] if self.resigned else self.game.winner

    @property
    def result_kind(self):
        return self.resigned[1] if self.resigned else self.game.result_kind

    @property
    def pending_roll(self):
        """Index of the roll the game waits for (0 = opening), None when dice are out or it is over."""
        if self.is_over or self.stopped or self.game.dice is not None:
            return None
        return len(self.game.history)

    def starter(self, index: int) -> str:
        """Who starts roll ``index``: White the opening, then the player on roll."""
        return WHITE if index == 0 else self.game.turn

    @property
    def rolling(self) -> bool:
        """An exchange for the pending roll has started on this side."""
        idx = self.pending_roll
        return idx is not None and idx in self.exchanges

    def context(self, index: int) -> str:
        return fair_dice.context(self.room, self.game_no, index)

    # ------------------------------------------------------------ connection
    def connect(self, transport) -> None:
        """A data channel is open: say hello (states are compared when the friend's arrives)."""
        self.transport = transport
        self.channel = Channel()
        self.agreed = False
        self.peer_hello = None
        self._revealed = set()
        self._send("hello", name=self.name, color=self.me, room=self.room, game=self.game_no,
                   turns=len(self.game.history), pos=self.game.position.id, turn=self.game.turn, app=APP)

    def disconnect(self) -> None:
        self.transport = None
        self.channel = None
        self.agreed = False

    def _send(self, t: str, **fields) -> None:
        if self.transport is None or self.channel is None:
            return  # resent on reconnection where it matters
        self.transport(self.channel.encode(t, **fields))

    def send_raw(self, text: str, *, numbered: bool = False) -> None:
        """Test hook: put arbitrary text on the wire (``numbered``: consume a sequence number)."""
        if self.transport is None:
            raise ValueError("not connected")
        if numbered and self.channel is not None:
            self.channel.sent += 1
        self.transport(text)

    def next_seq(self) -> int:
        return (self.channel.sent + 1) if self.channel else 1

    # ------------------------------------------------------------ receiving
    def receive(self, text) -> list:
        """Handle one message from the friend's page; returns Events.

        :raises ProtocolError: refused (the game is untouched; the friend is told);
            ``GameStopped`` when the game cannot go on.
        """
        if self.channel is None:
            raise ProtocolError("Refused a message: not connected.")
        try:
            msg = self.channel.decode(text)
            t = msg["t"]
            if self.stopped and t not in ("error", "chat"):
                raise ProtocolError(f"Ignored a {t!r} message: this game is stopped ({self.stopped}).")
            if not self.agreed and t not in ("hello", "error"):
                raise ProtocolError(f"Refused a {t!r} message from your friend's game: it came before the greeting.")
            return getattr(self, "_on_" + t)(msg)
        except fair_dice.CommitmentMismatch as err:
            self.stopped = str(err)
            self._send_error(str(err), fatal=True)
            raise GameStopped(str(err)) from None
        except GameStopped as err:
            self.stopped = str(err)
            self._send_error(str(err), fatal=True)
            raise
        except ProtocolError as err:
            self._send_error(str(err))
            raise

    def _send_error(self, reason: str, fatal: bool = False) -> None:
        try:
            self._send("error", reason=reason[:200], fatal=fatal)
        except ProtocolError:
            pass

    def _check_game(self, msg) -> None:
        if msg["game"] != self.game_no:
            raise ProtocolError(
                f"Refused a {msg['t']!r} message from your friend's game: it is for game {msg['game']}, "
                f"this is game {self.game_no}."
            )

    def _on_hello(self, msg) -> list:
        if self.peer_hello is not None:
            raise ProtocolError("Refused a second greeting from your friend's game.")
        if msg["room"] != self.room:
            raise GameStopped("That link belongs to another game: ask your friend for a new link to this one.")
        if msg["color"] != self.peer:
            raise GameStopped(
                f"Your friend's game also plays {msg['color']}: that link belongs to another game or was "
                "opened in the wrong browser."
            )
        self.peer_hello = msg
        self.peer_name = clean_name(msg["name"])
        events = [Event("hello", f"Connected to {self.peer_name}.")]
        theirs = msg["turns"]
        if msg["game"] == self.game_no + 1 and self.is_over and self.rematch_sent and theirs == 0:
            events += self._start_rematch()   # they started the rematch while we were apart
        mine = len(self.game.history)
        if msg["game"] == self.game_no - 1 and mine == 0 and self.game_no > 1:
            self.agreed = True                # they start the rematch when our greeting arrives
            self._resume_exchange()
            return events
        if msg["game"] != self.game_no:
            raise GameStopped(self._disagree(msg))
        resend: list = []
        if theirs == mine:
            # before the first play the side to move may differ: one page may know the opening roll already
            if msg["pos"] != self.game.position.id or (msg["turn"] != self.game.turn and mine > 0):
                raise GameStopped(self._disagree(msg))
        elif theirs == mine - 1:
            last = self.game.history[-1]
            if last.color != self.me or msg["pos"] != last.before_id or msg["turn"] != last.color:
                raise GameStopped(self._disagree(msg))
            resend = [mine - 1]
        elif theirs == mine + 1:
            if self.game.turn != self.peer or msg["turn"] != self.me:
                raise GameStopped(self._disagree(msg))
        else:
            raise GameStopped(self._disagree(msg))
        self.agreed = True
        if mine or theirs:
            events.append(Event("resumed", "Both boards agree: the game continues."))
        cur = self.exchanges.get(mine)
        if theirs == mine and cur is not None and cur.complete and self.game.dice is not None:
            # we know this turn's dice; they may have missed our secret: send it again (duplicates are ignored)
            self._send("commit", game=self.game_no, roll=mine, hash=cur.commit)
            self._reveal(cur)
        for i in resend:             # they missed our last play: its dice, then the play
            ex = self.exchanges.get(i)
            if ex is not None:
                self._send("commit", game=self.game_no, roll=i, hash=ex.commit)
                if ex.may_reveal:
                    self._send("reveal", game=self.game_no, roll=i, secret=ex.mine.hex())
            self._send_play(self.game.history[i], i)
        self._resume_exchange()
        return events

    def _disagree(self, msg) -> str:
        return (
            f"Your boards disagree (this page: game {self.game_no}, {len(self.game.history)} turns, position "
            f"{self.game.position.id}; your friend's: game {msg['game']}, {msg['turns']} turns, position "
            f"{msg['pos']}), so this game cannot continue. Start a new game."
        )

    def _resume_exchange(self) -> None:
        idx = self.pending_roll
        if idx is None:
            return
        ex = self.exchanges.get(idx)
        if ex is not None:
            self._send("commit", game=self.game_no, roll=idx, hash=ex.commit)
            if ex.may_reveal:
                self._reveal(ex)
        elif idx == 0 and self.me == WHITE:
            self.start_roll()

    def _on_commit(self, msg) -> list:
        self._check_game(msg)
        idx = self.pending_roll
        old = self.exchanges.get(msg["roll"])
        if old is not None and old.complete:
            old.receive_commit(msg["hash"])   # a resend after reconnecting: must not have changed
            return []
        if idx is None or msg["roll"] != idx:
            raise ProtocolError(
                f"Refused a dice commitment from your friend's game: it is for roll {msg['roll']}, "
                f"but the game {'is not waiting for dice' if idx is None else f'is at roll {idx}'}."
            )
        ex = self.exchanges.get(idx)
        if ex is None:
            if self.starter(idx) == self.me:
                raise ProtocolError("Refused a dice commitment from your friend's game: it is this side's roll.")
            ex = self._new_exchange(idx)
            ex.receive_commit(msg["hash"])
            self._send("commit", game=self.game_no, roll=idx, hash=ex.commit)
            self._reveal(ex)
            return [Event("rolling", f"{self.peer_name or 'Your friend'} is rolling…")]
        if ex.receive_commit(msg["hash"]):
            self._reveal(ex)
        return []

    def _reveal(self, ex) -> None:
        if ex.index in self._revealed:
            return
        self._revealed.add(ex.index)
        self._send("reveal", game=self.game_no, roll=ex.index, secret=ex.mine.hex())

    def _new_exchange(self, idx: int) -> fair_dice.Exchange:
        ex = fair_dice.Exchange(idx)
        self.exchanges[idx] = ex
        for old in [k for k in self.exchanges if k < idx - 1]:
            del self.exchanges[old]
        return ex

    def _on_reveal(self, msg) -> list:
        self._check_game(msg)
        idx = self.pending_roll
        if idx is None or msg["roll"] != idx:
            if msg["roll"] in self.exchanges and self.exchanges[msg["roll"]].complete:
                self.exchanges[msg["roll"]].receive_reveal(bytes.fromhex(msg["secret"]))  # a resend: must still match
                return []
            raise ProtocolError(f"Refused a dice secret from your friend's game: roll {msg['roll']} is not being rolled.")
        ex = self.exchanges.get(idx)
        if ex is None or ex.peer_commit is None:
            raise ProtocolError("Refused a dice secret from your friend's game: it came before its commitment.")
        if not ex.receive_reveal(bytes.fromhex(msg["secret"])):
            return []
        self._reveal(ex)
        w, b = ex.secrets_by_colour(self.me)
        if idx == 0:
            wd, bd = fair_dice.opening(w, b, self.context(0))
            self.game.set_opening(wd, bd)
            return [Event("opening", data={"white": wd, "black": bd, "first": self.game.turn})]
        d = fair_dice.roll(w, b, self.context(idx))
        self.game.set_dice(*d)
        return [Event("dice", data={"dice": d, "color": self.game.turn})]

    def _on_play(self, msg) -> list:
        self._check_game(msg)
        game = self.game
        who = self.peer_name or "Your friend"
        if self.is_over:
            raise ProtocolError(f"Refused a play from {who}: the game is over.")
        if msg["turn"] != len(game.history):
            raise ProtocolError(
                f"Refused a play from {who}: it is for turn {msg['turn'] + 1}, the game is at turn {len(game.history) + 1}."
            )
        if game.turn != self.peer:
            raise ProtocolError(f"Refused a play from {who}: it is not their turn.")
        if game.dice is None:
            raise ProtocolError(f"Refused a play from {who}: it came before the dice were rolled.")
        d1, d2 = game.dice
        if sorted(msg["dice"]) != sorted(game.dice):
            raise ProtocolError(
                f"Refused a play from {who}: it claims the dice {msg['dice'][0]}-{msg['dice'][1]}, "
                f"but the fair roll was {d1}-{d2}."
            )
        pos = game.position
        move = msg["move"]
        if move == "":
            if pos.legal_plays(d1, d2):
                raise ProtocolError(f"Refused a play from {who}: they passed, but {d1}-{d2} can be played.")
            after, play = pos.swap(), None
        else:
            try:
                play = pos.parse_play(move, d1, d2)
            except ValueError as err:
                raise ProtocolError(f"Refused a play from {who}: {move!r} is not legal with {d1}-{d2} ({err}).") from None
            after = play.next
        if after.id != msg["pos"]:
            raise ProtocolError(
                f"Refused a play from {who}: {move or 'passing'} gives position {after.id}, "
                f"but their message claims {msg['pos']}."
            )
        entry = game.play(play) if play is not None else game.pass_turn()
        events = [Event("play", data={"color": entry.color, "notation": entry.notation, "dice": tuple(entry.dice)})]
        if self.is_over:
            events.append(Event("over"))
        return events

    def _on_resign(self, msg) -> list:
        self._check_game(msg)
        who = self.peer_name or "Your friend"
        if self.is_over:
            raise ProtocolError(f"Refused a resignation from {who}: the game is over.")
        kind = result_kind(self.game.position, self.me)
        if msg["kind"] != kind:
            raise ProtocolError(f"Refused a resignation from {who}: it offers a {msg['kind']} but the position is a {kind}.")
        self.resigned = (self.me, kind)
        return [Event("over", f"{who} resigned.", {"resigned": self.peer})]

    def _on_rematch(self, msg) -> list:
        if not self.is_over or msg["game"] != self.game_no + 1:
            raise ProtocolError("Refused a rematch request: this game is not over.")
        self.rematch_received = True
        if self.rematch_sent:
            return self._start_rematch()
        return [Event("rematch-offered", f"{self.peer_name or 'Your friend'} wants a rematch: press Rematch to play again.")]

    def _on_chat(self, msg) -> list:
        return [Event("chat", msg["text"], {"from": self.peer_name or "Your friend"})]

    def _on_error(self, msg) -> list:
        if msg["fatal"]:
            if not self.stopped:
                self.stopped = f"your friend's game stopped it: {msg['reason']}"
            return [Event("stopped", f"Your friend's game stopped this game: {msg['reason']}")]
        return [Event("peer-error", f"Your friend's game refused a message from this page: {msg['reason']}")]

    # ------------------------------------------------------------ local actions
    def start_roll(self) -> None:
        """This side starts the exchange for the pending roll (Roll, or White for the opening)."""
        idx = self.pending_roll
        if idx is None:
            raise ValueError("the game is not waiting for dice")
        if self.starter(idx) != self.me:
            raise ValueError("it is not this side's roll")
        if not self.agreed:
            raise ValueError("not connected to your friend")
        ex = self.exchanges.get(idx) or self._new_exchange(idx)
        self._send("commit", game=self.game_no, roll=idx, hash=ex.commit)
        if ex.may_reveal:
            self._reveal(ex)

    def play_local(self, play) -> None:
        """This side plays (``play``: an engine Play, or None to pass) and tells the friend."""
        if self.is_over or self.game.turn != self.me or self.game.dice is None:
            raise ValueError("not this side's turn to play")
        entry = self.game.play(play) if play is not None else self.game.pass_turn()
        self._send_play(entry, len(self.game.history) - 1)

    def _send_play(self, entry, index: int) -> None:
        self._send("play", game=self.game_no, turn=index, dice=list(entry.dice), move=entry.notation, pos=entry.after_id)

    def resign(self) -> str:
        """Concede: the friend wins what the position shows. Returns the kind."""
        if self.is_over or self.stopped:
            raise ValueError("the game is over")
        kind = result_kind(self.game.position, self.peer)
        self.resigned = (self.peer, kind)
        self._send("resign", game=self.game_no, kind=kind)
        return kind

    def propose_rematch(self) -> list:
        if not self.is_over:
            raise ValueError("the game is not over")
        self.rematch_sent = True
        self._send("rematch", game=self.game_no + 1)
        if self.rematch_received:
            return self._start_rematch()
        return []

    def chat(self, text: str) -> None:
        self._send("chat", text=text)

    def _start_rematch(self) -> list:
        self.game_no += 1
        self.game = Game()
        self.exchanges = {}
        self._revealed = set()
        self.resigned = None
        self.stopped = None
        self.rematch_sent = self.rematch_received = False
        if self.agreed and self.me == WHITE:
            self.start_roll()
        return [Event("new-game", f"Game {self.game_no} against {self.peer_name or 'your friend'}.")]

    def points(self):
        """The winner's points (``engine.Points``), None while the game goes on."""
        kind = self.result_kind
        return None if kind is None else points_for(kind)

    # ------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        return {
            "v": STATE_VERSION,
            "me": self.me,
            "room": self.room,
            "name": self.name,
            "peer_name": self.peer_name,
            "game_no": self.game_no,
            "game": self.game.to_dict(),
            "exchanges": [self.exchanges[i].to_dict() for i in sorted(self.exchanges)],
            "resigned": list(self.resigned) if self.resigned else None,
            "stopped": self.stopped,
            "rematch_sent": self.rematch_sent,
            "rematch_received": self.rematch_received,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "FriendSession":
        """:raises ValueError: not a saved friend game of this version, or damaged."""
        if not isinstance(d, dict) or d.get("v") != STATE_VERSION:
            raise ValueError("the saved friend game is from another version")
        try:
            if d["me"] not in ("white", "black"):
                raise ValueError("bad colour")
            s = cls(d["me"], str(d["room"]), str(d.get("name") or ""), int(d["game_no"]))
            s.peer_name = clean_name(d["peer_name"]) if d.get("peer_name") else None
            s.game = Game.from_dict(d["game"])
            for e in d.get("exchanges") or []:
                ex = fair_dice.Exchange.from_dict(e)
                s.exchanges[ex.index] = ex
            if d.get("resigned"):
                w, k = d["resigned"]
                if w not in ("white", "black") or k not in ("single", "gammon", "backgammon"):
                    raise ValueError("bad resignation")
                s.resigned = (w, k)
            s.stopped = str(d["stopped"]) if d.get("stopped") else None
            s.rematch_sent = bool(d.get("rematch_sent"))
            s.rematch_received = bool(d.get("rematch_received"))
            return s
        except (KeyError, TypeError, IndexError) as err:
            raise ValueError(f"the saved friend game is damaged ({err})") from None


class Loopback:
    """Two sessions wired together in memory (tests, doctests): messages are
    queued and delivered by ``run()`` in order, like a data channel."""

    def __init__(self, a: FriendSession, b: FriendSession, connect: bool = True):
        self.a, self.b = a, b
        self.queue: list = []           # (receiver, text)
        self.events = {id(a): [], id(b): []}
        self.errors = {id(a): [], id(b): []}
        if connect:
            self.connect()

    def connect(self) -> None:
        self.queue.clear()
        self.a.connect(lambda text: self.queue.append((self.b, text)))
        self.b.connect(lambda text: self.queue.append((self.a, text)))

    def disconnect(self) -> None:
        self.queue.clear()
        self.a.disconnect()
        self.b.disconnect()

    def run(self, limit: int = 1000) -> None:
        n = 0
        while self.queue and n < limit:
            receiver, text = self.queue.pop(0)
            n += 1
            try:
                self.events[id(receiver)] += receiver.receive(text)
            except ProtocolError as err:
                self.errors[id(receiver)].append(err)
