// plateau's page: a home page and one view per room (`/r/CODE`), switched
// without reloading.

import { homeView } from './home.js';
import { gameView } from './game.js';
import { loadCatalogue } from './games.js';

const app = document.getElementById('app');
let current = null;

function route() {
  if (current) current.destroy();
  const room = /^\/r\/([A-Za-z0-9]{5})\/?$/.exec(location.pathname);
  const badRoom = !room && /^\/r\/([^/]*)/.exec(location.pathname);
  if (badRoom) {
    let text = badRoom[1];
    try { text = decodeURIComponent(text); } catch (_) { /* shown as typed */ }
    current = badCode(text);
    document.title = 'plateau · no such room';
    return;
  }
  current = room ? gameView(app, room[1].toUpperCase(), { navigate }) : homeView(app, { navigate });
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
  if (path !== location.pathname) history.pushState(null, '', path);
  route();
  app.focus({ preventScroll: true });
}

document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a[data-link]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(new URL(link.href).pathname);
});
window.addEventListener('popstate', route);
// Side names come from the catalogue: load it first (a page without it still
// works, with plain White and Black).
loadCatalogue().catch(() => {}).finally(route);
