"""The board page's game flow runs the same on MicroPython (the page's main thread) as on CPython.

The same script plays complete games through the controller exactly as the
page does (Roll, clicks on points, Done; the computer's turns with the
fallback player; two friend controllers wired in memory), saves and restores
them, and prints every announcement, history entry, result and view; its
output must be identical on both interpreters, and the games must really be
played (checked on the CPython side).
"""

import json
import os
import subprocess
import sys

from micropython import ROOT, run

SCRIPT = r'''
import hashlib
import json
from webui import fair_dice
from webui.controller import Controller, Settings
from webui.fallback_player import fallback_choice
from webui.friend_controller import FriendController
from webui.friend_session import FriendSession


def plain(value):
    # dicts as sorted [key, value] lists: MicroPython's dicts keep no order
    if isinstance(value, dict):
        return [[k, plain(value[k])] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def emit(kind, value):
    print(json.dumps([kind, plain(value)]))


def human_turn(c, k):
    # pick the k-th source and k-th destination (wrapping), as clicks would;
    # every third turn by quick moves (the higher die, right-click the lower), an Undo all and again
    if k % 3 == 0:
        srcs = sorted(c.sources(), key=str)
        c.quick(srcs[k % len(srcs)], "low" if k % 2 else "high")
        emit("quick", [c.status_line(), len(c.builder.steps)])
        c.undo(everything=True)
    while not c.can_done:
        srcs = sorted(c.sources(), key=str)
        assert c.click(srcs[k % len(srcs)]) == "pick"
        dsts = sorted(c.legal, key=str)
        assert c.click(dsts[k % len(dsts)]) == "move"
    assert c.done()


def play_device_game(settings, restore_every=7):
    c = Controller()
    c.new_game(settings)
    k = 0
    for _ in range(3000):
        if c.phase == "over":
            break
        k += 1
        if c.phase == "roll":
            c.roll()
        elif c.phase == "move":
            human_turn(c, k)
        elif c.phase == "ai":
            if c.ai_needs_roll():
                c.ai_roll()
            c.ai_play(fallback_choice(c.game.position, *c.game.dice))
        pos, view = c.view()
        emit("view", [pos.id, view.position_id, sorted(view.legal, key=str), c.phase, view.extra.get("held"),
                      sorted(view.movable, key=str), c.status_line()])
        if c.held is not None:
            c.release_held(c.held)
        for said in c.take_announcements():
            emit("say", said)
        if k % restore_every == 0:  # save and restore mid-game, as a reload does
            c = Controller.from_dict(json.loads(json.dumps(c.to_dict())))
    emit("history", [[e.color, list(e.dice), e.notation, e.before_id, e.after_id] for e in c.history()])
    emit("result", [c.result(), c.result_sentence(), c.result_sentence(short=True)])
    emit("score", [c.score_text(), c.game_stats()])
    c.step_history(-1)
    c.step_history(-1)
    emit("viewing", [c.viewing, c.viewing_text(), list(c.history_arrows(c.viewing))])
    emit("entry", c.leaderboard_entry("Ann", "2026-12-02"))


def resign_early(settings):
    c = Controller()
    c.new_game(settings)
    emit("resign-offer", c.resign_offer())
    c.resign()
    c = Controller.from_dict(json.loads(json.dumps(c.to_dict())))
    emit("resigned", [c.result(), c.result_sentence(), c.score_text()])


def fixed_secrets():
    # the same "random" secrets in both runtimes, so both play the same dice
    count = [0]

    def new_secret():
        count[0] += 1
        return hashlib.sha256(("test secret %d" % count[0]).encode()).digest()

    fair_dice.new_secret = new_secret


def play_friend_game(room, k0):
    fixed_secrets()
    a = FriendController(FriendSession("white", room, "Ann"))
    b = FriendController(FriendSession("black", room, "Bob"))
    queue = []
    a.session.connect(lambda t: queue.append((b, t)))
    b.session.connect(lambda t: queue.append((a, t)))

    def deliver():
        while queue:
            c, text = queue.pop(0)
            c.receive(text)

    deliver()
    k = k0
    for _ in range(3000):
        if a.phase == "over" and b.phase == "over":
            break
        k += 1
        for c in (a, b):
            if c.phase == "roll":
                c.roll()
            elif c.phase == "move":
                human_turn(c, k)
            deliver()
        for c in (a, b):
            for said in c.take_announcements():
                emit("say-" + c.me, said)
    emit("friend-history", [[e.color, list(e.dice), e.notation, e.after_id] for e in a.history()])
    emit("friend-agree", a.game.position.id == b.game.position.id and a.history() == b.history())
    emit("friend-result", [a.result(), a.result_sentence(), b.result_sentence()])


for seed in (3, 11, 29):
    play_device_game(Settings("local", 3, "white", seed))
for level, color, seed in ((1, "white", 5), (5, "black", 8), (3, "black", 13)):
    play_device_game(Settings("ai", level, color, seed))
play_friend_game("00112233aabb", 1)
resign_early(Settings("ai", 2, "black", 4))
resign_early(Settings("local", 3, "white", 6))
'''


def _cpython(script: str) -> str:
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'site'}")
    proc = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, env=env,
                          timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_games_through_the_controller_agree_on_micropython_and_cpython():
    want = _cpython(SCRIPT)
    rows = [json.loads(line) for line in want.splitlines()]
    results = [r[1] for r in rows if r[0] == "result"]
    assert len(results) == 6 and all(res[0] is not None for res in results), "every game must end"
    assert [r[1] for r in rows if r[0] == "friend-agree"] == [True]
    assert sum(1 for r in rows if r[0] == "say" and " moved " in r[1]) > 100, "humans' moves were clicked"
    got = [json.loads(line) for line in run(SCRIPT, libs=("engine", "webui")).splitlines()]
    for i, (g, w) in enumerate(zip(got, rows)):
        assert g == w, f"line {i}: MicroPython printed\n  {g}\nCPython printed\n  {w}"
    assert len(got) == len(rows)
