// The standings board: asks the server for the board's state and waits (a long
// poll: the server answers as soon as a game or the event changes, or after 25 s
// with nothing new), then redraws only what changed: the table whose score moved,
// the standings when they moved. When the server is lost it says so at once and
// asks again every 500 ms (every 2 s after a minute), for the whole state, so it
// is live again as soon as a restarted server answers.
"use strict";

const eventId = document.body.dataset.event;
const $ = (id) => document.getElementById(id);
const drawn = { tables: new Map(), standings: "", header: "", shape: "" };
let clockEnds = null;
let clockCalled = false;
let serverOffset = 0; // server time minus this browser's time, in ms
// For tests and the benchmark: when each redraw happened and what it touched.
window.boardRedraws = [];
// ...and when it lost the server and was live again.
window.boardLink = [];

function text(tag, value, cls) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  el.textContent = value;
  return el;
}

function names(list) {
  return list.join(" & ");
}

function tableCard(t) {
  const card = document.createElement("article");
  card.className = "table" + (t.state === "done" ? " done" : "");
  card.dataset.table = t.table;
  const head = document.createElement("header");
  head.append(text("b", `Table ${t.table}`),
              text("span", t.hands === 1 ? "1 hand" : `${t.hands} hands`));
  card.append(head);
  t.sides.forEach((side, n) => {
    const row = document.createElement("div");
    row.className = "side" + (t.winner === n ? " won" : "");
    row.append(text("span", names(side), "who"), text("span", String(t.points[n]), "pts"));
    card.append(row);
  });
  if (t.note) card.append(text("p", t.note, "note"));
  card.setAttribute("aria-label",
    `Table ${t.table}: ${names(t.sides[0])} ${t.points[0]}, ${names(t.sides[1])} ${t.points[1]}`);
  return card;
}

function drawTables(tables, changed) {
  const box = $("tables");
  const wanted = new Set(tables.map((t) => t.table));
  for (const [number, _] of drawn.tables) {
    if (!wanted.has(number)) {
      box.querySelector(`[data-table="${number}"]`)?.remove();
      drawn.tables.delete(number);
      changed.push(`table ${number}`);
    }
  }
  let before = null;
  for (const t of tables) {
    const key = JSON.stringify(t);
    let el = box.querySelector(`[data-table="${t.table}"]`);
    if (drawn.tables.get(t.table) !== key) {
      const fresh = tableCard(t);
      if (el) el.replaceWith(fresh); else box.insertBefore(fresh, before ? before.nextSibling : box.firstChild);
      el = fresh;
      drawn.tables.set(t.table, key);
      changed.push(`table ${t.table}`);
    }
    before = el;
  }
  if (!tables.length && !box.querySelector(".empty")) {
    box.append(text("p", "No round is being played yet.", "empty"));
  } else if (tables.length) {
    box.querySelector(".empty")?.remove();
  }
}

function drawStandings(state, changed) {
  const key = JSON.stringify([state.standings, state.rounds_played, state.rule]);
  if (key === drawn.standings) return;
  drawn.standings = key;
  changed.push("standings");
  const body = $("standings").tBodies[0];
  const rows = state.standings.map((s) => {
    const tr = document.createElement("tr");
    if (s.rank === 1 && state.rounds_played) tr.className = "first";
    if (s.withdrawn) tr.className = "gone";
    const diff = s.diff > 0 ? `+${s.diff}` : String(s.diff);
    for (const [value, cls] of [[s.rank, "num"], [names(s.names), "who"], [s.wins, "num"],
                                [s.losses, "num"], [diff, "num"], [s.for, "num"],
                                [s.against, "num"]]) {
      tr.append(text("td", String(value), cls));
    }
    return tr;
  });
  body.replaceChildren(...rows);
  $("standings-title").textContent = state.rounds_played
    ? `Standings after round ${state.rounds_played}` : "Standings";
  $("rule").textContent = state.rule;
}

