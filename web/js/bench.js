// How fast the engine runs in this browser: `plateau bench`'s positions and
// depths, searched by the WebAssembly build, with nodes per second per game
// (compare with `plateau bench` on the same machine).

import { h } from './dom.js';
import { LocalEngine } from './engine.js';

export function benchView(root) {
  const engine = new LocalEngine();
  let destroyed = false;
  const rows = h('tbody');
  const status = h('p', { class: 'status', 'aria-live': 'polite' }, 'Loading the engine…');
  const section = h('section', { class: 'card bench', 'data-done': 'false' },
    h('h1', {}, 'Engine speed in this browser'),
    h('p', { class: 'meta' }, 'The positions and depths of plateau bench, one thread, searched by the engine compiled to WebAssembly.'),
    status,
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Depth'), h('th', {}, 'Nodes'), h('th', {}, 'Seconds'), h('th', {}, 'Nodes/s'))), rows));
  root.replaceChildren(section);

  (async () => {
    const { games } = await engine.request({ op: 'games' });
    for (const game of games) {
      if (destroyed) return;
      status.textContent = `Searching: ${game.title}…`;
      const result = await engine.request({ op: 'bench', game: game.name });
      rows.append(h('tr', { 'data-game': result.game, 'data-nps': String(result.nps), 'data-nodes': String(result.nodes) },
        h('td', {}, result.game), h('td', {}, String(result.depth)), h('td', {}, result.nodes.toLocaleString('en')),
        h('td', {}, (result.time_ms / 1000).toFixed(3)), h('td', {}, result.nps.toLocaleString('en'))));
    }
    status.textContent = 'Done.';
    section.dataset.done = 'true';
  })().catch((err) => {
    status.textContent = err.message;
    status.classList.add('bad');
  });

  return { destroy() { destroyed = true; engine.close(); } };
}
