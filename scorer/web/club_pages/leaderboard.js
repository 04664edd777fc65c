// The leaderboard on a TV: asks the table server for the standings, draws them, and
// when they do not all fit shows them a page at a time (a TV cannot scroll), turning
// every PAGE_S seconds; the standings are asked for again every REFRESH_S seconds.
"use strict";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const season = query.get("season") || "all";
const group = query.get("group");
const PAGE_S = Math.min(60, Math.max(2, Number(query.get("every")) || 12));
const REFRESH_S = 30;
let rows = [];
let pages = [[0, 0]];
let shown = 0;
let timer = null;
window.leaderboardPages = 0; // for tests: how many pages the rows take

function cell(value, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = value;
  return td;
}

function signed(value) {
  return value.toFixed(1).replace("-", "\u2212");
}

function draw(state) {
  if (state.error) {
    $("empty").textContent = state.error;
    $("empty").hidden = false;
    return;
  }
  if (state.group) {
    $("title").textContent = state.group;
    document.title = `${state.group}: leaderboard`;
  }
  $("season").textContent = `${state.season} · ${state.games} game${state.games === 1 ? "" : "s"}`;
  $("means").textContent = "Rating: a careful estimate of skill from wins and losses; " +
    `provisional until ${state.provisional_games} games.`;
  $("empty").hidden = state.players.length > 0;
  rows = state.players.map((p) => {
    const tr = document.createElement("tr");
    // The name ends in "…" where it must; the mark beside it is never cut.
    const who = cell("", p.provisional ? "who marked" : "who");
    const name = document.createElement("span");
    name.className = "nm";
    name.textContent = p.player;
    who.append(name);
    if (p.provisional) {
      const mark = document.createElement("span");
      mark.className = "prov";
      mark.textContent = "provisional";
      who.append(" ", mark); // a space: read as two words, "Hal provisional"
    }
    tr.append(cell(String(p.rank), "num"), who,
              cell(signed(p.rating), "num rating" + (p.provisional ? " prov-rating" : "")),
              cell(String(p.games), "num"), cell(String(p.wins), "num"),
              cell(String(p.points_for), "num pts"), cell(String(p.points_against), "num pts"));
    return tr;
  });
  $("board").tBodies[0].replaceChildren(...rows);
  paginate();
}

function fits() {
  return document.body.scrollHeight <= window.innerHeight + 1;
}

function paginate() {
  // A phone scrolls; a wide screen shows as many rows a page as fit under the header.
  rows.forEach((tr) => { tr.hidden = false; });
  pages = [[0, rows.length]];
  if (window.innerWidth > 700 && !fits()) {
    pages = [];
    let start = 0;
    while (start < rows.length) {
      // Show rows from `start` one by one until the next would not fit.
      rows.forEach((tr, n) => { tr.hidden = n !== start; });
      let end = start + 1;
      while (end < rows.length) {
        rows[end].hidden = false;
        if (!fits()) { rows[end].hidden = true; break; }
        end += 1;
      }
      pages.push([start, end]);
      start = end;
    }
  }
  window.leaderboardPages = pages.length;
  shown = Math.min(shown, pages.length - 1);
  show();
}

function show() {
  const [start, end] = pages[shown];
  rows.forEach((tr, n) => { tr.hidden = n < start || n >= end; });
  $("page").textContent = pages.length > 1 ? `page ${shown + 1} of ${pages.length}` : "";
  clearTimeout(timer);
  if (pages.length > 1) {
    timer = setTimeout(() => { shown = (shown + 1) % pages.length; show(); }, PAGE_S * 1000);
  }
}

async function refresh() {
  try {
    const asked = new URLSearchParams({ season });
    if (group) asked.set("group", group);
    const answer = await fetch(`/leaderboard/state?${asked}`, { cache: "no-store" });
    if (answer.ok || answer.status === 404) draw(await answer.json());
  } catch (_lost) {
    // The table server is away: keep what is shown and ask again later.
  }
  setTimeout(refresh, REFRESH_S * 1000);
}

window.addEventListener("resize", paginate);
refresh();
