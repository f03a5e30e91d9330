// The page's service worker: keeps a copy of the page's own files (not the
// API) so that the in-browser engine (a game against the computer, the
// analysis board, training) keeps working when the server cannot be reached:
// a stopped search starts a fresh engine worker, whose script and module come
// from here, and a reload finds the page. Always the network first: a
// reachable server is never second-guessed, and an upgrade shows at once.

'use strict';

const CACHE = 'plateau-page';
/** Everything the page loads; a unit test keeps it equal to web/'s files. */
const FILES = [
  '/',
  '/favicon.svg',
  '/style.css',
  '/engine/plateau.wasm',
  '/engine/worker.js',
  '/js/analysis.js',
  '/js/api.js',
  '/js/bench.js',
  '/js/boards/abalone.js',
  '/js/boards/ataxx.js',
  '/js/boards/draughts.js',
  '/js/boards/escampe.js',
  '/js/boards/svg.js',
  '/js/dom.js',
  '/js/engine.js',
  '/js/game.js',
  '/js/games.js',
  '/js/graph.js',
  '/js/home.js',
  '/js/local.js',
  '/js/main.js',
  '/js/picker.js',
  '/js/rules.js',
  '/js/server.js',
  '/js/sound.js',
  '/js/store.js',
  '/js/stream.js',
  '/js/train.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // The API (moves, event streams) always goes to the server, untouched.
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  // Every address of the page (/r/CODE, /local/ID, /analysis...) is the page.
  const key = request.mode === 'navigate' ? '/' : request;
  const kept = () => caches.open(CACHE).then((cache) => cache.match(key, { ignoreSearch: request.mode === 'navigate' }));
  event.respondWith((async () => {
    let response;
    try {
      response = await fetch(request);
    } catch (err) {
      const copy = await kept();
      if (copy) return copy;
      throw err;
    }
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
      return response;
    }
    // A proxy in front of a stopped server answers 502-504: the copy is better.
    if (response.status >= 500) return (await kept()) || response;
    return response;
  })());
});
