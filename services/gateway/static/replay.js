// The replay viewer: steps through a game's positions (its /log, as the seat whose token is
// given sees it, or as a spectator) and follows a live game on its WebSocket. The token stays
// in this tab (sessionStorage) and goes only in Authorization headers and the socket's first
// message: never in a URL.
"use strict";

const $ = (id) => document.getElementById(id);
let game = "";
let entries = [];   // {seq, seat, types, doc}
let index = -1;
let timer = null;
let socket = null;
let hasSvg = true;
let boardUrl = null;
let shown = 0;       // a counter: a slow SVG fetch never overwrites a newer position

function token() { return sessionStorage.getItem("ts-token:" + game) || ""; }
function headers() { const t = token(); return t ? {Authorization: "Bearer " + t} : {}; }

async function getJson(path) {
  const res = await fetch(path, {headers: headers()});
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${body.code || res.status}: ${body.message || res.statusText}`);
  return body;
}

function describe(e) {
  const who = e.seat === undefined ? "" : e.seat < 0 ? "service" : "seat " + e.seat;
  return `${e.seq}  ${who}  ${(e.types || []).map((t) => t.replace(/^.*\./, "")).join(", ")}`.trim();
}

function renderLog() {
  const ol = $("log");
  ol.replaceChildren(...entries.map((e, i) => {
    const li = document.createElement("li");
    li.textContent = describe(e);
    li.dataset.index = i;
    li.dataset.seq = e.seq;
    return li;
  }));
}

async function show(i) {
  if (!entries.length) return;
  index = Math.max(0, Math.min(entries.length - 1, i));
  const e = entries[index];
  $("seq").textContent = e.seq;
  $("end").textContent = entries[entries.length - 1].seq;
  $("text").textContent = e.doc.text;
  for (const li of $("log").children) li.setAttribute("aria-current", String(Number(li.dataset.index) === index));
  const cur = $("log").children[index];
  if (cur) cur.scrollIntoView({block: "nearest"});
  const mine = ++shown;
  if (!hasSvg) return;
  const res = await fetch(`/games/${encodeURIComponent(game)}/svg?at=${e.seq}`, {headers: headers()});
  if (!res.ok || mine !== shown) return;
  const blob = await res.blob();
  if (mine !== shown) return;
  if (boardUrl) URL.revokeObjectURL(boardUrl);
  boardUrl = URL.createObjectURL(blob);
  const img = new Image();
  img.alt = `The board at seq ${e.seq}`;
  img.src = boardUrl;
  $("board").replaceChildren(img);
}

function step(d) { pause(); show(index + d); }
function pause() { if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶︎ Play"; $("play").setAttribute("aria-label", "Play"); } }
function play() {
  if (timer) { pause(); return; }
  if (index >= entries.length - 1) show(0);
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-label", "Pause");
  timer = setInterval(() => { if (index >= entries.length - 1) pause(); else show(index + 1); }, 700);
}

function jump(seq) {
  // the position after the command that wrote envelope `seq` (as /view?at=; past the end: the last)
  pause();
  const i = entries.findIndex((e) => e.seq >= seq);
  show(i >= 0 ? i : entries.length - 1);
}

function follow(after) {
  if (socket) socket.close();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/games/${encodeURIComponent(game)}/socket`);
  socket.onopen = () => socket.send(JSON.stringify(Object.assign({type: "subscribe", after: after}, token() ? {token: token()} : {})));
  const mine = socket;
  let reading = Promise.resolve();
  socket.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "view" && (!entries.length || msg.seq > entries[entries.length - 1].seq)) {
      // the new commands' log entries (seat, event types), read in order; the socket's own
      // view document if that read fails
      reading = reading.then(() => catchUp(msg, mine));
      if (msg.doc.over) socket.close();
    } else if (msg.type === "error") {
      $("status").textContent = `Live updates stopped: ${msg.code}: ${msg.message}`;
    }
  };
}

