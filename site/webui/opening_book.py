"""The opening book: the computer's first play without the AI (pure; MicroPython too).

The main thread has the engine but not the AI, which loads in a worker. The
book (``site/opening-book.json``, built from the real AI by
``python -m ai.opening_book``) holds, for levels 1-5 and either colour, the
computer's play when it won the opening roll and its reply to every legal
opening play of the player, for all 21 rolls: what ``ai.choose`` plays at
that level with the book's fixed seed.

    book = Book(json.loads(text))
    play = book.play(position, d1, d2, level)   # an engine Play, or None

An entry is the chosen play's index among the legal plays sorted by their
result's Position ID (mover on roll). The index is built on the first
lookup, one dict entry per book position.
"""

FORMAT = 1


def _result_id(play):
    return play.result.id


class Book:
    """Lookups in a parsed opening book (the JSON object of ``opening-book.json``).

    :raises ValueError: data that is not a book of this format.
    """

    def __init__(self, data):
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not an opening book of format %d" % FORMAT)
        self._data = data
        self._index = None   # position ID -> (offset in a turn's block, {(d1, d2): i})
        self._block = 0      # entries per turn

    def _build_index(self):
        index = {}
        offset = 0
        for section in self._data["sections"]:
            ids, rolls = section[1], section[2].split()
            roll_at = {}
            for i, r in enumerate(rolls):
                roll_at[(int(r[0]), int(r[1]))] = i
            for pid in ids:
                index[pid] = (offset, roll_at)
                offset += len(rolls)
        self._block = offset
        self._index = index

    def index(self, position_id, turn, d1, d2, level):
        """The entry for this position (``turn`` on roll), roll and level: the
        play's index among the sorted legal plays, or None outside the book."""
        if self._index is None:
            self._build_index()
        found = self._index.get(position_id)
        plays = self._data["plays"].get(str(level))
        turns = self._data["turns"]
        if found is None or plays is None or turn not in turns:
            return None
        offset, roll_at = found
        i = roll_at.get((max(d1, d2), min(d1, d2)))
        if i is None:
            return None
        k = self._data["alphabet"].find(plays[turns.index(turn) * self._block + offset + i])
        return None if k < 0 else k

    def play(self, position, d1, d2, level):
        """The level's play (an engine ``Play``) for ``position`` and the roll,
        or None when the book has no entry (or the entry fits no legal play)."""
        k = self.index(position.id, position.turn, d1, d2, level)
        if k is None:
            return None
        plays = sorted(position.legal_plays(d1, d2), key=_result_id)
        return plays[k] if k < len(plays) else None
