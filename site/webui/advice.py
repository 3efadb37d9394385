"""How the AI's advice reads on the page (pure; MicroPython and CPython): the
hint list's rows, and the post-game review's verdicts, error rate and rating.

Plays are written in the board's numbers (``board_numbers.board_notation``).
Verdicts and ratings use GNU Backgammon 1.07's defaults: a chequer play that
gives away more than 0.04 equity is doubtful, more than 0.08 an error, more
than 0.16 a blunder; the error rate is the equity lost per unforced decision
(in thousandths, gnubg's mEMG, shown negative), rated Supernatural under
0.002 per decision, World class under 0.005, Expert 0.008, Advanced 0.012,
Intermediate 0.018, Casual player 0.026, Beginner 0.035, else Awful!.
"""

from engine import Position, to_absolute

from .board_numbers import board_notation
from .game_text import dice_words

# (equity lost above which, verdict), worst first: gnubg's arSkillLevel
VERDICTS = ((0.16, "blunder"), (0.08, "error"), (0.04, "doubtful"))
# (error per decision below which, rating), best first: gnubg's arThrsRating and aszRating
RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"), (0.012, "Advanced"),
           (0.018, "Intermediate"), (0.026, "Casual player"), (0.035, "Beginner"))
WORST_RATING = "Awful!"


def pct(p) -> str:
    return f"{100 * p:.1f}%"


def signed(x) -> str:
    """``+0.157``, ``-0.031`` (a minus sign, as gnubg prints equities)."""
    x = round(x, 3)
    return f"{'+' if x >= 0 else '−'}{abs(x):.3f}"


def mEMG(rate) -> str:
    """gnubg's error rate in thousandths of an equity, negative: ``-12.3``; no loss is ``0.0``."""
    value = round(1000 * rate, 1)
    return f"−{value:.1f}" if value > 0 else "0.0"


def depth_words(ply) -> str:
    """How far ahead a hint's figures looked: ``2 rolls ahead``, ``1 roll ahead``, ``at a glance`` (0-ply)."""
    return "at a glance" if not ply else f"{ply} roll{'s' if ply > 1 else ''} ahead"


def hint_rows(color: str, hints: list) -> list:
    """The hint list's rows: dicts with ``notation`` (gnubg's, to show its arrows),
    ``play`` (board numbers), ``equity``, ``loss``, ``chances`` and ``label`` (all read as words).

    When the list mixes depths (level 5 looks two rolls ahead at its closest
    plays, one at the next, and ranks the rest at a glance), every row's
    chances say how far ahead they looked, as gnubg's hint list gives each
    play's ply: figures of different depths are not strictly comparable."""
    mixed = len(set(h.get("ply", 0) for h in hints)) > 1
    rows = []
    for i, h in enumerate(hints):
        play = board_notation(h["notation"], color)
        equity = signed(h["equity"])
        loss = "best" if i == 0 else signed(-h["loss"])
        chances = (f"win {pct(h['win'])}, gammon {pct(h['win_gammon'])}, "
                   f"lose a gammon {pct(h['lose_gammon'])}")
        if mixed:
            chances += f" ({depth_words(h.get('ply', 0))})"
        label = f"{i + 1}. {play}: equity {equity}" + ("" if i == 0 else f" ({loss})") + f"; {chances}"
        rows.append({"notation": h["notation"], "play": play, "equity": equity, "loss": loss,
                     "chances": chances, "label": label})
    return rows


def book_row(color: str, notation: str) -> dict:
    """The one row shown while the AI's worker loads: the opening book's play (level 5's), no numbers yet."""
    play = board_notation(notation, color)
    return {"notation": notation, "play": play, "equity": "…", "loss": "best",
            "chances": "the AI's opening book; equities and chances once the AI has loaded",
            "label": f"1. {play}: the best play from the opening book (equities once the AI has loaded)"}


def verdict(loss) -> str:
    """"blunder", "error", "doubtful" or "" for the equity a play gave away."""
    for limit, word in VERDICTS:
        if loss > limit:
            return word
    return ""


def rating(error_per_decision) -> str:
    for limit, word in RATINGS:
        if error_per_decision < limit:
            return word
    return WORST_RATING


def decisions(history, colors) -> list:
    """The turns of ``colors`` that had a play to choose: (index in the history, entry)."""
    return [(i, e) for i, e in enumerate(history) if e.color in colors and e.notation]


class Review:
    """The review of one game as it comes in, decision by decision.

    ``add(index, entry, judged)`` takes the worker's verdict on a decision
    (``analysis.review_decision``); ``rows`` are what the page lists,
    ``summary()`` the overall sentence. Forced plays (one choice) are listed
    but neither counted nor rated, as in gnubg.
    """

    def __init__(self, total: int):
        self.total = total     # decisions to review
        self.rows = []

    @property
    def done(self) -> bool:
        return len(self.rows) >= self.total

    def add(self, index, entry, judged: dict) -> dict:
        forced = judged["choices"] <= 1
        loss = 0.0 if forced else float(judged["loss"])
        word = "" if forced else verdict(loss)
        played = board_notation(entry.notation, entry.color)
        best = board_notation(judged["best"], entry.color) if judged["best"] else played
        same = loss == 0.0 or best == played
        row = {
            "index": index, "color": entry.color, "dice": dice_words(entry.dice),
            "played": played, "best": best, "played_notation": entry.notation,
            "best_notation": judged["best"] or entry.notation, "loss": loss, "verdict": word,
            "forced": forced, "same": same,
        }
        if forced:
            row["text"] = f"{row['dice']}: {played} (forced)"
        elif same:
            row["text"] = f"{row['dice']}: {played}: the best play"
        else:
            row["text"] = f"{row['dice']}: {played}, best {best} ({signed(-loss)}{', ' + word if word else ''})"
        self.rows.append(row)
        return row

    def counted(self) -> list:
        return [r for r in self.rows if not r["forced"]]

    def error_rate(self) -> float:
        rows = self.counted()
        return sum(r["loss"] for r in rows) / len(rows) if rows else 0.0

    def summary(self) -> str:
        rows = self.counted()
        if not rows:
            return "No decisions to review: every play was forced."
        counts = {w: sum(1 for r in rows if r["verdict"] == w) for _, w in VERDICTS}
        rate = self.error_rate()
        word = rating(rate)
        forced = len(self.rows) - len(rows)
        counted = (f"{len(rows)} decision{'s' if len(rows) != 1 else ''} with a choice"
                   + (f" ({forced} forced play{'s' if forced != 1 else ''} not counted)" if forced else ""))
        return (f"{counted}: "
                f"{counts['blunder']} blunder{'s' if counts['blunder'] != 1 else ''}, "
                f"{counts['error']} error{'s' if counts['error'] != 1 else ''}, "
                f"{counts['doubtful']} doubtful. Error rate {mEMG(rate)} mEMG per move "
                f"(equity lost {signed(-sum(r['loss'] for r in rows))} in all). Rating: {word}"
                f"{'' if word.endswith('!') else '.'}")


def play_arrows(position_id: str, color: str, dice, notation: str) -> tuple:
    """The board's arrows for a play: absolute (source, destination) per step."""
    if not notation:
        return ()
    pos = Position.from_id(position_id, turn=color)
    play = pos.parse_play(notation, dice[0], dice[1])
    return tuple((to_absolute(color, st.src), to_absolute(color, st.dst)) for st in play.steps)