async function catchUp(msg, from) {
  if (from !== socket || (entries.length && msg.seq <= entries[entries.length - 1].seq)) return;
  const atEnd = index === entries.length - 1;
  const before = entries.length;
  try {
    let after = entries.length ? entries[entries.length - 1].seq : 0;
    for (;;) {
      const page = await getJson(`/games/${encodeURIComponent(game)}/log?after=${after}&limit=200`);
      if (from !== socket) return;
      for (const e of page.entries) {
        if (!entries.length || e.seq > entries[entries.length - 1].seq) entries.push({seq: e.seq, first: e.first, seat: e.seat, types: e.types, doc: e.view});
      }
      if (page.next_after === null) break;
      after = page.next_after;
    }
  } catch (err) {
    if (from !== socket) return;
  }
  if (!entries.length || msg.seq > entries[entries.length - 1].seq) entries.push({seq: msg.seq, doc: msg.doc, types: ["live"]});
  if (entries.length === before) return;
  if (entries[entries.length - 1].doc.over) $("status").textContent = $("status").textContent.replace(/running$/, "finished");
  renderLog();
  if (atEnd && $("follow").checked) show(entries.length - 1); else show(index);
}

async function open() {
  pause();
  if (socket) { socket.close(); socket = null; }
  game = $("game").value.trim();
  if (!game) return;
  const typed = $("token").value.trim();
  if (typed) sessionStorage.setItem("ts-token:" + game, typed);
  $("token").value = "";
  history.replaceState(null, "", `/replay?game=${encodeURIComponent(game)}`);
  $("status").textContent = "Loading…";
  entries = [];
  try {
    const summary = await getJson(`/games/${encodeURIComponent(game)}`);
    hasSvg = (await getJson(`/game-types/${encodeURIComponent(summary.game_type)}/board`)).board === "svg";
    $("board").replaceChildren();
    let after = 0;
    for (;;) {
      const page = await getJson(`/games/${encodeURIComponent(game)}/log?after=${after}&limit=200`);
      for (const e of page.entries) entries.push({seq: e.seq, first: e.first, seat: e.seat, types: e.types, doc: e.view});
      if (page.next_after === null) break;
      after = page.next_after;
    }
    const viewer = entries.length ? entries[0].doc.seat : null;
    $("who").textContent = viewer === null || viewer === undefined ? "as a spectator" : `as seat ${viewer}`;
    $("status").textContent = `${summary.game_type}, ${summary.players} players, ${summary.over ? "finished" : "running"}`;
    renderLog();
    await show(entries.length - 1);
    if (!summary.over) follow(entries.length ? entries[entries.length - 1].seq : 0);
    document.body.dataset.ready = "1";
  } catch (err) {
    $("status").textContent = "Could not open the game: " + err.message;
  }
}

$("open").addEventListener("submit", (e) => { e.preventDefault(); open(); });
$("forget").addEventListener("click", () => { sessionStorage.removeItem("ts-token:" + game); if (game) open(); });
$("first").addEventListener("click", () => { pause(); show(0); });
$("last").addEventListener("click", () => { pause(); show(entries.length - 1); });
$("prev").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("play").addEventListener("click", play);
$("jump").addEventListener("submit", (e) => { e.preventDefault(); const v = Number($("at").value); if (v >= 1) jump(v); });
$("log").addEventListener("click", (e) => { const li = e.target.closest("li"); if (li) { pause(); show(Number(li.dataset.index)); } });
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
  else if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
  else if (e.key === "Home") { e.preventDefault(); pause(); show(0); }
  else if (e.key === "End") { e.preventDefault(); pause(); show(entries.length - 1); }
  else if (e.key === " " && !e.target.closest("button")) { e.preventDefault(); play(); }
});
const start = new URLSearchParams(location.search).get("game");
if (start) { $("game").value = start; open(); }
