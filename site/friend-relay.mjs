// A friend game's meeting point on public Nostr relays (webui/friend_relay.py drives it).
//
// Both pages subscribe, on every relay at once, to ephemeral events (kind
// KIND, in NIP-01's 20000-29999 range: relays pass them on and store nothing)
// tagged ["t", topic]; every event's content is a message sealed with the
// link's secret (friend-crypto.mjs). Each page signs its events with a
// throwaway key made for this page (nostr-tools' generateSecretKey /
// finalizeEvent); nostr-tools' Relay checks every event's signature. Events
// seen on several relays are handled once (by id). Loaded only in friend
// games: the page imports this module, which loads the vendored nostr-tools
// bundle (a classic script) on first use.

import { deriveRoom, seal, unseal } from "./friend-crypto.mjs";

export const KIND = 25055;
export const NOSTR_BUNDLE = "./vendor/nostr-tools-2.25.2/nostr.bundle.js";
const CONNECT_TIMEOUT_MS = 4000;

let loading = null;

function loadNostr() {
  if (globalThis.NostrTools) return Promise.resolve(globalThis.NostrTools);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = new URL(NOSTR_BUNDLE, document.baseURI).href;
      s.onload = () => resolve(globalThis.NostrTools);
      s.onerror = () => { loading = null; reject(new Error("could not load the relay library")); };
      document.head.appendChild(s);
    });
  }
  return loading;
}

class RelayRoom {
  constructor(nostr, room, urls, onMessage, onStatus) {
    this.nostr = nostr;
    this.room = room;
    this.urls = urls;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.sk = nostr.generateSecretKey();
    this.relays = [];
    this.failed = [];
    this.seen = new Set();
    this.received = 0;
    this.rejected = 0;
    this.published = 0;
    this.closed = false;
  }

  status() {
    return JSON.stringify({ open: this.relays.filter((r) => r.connected).map((r) => r.url),
      failed: this.failed, total: this.urls.length, received: this.received,
      rejected: this.rejected, published: this.published });
  }

  report() {
    if (!this.closed) {
      try { this.onStatus(this.status()); } catch (e) { console.warn("relay status", e); }
    }
  }

  async connectAll() {
    await Promise.allSettled(this.urls.map((url) => this.connectOne(url)));
    this.report();
  }

  async connectOne(url) {
    let relay;
    try {
      relay = await this.nostr.Relay.connect(url, { timeout: CONNECT_TIMEOUT_MS });
    } catch (e) {
      this.failed.push(url);
      this.report();
      return;
    }
    if (this.closed) { relay.close(); return; }
    relay.onclose = () => { this.failed.push(url); this.report(); };
    relay.onnotice = () => {};
    this.relays.push(relay);
    relay.subscribe([{ kinds: [KIND], "#t": [this.room.topic] }], {
      onevent: (event) => this.onEvent(event),
      eoseTimeout: 60000,
    });
    this.report();
  }

  async onEvent(event) {
    if (this.closed || this.seen.has(event.id)) return;
    this.seen.add(event.id);
    if (event.pubkey === this.nostr.getPublicKey(this.sk)) return;  // our own, echoed
    let text;
    try {
      text = await unseal(this.room, event.content);
    } catch (e) {
      this.rejected += 1;
      this.report();
      return;
    }
    this.received += 1;
    this.report();
    try { this.onMessage(text); } catch (e) { console.warn("relay message", e); }
  }

  // -> the number of relays that accepted the event
  async send(text) {
    if (this.closed) return 0;
    const content = await seal(this.room, text);
    const event = this.nostr.finalizeEvent({ kind: KIND, created_at: Math.floor(Date.now() / 1000),
      tags: [["t", this.room.topic]], content }, this.sk);
    const results = await Promise.allSettled(this.relays.filter((r) => r.connected).map((r) => r.publish(event)));
    const ok = results.filter((r) => r.status === "fulfilled").length;
    this.published += ok;
    this.report();
    return ok;
  }

  close() {
    this.closed = true;
    for (const r of this.relays) { try { r.close(); } catch (e) { /* already closed */ } }
    this.relays = [];
  }
}

// Open the room of `secret` on the relays `urls` (ws:// or wss://); the
// relays connect in the background: `onStatus(json)` tells how it goes,
// `onMessage(text)` gets every message of the other page, opened.
export async function openRoom(urls, secret, onMessage, onStatus) {
  const [nostr, room] = await Promise.all([loadNostr(), deriveRoom(secret)]);
  const r = new RelayRoom(nostr, room, Array.from(urls), onMessage, onStatus);
  r.connectAll();
  return r;
}
