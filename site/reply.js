/* reply.html: hand a friend's reply code (#r=...) to the game tab waiting for it
 * in this browser, over BroadcastChannel("bg-friend") (webui/friend_app.py).
 * The game tab answers {type: "answer-ack", id, ok, text} once it has used the
 * code, then {type: "connected", id} when the data channel is open. Without an
 * answer the code is shown for pasting. Text from other tabs is shown as text. */
const status = document.getElementById("reply-status");
const fallback = document.getElementById("reply-fallback");
const codeBox = document.getElementById("reply-code-text");
const say = (text, state) => { status.textContent = text; status.dataset.state = state; };

const code = new URLSearchParams(location.hash.slice(1)).get("r") || "";
let done = false;
let connected = false;   // the game tab's "connected" can overtake its "answer-ack"

function showCode() {
  codeBox.textContent = code;
  fallback.hidden = false;
}

document.getElementById("reply-copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(code); say("Code copied: paste it into your game.", status.dataset.state); }
  catch { /* the code is on screen to select */ }
});

if (!/^[A-Za-z0-9_-]{20,1200}$/.test(code)) {
  say("This reply link is incomplete: ask your friend to send the whole link again.", "bad");
} else if (!("BroadcastChannel" in self)) {
  say("This browser cannot pass the reply to your game tab by itself.", "fallback");
  showCode();
} else {
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  const channel = new BroadcastChannel("bg-friend");
  channel.onmessage = (event) => {
    const m = event.data || {};
    if (m.id !== id) return;
    if (m.type === "answer-ack") {
      done = true;
      if (connected) return;   // the channel opened before the game tab got round to the ack
      if (m.ok) say("Connecting to your friend…", "connecting");
      else { say(String(m.text || "Your game could not use this reply."), "refused"); }
    } else if (m.type === "connected") {
      done = connected = true;
      say("Connected! Return to your game tab — you can close this one.", "connected");
      document.title = "Connected — Backgammon";
    }
  };
  channel.postMessage({ type: "answer", code, id });
  setTimeout(() => {
    if (!done) {
      say("No game in this browser is waiting for this reply.", "fallback");
      showCode();
    }
  }, 3000);
}
