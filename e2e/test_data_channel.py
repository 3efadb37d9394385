"""The friend game's data channel delivers both pages' first messages.

Each page of a friend game sends its greeting the moment the channel opens.
With Chromium's in-band channel set-up (DCEP), about 1 connection in 20 lost
or held the answering page's greeting on this machine
(``tools/datachannel_first_messages.py`` measures both kinds), so the site
makes a negotiated channel (``webui.friend_params.DATA_CHANNEL``). This runs
the site's options on 60 fresh loopback connections: every first message
must arrive.
"""

from __future__ import annotations

from datachannel_first_messages import run  # tools/
from webui.friend_params import DATA_CHANNEL


def test_first_messages_arrive_on_fresh_channels(page):
    page.goto("about:blank")
    res = run(page, 60, DATA_CHANNEL)
    assert res["ok"] == 60 and not res["lost"], f"first messages lost on {len(res['lost'])} of 60 connections: {res['lost']}"
