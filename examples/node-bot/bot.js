#!/usr/bin/env node
// A Tablestream bot over the gateway (README "Play over HTTP"): it subscribes to its game's
// WebSocket as its seat, and on each `your_turn` asks /moves for the legal commands and sends
// one with POST /commands (an Idempotency-Key per position, so a retry is never applied twice).
// It exits 0 when a view says the game is over.
//
//   GATEWAY_URL=http://127.0.0.1:8080 SEAT_TOKEN=... node bot.js GAME_ID
//
// GATEWAY_URL (default http://127.0.0.1:8080), GAME_ID (or the first argument), SEAT_TOKEN:
// the seat's secret token, read from the environment only (a command line is visible to
// every user of the machine). BOT_TIMEOUT_S (default 600) bounds a whole game.
"use strict";

const WebSocket = require("ws");

const base = (process.env.GATEWAY_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const gameId = process.argv[2] || process.env.GAME_ID;
const token = process.env.SEAT_TOKEN;
const timeoutS = Number(process.env.BOT_TIMEOUT_S || "600");

function fail(message) {
  console.error(`node-bot: ${message}`);
  process.exit(1);
}

if (!gameId || !token) fail("usage: SEAT_TOKEN=<token> [GATEWAY_URL=...] node bot.js GAME_ID");

const auth = { Authorization: `Bearer ${token}` };
const gamePath = `${base}/games/${encodeURIComponent(gameId)}`;

async function api(method, path, body, headers = {}) {
  const res = await fetch(gamePath + path, {
    method,
    headers: { ...auth, ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

let sent = 0;
let busy = false;
let again = false;

// Play the current position: a legal command from /moves (a deterministic choice), sent with
// an Idempotency-Key naming the position. A `your_turn` that arrives while a command is on
// its way is played once that one is answered.
async function play() {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    do {
      again = false;
      await playOnce();
    } while (again);
  } finally {
    busy = false;
  }
}

async function playOnce() {
  const moves = await api("GET", "/moves");
  if (moves.status !== 200) fail(`moves: ${moves.status} ${JSON.stringify(moves.body)}`);
  if (moves.body.over) return finish();
  if (moves.body.moves.length === 0) return; // not this seat's turn at this position
  const pick = moves.body.moves[sent % moves.body.moves.length];
  const out = await api("POST", "/commands", { command: pick.command },
    { "Idempotency-Key": `node-bot-${moves.body.seq}` });
  if (out.status === 200) sent += 1;
  else if (out.status === 422 || out.body.code === "game_over") {
    console.error(`node-bot: ${pick.text} refused at ${moves.body.seq}: ${out.body.code}`);
  } else fail(`command ${pick.text}: ${out.status} ${JSON.stringify(out.body)}`);
}

function finish() {
  console.log(`node-bot: game ${gameId} over after ${sent} commands of this seat`);
  process.exit(0);
}

const socketUrl = `${gamePath.replace(/^http/, "ws")}/socket`;
const ws = new WebSocket(socketUrl);
setTimeout(() => fail(`no end of game in ${timeoutS} s`), timeoutS * 1000).unref();

ws.on("open", () => ws.send(JSON.stringify({ type: "subscribe", token, after: 0 })));
ws.on("message", (data) => {
  const m = JSON.parse(data.toString());
  if (m.type === "view" && m.doc.over) finish();
  else if (m.type === "your_turn") play().catch((e) => fail(e.stack || String(e)));
  else if (m.type === "error") fail(`socket: ${m.code}: ${m.message}`);
});
ws.on("close", (code) => fail(`socket closed (${code})`));
ws.on("error", (e) => fail(`socket: ${e.message}`));
