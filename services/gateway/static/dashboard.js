// The dashboard: fetches /game-types/{type}/dashboard (aggregates kept by the projector) and
// draws each chart with plotly.js (served by the gateway from the installed plotly package).
"use strict";

const $ = (id) => document.getElementById(id);
// automargin: long category labels (players, boards) grow the margins instead of being cut
const layout = (x, y, extra) => {
  const out = Object.assign({margin: {t: 10, r: 10, b: 50, l: 55}, bargap: 0.05}, extra || {});
  out.xaxis = Object.assign({title: {text: x}, automargin: true}, out.xaxis || {});
  out.yaxis = Object.assign({title: {text: y}, automargin: true}, out.yaxis || {});
  return out;
};
// what an empty chart says, instead of a bare pair of axes
const EMPTY = {
  summary: "this game type reports no summary numbers",
  victory: "no facet of the whole game in these games (victory types are 7 Wonders Duel's)",
  h2h: "no two seats with different values met in these games",
};
const config = {displaylogo: false, responsive: true};
let data = null;

function filters() {
  const q = new URLSearchParams();
  for (const id of ["setup", "kind", "since", "until"]) { if ($(id).value) q.set(id, $(id).value); }
  return q;
}

function fillSelect(sel, values, keepAny) {
  const old = sel.value;
  sel.replaceChildren();
  if (keepAny) sel.append(new Option("any", ""));
  for (const v of values) sel.append(new Option(v, v));
  if ([...sel.options].some((o) => o.value === old)) sel.value = old;
}

function plot(id, traces, lay) {
  const el = $("chart-" + id);
  const empty = !traces.some((t) => (t.type === "heatmap" ? t.z : t.x).length);
  el.dataset.empty = empty ? "1" : "0";
  if (empty) {
    lay = Object.assign({}, lay, {xaxis: {visible: false}, yaxis: {visible: false}, annotations: [{text: "No data: " +
      (data && data.games ? EMPTY[id] || "nothing in these games" : "no finished game matches the filters"),
      showarrow: false, xref: "paper", yref: "paper", x: 0.5, y: 0.5}]});
  }
  return Plotly.react(el, traces, lay, config).then(() => { el.dataset.rendered = "1"; });
}

function bars(id, pairs, x, y, extra) {
  return plot(id, [{type: "bar", x: pairs.map((p) => String(p[0])), y: pairs.map((p) => p[1])}], layout(x, y, extra));
}

function drawWinRate() {
  const rows = data.win_rate[$("facet").value] || [];
  return plot("win_rate", [{type: "bar", x: rows.map((r) => r.value), y: rows.map((r) => r.rate),
    customdata: rows.map((r) => [r.wins, r.plays]), hovertemplate: "%{x}: %{y:.1%} (%{customdata[0]}/%{customdata[1]})<extra></extra>",
    error_y: {type: "data", symmetric: false, array: rows.map((r) => r.hi - r.rate), arrayminus: rows.map((r) => r.rate - r.lo)}}],
    layout($("facet").value, "win rate", {yaxis: {title: {text: "win rate"}, tickformat: ".0%", rangemode: "tozero"}}));
}

function drawH2h() {
  const m = data.h2h[$("h2h").value];
  if (!m) return plot("h2h", [{type: "heatmap", x: [], y: [], z: []}], layout("", ""));
  const z = m.won.map((row, i) => row.map((w, j) => (m.meet[i][j] ? w / m.meet[i][j] : null)));
  return plot("h2h", [{type: "heatmap", x: m.values, y: m.values, z: z, zmin: 0, zmax: 1, colorscale: "RdBu",
    customdata: m.meet, hovertemplate: "%{y} over %{x}: %{z:.0%} of %{customdata} meetings<extra></extra>"}],
    layout("against", "value", {yaxis: {autorange: "reversed"}}));
}

