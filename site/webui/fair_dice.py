"""Fair dice between two players who do not trust each other: commit-reveal (pure).

For every roll each side draws a 32-byte random secret and first sends only
its commitment, ``SHA-256(secret)``. A side reveals its secret only once it
holds the other side's commitment, so neither can change its secret after
seeing the other's. The dice come from both secrets together: hashing them
(with the room, game and roll number, so an old reveal cannot be replayed)
gives a stream of bytes; a byte below 252 = 7 x 36 picks one of the 36
outcomes, anything else is rejected and the next byte taken. Every outcome is
therefore exactly equally likely as long as either secret is random. The
opening roll (one die each) re-rolls ties the same way, from the same stream.

>>> w, b = bytes(32), bytes([1]) * 32
>>> roll(w, b, "room|1|3") == roll(w, b, "room|1|3")
True
>>> verify(commitment(w), w)
>>> a, b2 = opening(w, b, "room|1|0"); a != b2
True
"""

import hashlib
import random

SECRET_BYTES = 32
DOMAIN = b"backgammon-fair-dice-v1"
LIMIT = 252  # 7 * 36: the largest multiple of 36 that fits in a byte
SEED_DRAWS = 16  # 32-bit draws from the system's CSPRNG hashed into one secret


class CommitmentMismatch(ValueError):
    """A revealed secret does not hash to the commitment sent before it."""


def new_secret() -> bytes:
    """32 random bytes from the system's CSPRNG (in the browser: crypto.getRandomValues).

    No module in the subset of CPython and MicroPython reads that CSPRNG
    directly (MicroPython has neither ``os.urandom`` nor ``secrets``), but
    ``random.seed()`` without an argument seeds from it in each runtime:
    CPython and Pyodide from ``os.urandom``, MicroPython's browser build from
    ``crypto.getRandomValues``. So each of ``SEED_DRAWS`` draws reseeds and
    takes the first 32 bits, and SHA-256 of them all is the secret. Side
    effect: the ``random`` module's shared generator is reseeded at random.
    """
    h = hashlib.sha256(DOMAIN + b"\0secret\0")
    for _ in range(SEED_DRAWS):
        random.seed()
        h.update(random.getrandbits(32).to_bytes(4, "big"))
    return h.digest()


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, as 64 lowercase hex digits."""
    _check_secret(secret)
    return hashlib.sha256(secret).digest().hex()


def _same_text(a: str, b: str) -> bool:
    """``a == b`` in time that depends only on the lengths (``hmac.compare_digest``)."""
    if len(a) != len(b):
        return False
    diff = 0
    for x, y in zip(a, b):
        diff |= ord(x) ^ ord(y)
    return diff == 0


def verify(commit_hex: str, secret: bytes) -> None:
    """:raises CommitmentMismatch: ``secret`` is not the one committed to."""
    _check_secret(secret)
    if not _same_text(commitment(secret), str(commit_hex).lower()):
        raise CommitmentMismatch(
            "Your friend's dice secret does not match the commitment they sent before: "
            "the dice could have been chosen, so this game is stopped."
        )


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, (bytes, bytearray)) or len(secret) != SECRET_BYTES:
        raise ValueError(f"a dice secret is {SECRET_BYTES} bytes")


def outcomes(white_secret: bytes, black_secret: bytes, context: str):
    """An endless stream of outcomes 0..35, each uniform, from both secrets.

    White's secret comes first so both sides derive the same stream.
    """
    _check_secret(white_secret)
    _check_secret(black_secret)
    seed = DOMAIN + b"\0" + context.encode("utf-8") + b"\0" + bytes(white_secret) + bytes(black_secret)
    block = 0
    while True:
        for byte in hashlib.sha256(seed + block.to_bytes(8, "big")).digest():
            if byte < LIMIT:
                yield byte % 36
        block += 1


def _dice(outcome: int) -> tuple[int, int]:
    return outcome // 6 + 1, outcome % 6 + 1


def roll(white_secret: bytes, black_secret: bytes, context: str) -> tuple[int, int]:
    """A normal roll: each of the 36 (d1, d2) outcomes with probability 1/36."""
    return _dice(next(outcomes(white_secret, black_secret, context)))


def opening(white_secret: bytes, black_secret: bytes, context: str) -> tuple[int, int]:
    """The opening roll (White's die, Black's die); ties are re-rolled."""
    for o in outcomes(white_secret, black_secret, context):
        w, b = _dice(o)
        if w != b:
            return w, b
    raise AssertionError("unreachable")  # pragma: no cover


def context(room: str, game: int, index: int) -> str:
    """What a roll is bound to: ``room|game|roll index`` (roll 0 is the opening)."""
    return f"{room}|{game}|{index}"


class Exchange:
    """One roll's commit-reveal, seen from one side.

    ``mine`` is this side's secret; ``peer_commit``/``peer_secret`` arrive from
    the other side. ``may_reveal`` only once the peer's commitment is here.
    """

    def __init__(self, index: int, mine: bytes | None = None):
        self.index = index
        self.mine = mine if mine is not None else new_secret()
        _check_secret(self.mine)
        self.peer_commit = None   # the peer's commitment (64 hex digits) once it arrived
        self.peer_secret = None   # the peer's secret (bytes) once revealed and checked

    @property
    def commit(self) -> str:
        return commitment(self.mine)

    @property
    def may_reveal(self) -> bool:
        return self.peer_commit is not None

    @property
    def complete(self) -> bool:
        return self.peer_secret is not None

    def receive_commit(self, commit_hex: str) -> bool:
        """Store the peer's commitment; False if it was already known (a resend).

        :raises CommitmentMismatch: a different commitment for the same roll.
        """
        commit_hex = commit_hex.lower()
        if self.peer_commit is None:
            self.peer_commit = commit_hex
            return True
        if self.peer_commit != commit_hex:
            raise CommitmentMismatch(
                "Your friend's game changed its dice commitment for this roll: "
                "the dice could have been chosen, so this game is stopped."
            )
        return False

    def receive_reveal(self, secret: bytes) -> bool:
        """Check and store the peer's secret; False if it was already known.

        :raises CommitmentMismatch: it does not match the commitment.
        :raises ValueError: no commitment yet (a reveal must follow its commitment).
        """
        if self.peer_commit is None:
            raise ValueError("a dice secret arrived before its commitment")
        verify(self.peer_commit, secret)
        if self.peer_secret is not None:
            return False
        self.peer_secret = bytes(secret)
        return True

    def secrets_by_colour(self, me: str) -> tuple[bytes, bytes]:
        if self.peer_secret is None:
            raise ValueError("the dice are not revealed yet")
        return (self.mine, self.peer_secret) if me == "white" else (self.peer_secret, self.mine)

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "mine": self.mine.hex(),
            "peer_commit": self.peer_commit,
            "peer_secret": self.peer_secret.hex() if self.peer_secret else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Exchange":
        ex = cls(int(d["index"]), bytes.fromhex(d["mine"]))
        if d.get("peer_commit"):
            ex.peer_commit = str(d["peer_commit"])
        if d.get("peer_secret"):
            ex.receive_reveal(bytes.fromhex(d["peer_secret"]))
        return ex
