// plateau's page: a home page and one view per room (`/r/CODE`), switched
// without reloading.

import { homeView } from './home.js';
import { gameView } from './game.js';
import { loadCatalogue } from './games.js';
import { localBackend } from './local.js';
import { analysisView } from './analysis.js';
import { trainView } from './train.js';
import { benchView } from './bench.js';
import { rulesView, RULE_GAMES } from './rules.js';

const app = document.getElementById('app');
let current = null;

/** Views on the in-browser engine: no server needed once loaded. */
const LOCAL_VIEWS = { '/analysis': [analysisView, 'analysis'], '/train': [trainView, 'training'], '/bench': [benchView, 'engine speed'] };

function route() {
  if (current) current.destroy();
  const local = /^\/local\/([A-Za-z0-9]{4,16})\/?$/.exec(location.pathname);
  if (local) {
    current = gameView(app, local[1], { navigate, backend: localBackend(local[1]) });
    document.title = 'plateau · against the computer in this browser';
    return;
  }
  const view = LOCAL_VIEWS[location.pathname.replace(/\/$/, '')];
  if (view) {
    current = view[0](app, { navigate, query: new URLSearchParams(location.search) });
    document.title = `plateau · ${view[1]}`;
    return;
  }
  const rules = /^\/rules(?:\/([^/]*))?\/?$/.exec(location.pathname);
  if (rules) {
    let game = rules[1] || '';
    try { game = decodeURIComponent(game); } catch (_) { /* shown as typed */ }
    current = rulesView(app, { game, navigate });
    document.title = RULE_GAMES.includes(game) ? `plateau · rules of ${game}` : 'plateau · rules';
    return;
  }
  const room = /^\/r\/([A-Za-z0-9]{5})\/?$/.exec(location.pathname);
  const badRoom = !room && /^\/r\/([^/]*)/.exec(location.pathname);
  if (badRoom) {
    let text = badRoom[1];
    try { text = decodeURIComponent(text); } catch (_) { /* shown as typed */ }
    current = badCode(text);
    document.title = 'plateau · no such room';
    return;
  }
  current = room ? gameView(app, room[1].toUpperCase(), { navigate }) : homeView(app, { navigate, query: new URLSearchParams(location.search) });
  document.title = room ? `plateau · room ${room[1].toUpperCase()}` : 'plateau';
}

/** A room link whose code cannot be one: say so rather than show the home page. */
function badCode(text) {
  const shown = text.length > 20 ? `${text.slice(0, 20)}…` : text;
  const section = document.createElement('section');
  section.className = 'card notice';
  section.dataset.missing = shown;
  const title = document.createElement('h1');
  title.textContent = `“${shown}” is not a room code`;
  const words = document.createElement('p');
  words.textContent = 'A room code has five letters and digits, like K7QXM.';
  const home = document.createElement('a');
  home.className = 'btn primary';
  home.href = '/';
  home.dataset.link = '';
  home.textContent = 'New game';
  section.append(title, words, home);
  app.replaceChildren(section);
  return { destroy() {} };
}

export function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, '', path);
  route();
  app.focus({ preventScroll: true });
}

document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a[data-link]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const url = new URL(link.href);
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', route);
// Side names come from the catalogue: load it first (a page without it still
// works, with plain White and Black).
loadCatalogue().catch(() => {}).finally(route);
// Keeps the page's files for the in-browser engine when the server is away (sw.js).
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