function drawHeader(state, changed) {
  const key = JSON.stringify([state.name, state.format, state.round, state.rounds, state.over,
                              state.clock, state.byes, state.winners]);
  if (key === drawn.header) return;
  drawn.header = key;
  changed.push("header");
  document.title = `${state.name}: standings`;
  $("name").textContent = state.name;
  const where = state.over ? `all ${state.rounds} rounds played`
    : state.round ? `round ${state.round} of ${state.rounds}` : `${state.rounds} rounds, not started`;
  $("round").textContent = `${state.format} · ${where}`;
  clockEnds = state.clock && !state.over ? Date.parse(state.clock.ends) : null;
  clockCalled = Boolean(state.clock && state.clock.called);
  tick();
  const byes = $("byes");
  byes.hidden = !state.byes.length || state.over;
  byes.textContent = `Sitting out this round (a bye, counted as a win): ${state.byes.map(names).join(", ")}`;
  const winners = $("winners");
  winners.hidden = !state.winners.length;
  winners.textContent = state.winners.length
    ? `Winner${state.winners.length > 1 ? "s" : ""}: ${state.winners.map(names).join(", ")}` : "";
}

function tick() {
  const clock = $("clock");
  if (clockEnds === null) {
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  const left = Math.max(0, clockEnds - (Date.now() + serverOffset));
  clock.classList.toggle("called", clockCalled || left === 0);
  if (clockCalled || left === 0) {
    clock.textContent = "Time! Finish the hand in play";
    return;
  }
  const s = Math.ceil(left / 1000);
  clock.textContent = `Time left ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function fit() {
  // A wide screen shows everything at once, as large as it fits, so nobody has to
  // scroll a TV and the hall reads it from the back: the largest text size at which
  // the page fits the screen (between 9 and 44 px).
  const wide = window.innerWidth >= 1000;
  document.body.classList.toggle("fit", wide);
  const root = document.documentElement;
  if (!wide) {
    root.style.fontSize = "";
    return;
  }
  const fits = (size) => {
    root.style.fontSize = `${size}px`;
    return document.body.scrollHeight <= window.innerHeight + 1
      && document.body.scrollWidth <= window.innerWidth + 1;
  };
  let low = 9;
  let high = 44;
  while (high - low > 0.5) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle; else high = middle;
  }
  root.style.fontSize = `${low}px`;
}

function draw(state) {
  const changed = [];
  drawHeader(state, changed);
  drawTables(state.tables, changed);
  drawStandings(state, changed);
  if (changed.length) {
    // Only a change of shape can change what fits (a new score does not).
    const shape = JSON.stringify([state.tables.length, state.standings.length,
                                  state.byes.length, state.winners.length, Boolean(state.clock)]);
    if (shape !== drawn.shape) {
      drawn.shape = shape;
      fit();
    }
    window.boardRedraws.push({ at: performance.timeOrigin + performance.now(), changed });
    if (window.boardRedraws.length > 500) window.boardRedraws.splice(0, 100);
  }
}

const RETRY_MS = 500;
const SLOW_RETRY_MS = 2000;
const SLOW_AFTER_MS = 60_000;
const BUSY_RETRY_MS = 5000;  // the server asks for patience (503): as it says

function live(ok) {
  const el = $("live");
  const words = ok ? "live" : "Lost the table server. Trying again…";
  if (el.textContent === words) return;
  el.classList.toggle("down", !ok);
  el.textContent = words;
  window.boardLink.push({ at: performance.timeOrigin + performance.now(),
                         what: ok ? "live" : "lost" });
  if (window.boardLink.length > 200) window.boardLink.splice(0, 50);
}

async function follow() {
  let etag = "";
  let lostAt = 0;
  for (;;) {
    let wait = RETRY_MS;
    try {
      const answer = await fetch(`/board/${eventId}/state?after=${encodeURIComponent(etag)}`,
                                 { cache: "no-store" });
      if (answer.status === 200) {
        const serverNow = Number(answer.headers.get("X-Server-Time"));
        if (serverNow) serverOffset = serverNow - Date.now();
        etag = answer.headers.get("X-Board-Version") || "";
        draw(await answer.json());
        live(true);
        lostAt = 0;
        continue;
      }
      if (answer.status === 204) { live(true); continue; }
      if (answer.status === 404) {
        $("name").textContent = "There is no such club night on this server.";
        live(false);
        return;
      }
      if (answer.status === 503) wait = BUSY_RETRY_MS;
      throw new Error(`status ${answer.status}`);
    } catch (_error) {
      live(false);
      // Ask for the whole state next: a restarted server may number its
      // versions as the old one did, and would keep a "changed since" waiting.
      etag = "";
      if (!lostAt) lostAt = performance.now();
      if (performance.now() - lostAt > SLOW_AFTER_MS) wait = Math.max(wait, SLOW_RETRY_MS);
      await new Promise((done) => setTimeout(done, wait));
    }
  }
}

setInterval(tick, 1000);
window.addEventListener("resize", fit);
follow();
