// The keys and the sealing of a friend game's signalling messages on the relays.
//
// The invite link's fragment carries a 16-byte secret (base64url, never sent
// to a server). From it, HKDF-SHA-256 (salt "bg-friend-relay-v1") derives
//   - the topic (info "topic", 32 bytes, hex): the tag both pages subscribe
//     to on the relays, which tells a relay nothing about the room or secret;
//   - an AES-256-GCM key (info "aes-256-gcm").
// A sealed message is base64url(iv (12 random bytes) | ciphertext | tag), with
// the topic as additional data: a relay sees only ciphertext, and any change
// to it (or a message sealed under another secret) fails to open.
// Plain Web Crypto (crypto.subtle): the same code runs in the browser and
// under Node (tests/test_friend_relay_crypto.py).

const SALT = "bg-friend-relay-v1";
const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

export function toBase64url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function newSecret() {
  return toBase64url(crypto.getRandomValues(new Uint8Array(16)));
}

// secret (base64url, 16 bytes) -> {topic, key}
export async function deriveRoom(secret) {
  const raw = fromBase64url(secret);
  if (raw.length !== 16) throw new Error("the link's secret must be 16 bytes");
  const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveBits", "deriveKey"]);
  const params = (info) => ({ name: "HKDF", hash: "SHA-256", salt: enc.encode(SALT), info: enc.encode(info) });
  const topic = hex(await crypto.subtle.deriveBits(params("topic"), base, 256));
  const key = await crypto.subtle.deriveKey(params("aes-256-gcm"), base, { name: "AES-GCM", length: 256 },
    false, ["encrypt", "decrypt"]);
  return { topic, key };
}

export async function seal(room, text) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(room.topic) },
    room.key, enc.encode(text));
  const out = new Uint8Array(12 + ct.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(ct), 12);
  return toBase64url(out);
}

// -> the text, or throws Error("... cannot be opened ...") for anything else
export async function unseal(room, sealed) {
  let bytes;
  try {
    bytes = fromBase64url(sealed);
  } catch (e) {
    throw new Error("a signalling message cannot be opened: it is not base64url");
  }
  if (bytes.length < 12 + 16) throw new Error("a signalling message cannot be opened: too short");
  let plain;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: enc.encode(room.topic) },
      room.key, bytes.slice(12));
  } catch (e) {
    throw new Error("a signalling message cannot be opened: changed, or sealed under another link's secret");
  }
  return dec.decode(plain);
}
