// The standings board: asks the server for the board's state and waits (a long
// poll: the server answers as soon as a game or the event changes, or after 25 s
// with nothing new), then redraws only what changed: the table whose score moved,
// the standings when they moved. When the server is lost it says so at once and
// asks again every 500 ms (every 2 s after a minute), for the whole state, so it
// is live again as soon as a restarted server answers.
//
// A wide screen (a TV) cannot scroll: after every change of content and every resize
// the page is fitted to the screen (fit), never below a text size the hall can read;
// a night too big for one screen is shown a page at a time, turning by itself.
"use strict";

const eventId = document.body.dataset.event;
const $ = (id) => document.getElementById(id);
const drawn = { tables: new Map(), standings: "", header: "", counted: "" };
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

const NO_BREAK = "\u00a0";

function names(list) {
  // A narrow box wraps a team only after its "&", never inside a name ("Angu" / "s B.").
  return list.map((name) => name.replaceAll(" ", NO_BREAK)).join(`${NO_BREAK}& `);
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function tableCard(t) {
  const card = document.createElement("article");
  card.className = "table" + (t.state === "done" ? " done" : "");
  card.dataset.table = t.table;
  const head = document.createElement("header");
  head.append(text("b", `Table ${t.table}`),
              text("span", plural(t.hands, "hand")));
  card.append(head);
  t.sides.forEach((side, n) => {
    const row = document.createElement("div");
    row.className = "side" + (t.winner === n ? " won" : "");
    row.append(text("span", names(side), "who"));
    // Before the first hand: the team's chance to win, from the ratings (beside the
    // names, not in them: the board's fitting counts a name's words).
    if (t.chances) row.append(text("span", `${t.chances[n]}${NO_BREAK}%`, "chance"));
    row.append(text("span", String(t.points[n]), "pts"));
    card.append(row);
  });
  if (t.note) card.append(text("p", t.note, "note"));
  const odds = (n) => (t.chances ? ` (chance ${t.chances[n]}%)` : "");
  card.setAttribute("aria-label",
    `Table ${t.table}: ${names(t.sides[0])}${odds(0)} ${t.points[0]}, ` +
    `${names(t.sides[1])}${odds(1)} ${t.points[1]}`);
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
  $("rule").textContent = state.rule;
}

function countedLine(state) {
  // What the standings count, so a column of zeros in round 1 does not look wrong.
  const open = state.tables.filter((t) => t.state !== "done").length;
  const playing = state.round > state.rounds_played && open
    ? `${open} of ${plural(state.tables.length, "table")} still playing`
    : "";
  if (state.rounds_played) {
    return [`after round ${state.rounds_played}`, playing].filter(Boolean).join(" · ");
  }
  if (playing) return `none counted yet · ${playing}`;
  return "no round played yet";
}

function drawCounted(state, changed) {
  const line = countedLine(state);
  if (line === drawn.counted) return;
  drawn.counted = line;
  changed.push("counted");
  $("counted").textContent = line;
}

function drawHeader(state, changed) {
  const key = JSON.stringify([state.name, state.format, state.where, state.over,
                              state.clock, state.byes, state.winners]);
  if (key === drawn.header) return;
  drawn.header = key;
  changed.push("header");
  document.title = `${state.name}: standings`;
  $("name").textContent = state.name;
  $("round").textContent = `${state.format} · ${state.where}`;
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

// Fitting. A name or a score is never smaller than NAME_PX at 1280x720 (more on a
// bigger screen): readable from the back of a hall. Names and standings are 1rem.
const NAME_PX = 20;
const MOST_PX = 64;
const PAGE_S = Math.min(60, Math.max(2, Number(new URLSearchParams(location.search).get("every"))
  || 8));
const pages = { tables: [], standings: [] };
let pageTimer = null;

function smallestPx() {
  return Math.max(NAME_PX, NAME_PX * Math.min(window.innerWidth / 1280, window.innerHeight / 720));
}

function rows(part) {
  return part === "tables" ? [...$("tables").querySelectorAll("[data-table]")]
    : [...$("standings").tBodies[0].rows];
}

function showRows(part, [start, end]) {
  rows(part).forEach((el, n) => { el.hidden = n < start || n >= end; });
}

const WORDS = ".who, .pts, th, h1, h2";
"Texts whose lines may break only at a space: a name, a score, a heading.";

function lines(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}

function brokenWord(el) {
  // More lines than words: the box is too narrow for one of them ("Entran" / "t").
  return lines(el) > el.textContent.split(" ").filter(Boolean).length;
}

function overflowing(box) {
  // Any text cut inside `box` (an element whose content is bigger than itself), or
  // broken inside a word.
  const twoLines = 1.6 * parseFloat(getComputedStyle(document.documentElement).fontSize);
  for (const el of [box, ...box.querySelectorAll("*")]) {
    if (!el.clientWidth || el.hidden) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return true;
    // Only a box of two lines or more can have broken a word (few do: it is quicker).
    if (el.clientHeight >= twoLines && el.matches(WORDS) && brokenWord(el)) return true;
  }
  return false;
}

function partFits(part) {
  const box = $(`${part}-part`).getBoundingClientRect();
  const bottom = window.innerHeight - parseFloat(getComputedStyle(document.body).paddingBottom);
  return box.bottom <= bottom + 0.5 && box.right <= window.innerWidth + 0.5
    && !overflowing($(`${part}-part`));
}

function allFits() {
  return document.body.scrollHeight <= window.innerHeight + 1
    && document.body.scrollWidth <= window.innerWidth + 1 && !overflowing(document.body);
}

function pagesOf(part) {
  // Greedy: each page holds as many rows (tables, standings) as fit below the others.
  const count = rows(part).length;
  const found = [];
  label(part, [count, count], count); // the longest label, while measuring
  for (let start = 0; start < count;) {
    // The most rows from `start` that fit (at least one): a binary search, each step one
    // layout, so 60 standings rows take a few dozen layouts, not hundreds.
    let end = start + 1;
    let over = count + 1;
    while (over - end > 1) {
      const middle = Math.floor((end + over) / 2);
      showRows(part, [start, middle]);
      if (partFits(part)) end = middle; else over = middle;
    }
    found.push([start, end]);
    start = end;
  }
  // As many pages, as even as they fit: 8 tables as 4 and 4, not 6 and 2.
  const even = Math.ceil(count / Math.max(1, found.length));
  const balanced = [];
  for (let start = 0; start < count; start += even) balanced.push([start, Math.min(count, start + even)]);
  const fitsAll = balanced.every((page) => { showRows(part, page); return partFits(part); });
  return fitsAll && balanced.length ? balanced : found.length ? found : [[0, 0]];
}

function label(part, [start, end], count) {
  const word = part === "tables" ? "Tables" : "Standings";
  $(`${part}-title`).textContent = count && (start > 0 || end < count)
    ? `${word} ${start + 1}–${end} of ${count}` : word;
}

function turnPage() {
  // The page shown follows the wall clock (no drift, whatever the redraws): page k of
  // each part in the k-th period of PAGE_S seconds.
  clearTimeout(pageTimer);
  pageTimer = null;
  const period = PAGE_S * 1000;
  const k = Math.floor(Date.now() / period);
  for (const part of ["tables", "standings"]) {
    const list = pages[part];
    const shown = list.length ? list[k % list.length] : [0, rows(part).length];
    showRows(part, shown);
    label(part, shown, rows(part).length);
  }
  if (pages.tables.length > 1 || pages.standings.length > 1) {
    pageTimer = setTimeout(turnPage, period - (Date.now() % period) + 20);
  }
}

function fit() {
  // A wide screen shows everything at once, as large as it fits, so nobody has to
  // scroll a TV; when all of it does not fit at the smallest readable size, tables and
  // standings are shown a page at a time. A phone scrolls as any page.
  const wide = window.innerWidth >= 1000;
  document.body.classList.toggle("fit", wide);
  const root = document.documentElement;
  pages.tables = [];
  pages.standings = [];
  for (const part of ["tables", "standings"]) showRows(part, [0, rows(part).length]);
  if (!wide) {
    root.style.fontSize = "";
    turnPage();
    return;
  }
  const fits = (size) => {
    root.style.fontSize = `${size}px`;
    return allFits();
  };
  let low = smallestPx();
  if (fits(low)) {
    let high = Math.max(low, MOST_PX);
    while (high - low > 0.5) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle; else high = middle;
    }
    root.style.fontSize = `${low}px`;
  } else {
    pages.tables = pagesOf("tables");
    showRows("tables", pages.tables[0]);
    pages.standings = pagesOf("standings");
  }
  turnPage();
  window.boardFit = { px: parseFloat(root.style.fontSize) || 16,
                      pages: [pages.tables.length, pages.standings.length] };
}

function draw(state) {
  const changed = [];
  drawHeader(state, changed);
  drawTables(state.tables, changed);
  drawStandings(state, changed);
  drawCounted(state, changed);
  if (changed.length) {
    fit(); // any change may change what fits: a wider score, a note, a name that wraps
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
  fit();  // the lost-server words are longer than "live"
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

let clockShape = "";
setInterval(() => {
  tick();
  // "Time!" is longer than the minutes it replaces: fit again when the clock changes kind.
  const clock = $("clock");
  const shape = `${clock.hidden}${clock.classList.contains("called")}`;
  if (shape !== clockShape) {
    clockShape = shape;
    fit();
  }
}, 1000);
window.addEventListener("resize", fit);
follow();
