#!/usr/bin/env python3
"""Do both pages' first messages arrive on a fresh WebRTC data channel? (dev tool)

A friend game starts with each page sending its greeting the moment the data
channel opens; a greeting that never arrives stalls the game. This opens
``pairs`` loopback connections, one after another, between two
``RTCPeerConnection`` objects in one Chromium page, made the way the friend
game makes them (the offer, non-trickle gathering, the answer), sends one
message each way as soon as each side's channel is open, and counts the
connections where either message had not arrived ``wait_ms`` later.

    python3 tools/datachannel_first_messages.py            # 200 pairs: the site's channel, then in-band (DCEP)
    python3 tools/datachannel_first_messages.py 50 site    # only the site's options

Measured here (Chromium 156, 2-core machine with one core busy, 2026-12-06):
in-band channels (the answering page's channel from ``ondatachannel``) lost or
held the answering page's first message in 7 of 150 connections; negotiated
channels (``site/webui/friend_params.DATA_CHANNEL``) in 0 of 250. The e2e
test ``e2e/test_data_channel.py`` runs the site's options.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "site"))

from webui.friend_params import DATA_CHANNEL  # noqa: E402

IN_BAND = {"ordered": True}

#: ``(pairs, options, waitMs)`` -> ``{ok, lost: [{i, offerer_got, answerer_got, buffered}]}``
JS = r"""
async ([pairs, options, waitMs]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const gathered = async (pc) => { while (pc.iceGatheringState !== 'complete') await sleep(10); };
  const out = {ok: 0, lost: []};
  for (let i = 0; i < pairs; i++) {
    const a = new RTCPeerConnection({iceServers: []}), b = new RTCPeerConnection({iceServers: []});
    let aGot = false, bGot = false, bChannel = null;
    const greet = (ch, text) => {
      const hi = () => ch.send(text);
      if (ch.readyState === 'open') hi(); else ch.onopen = hi;
    };
    const aChannel = a.createDataChannel('backgammon', options);
    aChannel.onmessage = () => { aGot = true; };
    greet(aChannel, '{"t":"hello","from":"the inviting page"}');
    const wire = (ch) => {
      bChannel = ch;
      ch.onmessage = () => { bGot = true; };
      greet(ch, '{"t":"hello","from":"the answering page, with a name"}');
    };
    if (options.negotiated) wire(b.createDataChannel('backgammon', options));
    else b.ondatachannel = (e) => wire(e.channel);
    await a.setLocalDescription(await a.createOffer());
    await gathered(a);
    await b.setRemoteDescription(a.localDescription);
    await b.setLocalDescription(await b.createAnswer());
    await gathered(b);
    await a.setRemoteDescription(b.localDescription);
    const t0 = performance.now();
    while (!(aGot && bGot) && performance.now() - t0 < waitMs) await sleep(5);
    if (aGot && bGot) out.ok++;
    else out.lost.push({i, offerer_got: aGot, answerer_got: bGot,
                        buffered: bChannel ? bChannel.bufferedAmount : null});
    a.close(); b.close();
  }
  return out;
}
"""


def run(page, pairs: int, options: dict, wait_ms: int = 5000) -> dict:
    """Run ``pairs`` connections in ``page`` (any page, ``about:blank`` will do)."""
    return page.evaluate(JS, [pairs, dict(options), wait_ms])


def main(argv) -> int:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "e2e"))
    from conftest import CHROMIUM, CHROMIUM_ARGS

    pairs = int(argv[1]) if len(argv) > 1 else 200
    which = argv[2:] or ["site", "in-band"]
    modes = {"site": DATA_CHANNEL, "in-band": IN_BAND}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        for name in which:
            t0 = time.monotonic()
            res = run(page, pairs, modes[name])
            print(f"{name} {modes[name]}: {res['ok']} of {pairs} connections delivered both first messages, "
                  f"{len(res['lost'])} did not ({time.monotonic() - t0:.0f} s) {res['lost']}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
