// The evaluation graph of a finished game: every position searched by the
// engine in this browser at a fixed depth, drawn from White's side, each
// point a link to its position in the replay.

import { h, esc } from './dom.js';
import { LocalEngine, EngineStopped } from './engine.js';
import { describeScore } from './games.js';

/** Depth of each position's search, and a cap per position. */
const GRAPH_DEPTH = 5;
const GRAPH_MS_CAP = 1500;
/** Points at which the curve is drawn three quarters of the way up. */
const GRAPH_SCALE = 400;

/**
 * A graph box for a room: `show(state)` once the game is over starts the
 * evaluations (once per game); `onPick(ply)` gets a clicked point's ply.
 */
export function evaluationGraph({ onPick }) {
  const box = h('section', { class: 'eval-graph', hidden: true, 'aria-label': 'Evaluation graph' });
  let engine = null;
  let done = null; // the moves (joined) evaluated or being evaluated
  let points = [];
  let total = 0;
  let game = '';
  let problem = '';
  let shown = null;

  function draw() {
    const width = 300;
    const height = 100;
    const x = (ply) => (total > 0 ? (ply / total) * width : 0);
    const y = (white) => {
      const share = Number.isFinite(white) ? Math.tanh(white / GRAPH_SCALE) : Math.sign(white);
      return height / 2 - share * (height / 2 - 4);
    };
    const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.ply).toFixed(1)} ${y(p.white).toFixed(1)}`).join(' ');
    const dots = points.map((p) => `<circle class="graph-point${p.ply === shown ? ' shown' : ''}" data-ply="${p.ply}" cx="${x(p.ply).toFixed(1)}" cy="${y(p.white).toFixed(1)}" r="3"><title>${esc(p.title)}</title></circle>`).join('');
    const area = path ? `${path} L${x(points[points.length - 1].ply).toFixed(1)} ${height / 2} L0 ${height / 2} Z` : '';
    const svg = `<svg viewBox="-4 0 ${width + 8} ${height}" class="graph" role="img" aria-label="The evaluation for White after each move">`
      + `<rect class="graph-white" x="-4" y="0" width="${width + 8}" height="${height / 2}"/>`
      + `<line class="graph-axis" x1="-4" y1="${height / 2}" x2="${width + 4}" y2="${height / 2}"/>`
      + (area ? `<path class="graph-area" d="${area}"/><path class="graph-line" d="${path}"/>` : '')
      + dots + '</svg>';
    const status = problem
      ? `The evaluation stopped: ${problem}`
      : points.length <= total ? `Evaluating move ${Math.min(points.length, total)} of ${total} (depth ${GRAPH_DEPTH}, in this browser)…` : `Depth ${GRAPH_DEPTH}, in this browser: click a point to see its position.`;
    box.innerHTML = '';
    box.append(h('h2', {}, 'Evaluation'), h('p', { class: 'meta', 'data-graph-status': points.length > total ? 'done' : 'running' }, status));
    const holder = h('div', { class: 'graph-wrap' });
    holder.innerHTML = svg;
    box.append(holder);
    box.dataset.points = String(points.length);
  }

  box.addEventListener('click', (event) => {
    const point = event.target.closest && event.target.closest('[data-ply]');
    if (point) onPick(Number(point.dataset.ply));
  });

  async function evaluate(state) {
    const moves = state.moves;
    total = moves.length;
    points = [];
    problem = '';
    game = state.game;
    draw();
    if (!engine) engine = new LocalEngine();
    for (let ply = 0; ply <= total; ply += 1) {
      const key = done;
      let white;
      let title;
      if (ply === total && state.result) {
        // The end: the result itself.
        const winner = state.result.winner;
        white = winner === 'white' ? Infinity : winner === 'black' ? -Infinity : 0;
        title = `the end: ${state.result.reason}`;
      } else {
        try {
          const answer = await engine.request({ op: 'think', game: state.game, variant: state.variant || null, start: state.start, moves: moves.slice(0, ply), level: 'master', analysis: true, depth: GRAPH_DEPTH, movetime_ms: GRAPH_MS_CAP, table_mb: 16, id: 'graph' });
          const sign = answer.side_to_move === 'white' ? 1 : -1;
          const proven = answer.score.ends_in !== null && answer.score.ends_in !== undefined;
          white = sign * (proven ? (answer.score.value > 0 ? Infinity : -Infinity) : answer.score.value);
          title = describeScore(game, answer.score, answer.side_to_move);
        } catch (err) {
          if (err instanceof EngineStopped || done !== key) return;
          // A position the engine does not search (the game over by a rule,
          // an Escampe placement): level.
          white = 0;
          title = err.message;
        }
      }
      if (done !== key) return;
      points.push({ ply, white, title: `after ${ply} move${ply === 1 ? '' : 's'}: ${title}` });
      draw();
    }
    draw();
  }

  return {
    box,
    /** Shows the graph of `state` when its game is over (evaluated once). */
    show(state, shownPly) {
      shown = shownPly;
      const over = state.status === 'finished' && state.moves.length > 0;
      box.hidden = !over;
      if (!over) return;
      const key = `${state.code} ${state.moves.join(' ')}`;
      if (done === key) {
        draw();
        return;
      }
      done = key;
      evaluate(state).catch((err) => { problem = err.message; draw(); });
    },
    destroy() {
      done = null;
      if (engine) engine.close();
    },
  };
}
