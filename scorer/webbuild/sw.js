// Tarabish service worker: the whole site from this phone's cache, so the app
// opens with no network. Written by `tarabish build-web` (values below).
"use strict";

const VERSION = "__VERSION__";
const FILES = __FILES__; // site path -> content hash ("index.html" is the page)
const LAZY = __LAZY__; // path prefixes kept only once this browser has used them
const PREFIX = "tarabish-site-";
const CACHE = PREFIX + VERSION;
const SCOPE = new URL("./", self.location.href);
const LIST_KEY = new URL("__site_files__.json", SCOPE).href;

function sitePath(url) {
  // The site path a request names, or null for anything else (other sites, our API-less server).
  const u = new URL(url);
  if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) return null;
  const path = decodeURIComponent(u.pathname.slice(SCOPE.pathname.length));
  if (path === "" || path === "index.html") return "index.html";
  return Object.prototype.hasOwnProperty.call(FILES, path) ? path : null;
}

function keyOf(path) {
  return new URL(path === "index.html" ? "./" : path, SCOPE).href;
}

async function fetchFresh(path) {
  // "no-cache": revalidate with the server, so no stale copy from the HTTP cache.
  const response = await fetch(keyOf(path), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // A new deployment: bring every file the old version had over, unchanged
    // ones from the old cache, changed ones from the network (an install that
    // fails leaves the old version in charge, games untouched).
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      const old = await caches.open(name);
      const listed = await old.match(LIST_KEY);
      const oldFiles = listed ? await listed.json() : {};
      for (const request of await old.keys()) {
        const path = sitePath(request.url);
        if (path === null || request.url === LIST_KEY) continue;
        if (oldFiles[path] === FILES[path]) {
          const kept = await old.match(request);
          if (kept) { await cache.put(keyOf(path), kept); continue; }
        }
        await cache.put(keyOf(path), await fetchFresh(path));
      }
    }
    await cache.put(LIST_KEY, new Response(JSON.stringify(FILES),
      { headers: { "Content-Type": "application/json" } }));
    // No skipWaiting here: a page that is starting asks for it (boot.js), so
    // a running game never has its files swapped under it.
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const path = request.mode === "navigate" && sitePath(request.url) === null &&
    new URL(request.url).pathname.startsWith(SCOPE.pathname) ? "index.html" : sitePath(request.url);
  if (path === null) return;
  // The page and the workers get the isolation headers; every other file is as cached
  // (same-origin needs none, and the browser then reads it straight from the cache).
  event.respondWith(serve(path, request.mode === "navigate" || request.destination === "worker"));
});

async function serve(path, headed) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(keyOf(path));
  if (hit) return headed ? isolated(hit) : hit;
  const response = await fetch(keyOf(path));
  if (!response.ok) return headed ? isolated(response) : response;
  await cache.put(keyOf(path), response.clone());
  if (!headed && path.endsWith(".wasm")) {
    // A WebAssembly module goes out as kept, not as fetched: the browser keeps the code
    // it compiles from a response beside that response's stored copy. Compiled from the
    // network's copy on the first visit, that code was kept for the HTTP cache, and the
    // first start from the home screen (served from here) compiled everything again.
    const kept = await cache.match(keyOf(path));
    if (kept) return kept;
  }
  return headed ? isolated(response) : response;
}

function isolated(response) {
  // A page served with these two headers is cross-origin isolated, and Flutter
  // then draws in a thread of its own (multi-threaded skwasm) instead of on the
  // page's thread, which is the one that passes every tap to Python and its answer
  // back: a tap's answer reached the page 20-50 ms later without them, 10-18 ms
  // with. Static hosts (GitHub Pages) cannot send headers; this worker can, from
  // the second visit on. Every file of the site is same-origin, so nothing is blocked.
  const headers = new Headers(response.headers);
  // The body is read as the browser decoded it: the host's length and encoding of the
  // compressed copy it sent no longer describe it (a page or worker script whose
  // stated length is wrong loads late).
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(response.body,
    { status: response.status, statusText: response.statusText, headers });
}

async function cacheSite() {
  // After the first start: everything else of the site, so later screens and
  // files work offline too. What this browser loaded is already cached.
  const cache = await caches.open(CACHE);
  for (const path of Object.keys(FILES)) {
    if (LAZY.some((prefix) => path.startsWith(prefix))) continue;
    if (await cache.match(keyOf(path))) continue;
    try {
      await cache.put(keyOf(path), await fetchFresh(path));
    } catch (error) {
      console.warn("Tarabish: could not cache", path, error);
      return; // offline again: the next start tries again
    }
  }
}

self.addEventListener("message", (event) => {
  if (event.data === "cache-site") event.waitUntil(cacheSite());
  if (event.data === "skip-waiting") event.waitUntil(self.skipWaiting());
  // The page compares this version with the host's version.json (boot.js).
  if (event.data === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});