function drawRatings() {
  const box = $("ratings");
  const note = Object.assign(document.createElement("p"), {className: "note", textContent: data.ratings_note});
  if (!data.ratings.length) {
    note.textContent = "No rated games yet: " + data.ratings_note;
    box.replaceChildren(note);
    box.dataset.rendered = "1";
    return;
  }
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>#</th><th>Player</th><th>Ordinal (μ − 3σ)</th><th>μ</th><th>σ</th><th>Games</th></tr></thead>";
  const body = table.createTBody();
  data.ratings.forEach((r, i) => {
    const tr = body.insertRow();
    for (const v of [i + 1, r.name || r.player, r.ordinal.toFixed(2), r.mu.toFixed(2), r.sigma.toFixed(2), r.games]) tr.insertCell().textContent = v;
  });
  box.replaceChildren(table, note);
  box.dataset.rendered = "1";
}

function csvLinks() {
  const type = $("game-type").value;
  const q = filters();
  q.set("format", "csv");
  for (const a of document.querySelectorAll("a[data-csv]")) {
    a.href = `/game-types/${encodeURIComponent(type)}/dashboard/${a.dataset.csv}?${q}`;
  }
}

function victoryTraces() {
  return Object.entries(data.victory).map(([name, pairs]) => ({type: "bar", name: name, x: pairs.map((p) => String(p[0])), y: pairs.map((p) => p[1])}));
}

async function load() {
  const type = $("game-type").value;
  $("status").textContent = "Loading…";
  const res = await fetch(`/game-types/${encodeURIComponent(type)}/dashboard?${filters()}`);
  if (!res.ok) { $("status").textContent = `Could not load the dashboard (${res.status})`; return; }
  data = await res.json();
  fillSelect($("setup"), data.choices.setups, true);
  // "bot" (every bot kind) offered beside each bot:<kind>, as the kind filter takes it
  const kinds = data.choices.kinds;
  fillSelect($("kind"), kinds.some((k) => k.startsWith("bot:")) && !kinds.includes("bot") ? ["bot", ...kinds] : kinds, true);
  const facetChosen = $("facet").value;
  fillSelect($("facet"), Object.keys(data.win_rate), false);
  if (!facetChosen) $("facet").value = Object.keys(data.win_rate).find((k) => k !== "players") || "";
  fillSelect($("category"), Object.keys(data.categories), false);
  fillSelect($("summary"), Object.keys(data.summary), false);
  fillSelect($("h2h"), Object.keys(data.h2h), false);
  csvLinks();
  await Promise.all([
    // days as categories: plotly's date axis labels a single day as fractions of a millisecond
    bars("per_day", data.per_day, "day", "games", {xaxis: {type: "category"}}),
    drawWinRate(),
    bars("categories", data.categories[$("category").value] || [], "points", "seats"),
    bars("total", data.total, "total", "seats"),
    bars("length", data.length, "commands", "games"),
    plot("victory", victoryTraces(), layout("value", "games", {barmode: "group", showlegend: true})),
    bars("summary", data.summary[$("summary").value] || [], $("summary").value, "games"),
    bars("latency", data.latency, "upper bound (ms)", "commands", {xaxis: {type: "category", title: {text: "upper bound (ms)"}}}),
    drawH2h(),
  ]);
  drawRatings();
  $("status").textContent = finishedText(data.games, type);
  document.body.dataset.ready = "1";
}

// "1 finished game", "0 finished games", "200 finished games"
function finishedText(n, type) {
  return `${n} finished ${n === 1 ? "game" : "games"} of ${type}`;
}

async function start() {
  const res = await fetch("/game-types");
  const types = (await res.json()).map((t) => t.id);
  fillSelect($("game-type"), types, false);
  const wanted = new URLSearchParams(location.search).get("game_type");
  if (wanted && types.includes(wanted)) $("game-type").value = wanted;
  $("filters").addEventListener("submit", (e) => { e.preventDefault(); load(); });
  $("game-type").addEventListener("change", () => { for (const id of ["setup", "kind"]) $(id).value = ""; load(); });
  $("facet").addEventListener("change", drawWinRate);
  $("h2h").addEventListener("change", drawH2h);
  $("category").addEventListener("change", () => bars("categories", data.categories[$("category").value] || [], "points", "seats"));
  $("summary").addEventListener("change", () => bars("summary", data.summary[$("summary").value] || [], $("summary").value, "games"));
  await load();
}

start().catch((e) => { $("status").textContent = "Error: " + e; });
