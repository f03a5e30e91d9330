// plateau's page: a home page and one view per room (`/r/CODE`), switched
// without reloading.

import { homeView } from './home.js';
import { gameView } from './game.js';

const app = document.getElementById('app');
let current = null;

function route() {
  if (current) current.destroy();
  const room = /^\/r\/([A-Za-z0-9]{5})\/?$/.exec(location.pathname);
  current = room ? gameView(app, room[1].toUpperCase(), { navigate }) : homeView(app, { navigate });
  document.title = room ? `plateau · room ${room[1].toUpperCase()}` : 'plateau';
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
route();
