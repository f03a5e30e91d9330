// International draughts: 10x10, the 50 dark squares numbered 1-50 (square 1
// top-left from White's side). Moves `32-28`, captures `28x19`, the full path
// `47x38x24x13x36` when two captures share start and end. FEN
// `W:W31-50:B1-20` with `K` before kings.

import { cellGroup, disc } from './svg.js';

export function coords(n) {
  const r = Math.floor((n - 1) / 5);
  const i = (n - 1) % 5;
  return [r, r % 2 === 0 ? 2 * i + 1 : 2 * i];
}

function squareAt(r, c) {
  if (r < 0 || r > 9 || c < 0 || c > 9 || (r + c) % 2 === 0) return 0;
  return r * 5 + Math.floor(c / 2) + 1;
}

export function parse(text) {
  const fields = text.trim().replace(/\.$/, '').split(':');
  const board = new Map();
  const side = fields[0].trim().toUpperCase() === 'B' ? 'black' : 'white';
  for (const field of fields.slice(1)) {
    const owner = field[0].toUpperCase() === 'B' ? 'black' : 'white';
    for (const item of field.slice(1).split(',')) {
      const m = /^(K?)(\d+)(?:-(\d+))?$/.exec(item.trim());
      if (!m) continue;
      const from = Number(m[2]);
      const to = m[3] ? Number(m[3]) : from;
      for (let sq = from; sq <= to && sq <= 50; sq += 1) board.set(sq, { side: owner, king: m[1] === 'K' });
    }
  }
  return { board, side };
}

const DIRECTIONS = [[-1, -1], [-1, 1], [1, -1], [1, 1]];

/**
 * Every complete capture sequence of the piece on `from` (Turkish strike:
 * taken pieces stay on the board until the end and cannot be jumped twice;
 * the start square counts as empty), as {path: [landing squares], count,
 * taken: [squares of the men taken, in order]}.
 */
export function captureSequences(model, from) {
  const me = model.board.get(from);
  if (!me) return [];
  const out = [];
  const enemyAt = (r, c) => {
    const p = model.board.get(squareAt(r, c));
    return p && p.side !== me.side;
  };
  const emptyAt = (r, c) => {
    const sq = squareAt(r, c);
    return sq !== 0 && (sq === from || !model.board.has(sq));
  };
  const search = (at, captured, path) => {
    let extended = false;
    const [ar, ac] = coords(at);
    for (const [dr, dc] of DIRECTIONS) {
      let vr = ar + dr;
      let vc = ac + dc;
      if (me.king) {
        while (emptyAt(vr, vc)) { vr += dr; vc += dc; }
      }
      const victim = squareAt(vr, vc);
      if (!victim || !enemyAt(vr, vc) || captured.has(victim)) continue;
      let lr = vr + dr;
      let lc = vc + dc;
      while (emptyAt(lr, lc)) {
        extended = true;
        const landing = squareAt(lr, lc);
        path.push(landing);
        captured.add(victim);
        search(landing, captured, path);
        captured.delete(victim);
        path.pop();
        if (!me.king) break;
        lr += dr;
        lc += dc;
      }
    }
    if (!extended && path.length) out.push({ path: [...path], count: captured.size, taken: [...captured] });
  };
  search(from, new Set(), []);
  return out;
}

export function entries(model, legal) {
  const captures = legal.some((m) => m.includes('x'));
  const paths = new Map(); // from -> sequences of the winning size
  if (captures) {
    let best = 0;
    for (const [sq, p] of model.board) {
      if (p.side !== model.side) continue;
      const seqs = captureSequences(model, sq);
      paths.set(sq, seqs);
      for (const s of seqs) best = Math.max(best, s.count);
    }
    for (const [sq, seqs] of paths) paths.set(sq, seqs.filter((s) => s.count === best));
  }
  const text = (entry) => ({ move: entry.move, seqs: entry.seqs.map((seq) => seq.map(String)) });
  return legal.map((move) => text(raw(move)));

  function raw(move) {
    const squares = move.split(/[-x]/).map(Number);
    if (squares.length < 2 || squares.some((n) => !(n >= 1 && n <= 50))) return { move, seqs: [] };
    if (!move.includes('x')) return { move, seqs: [squares] };
    if (squares.length > 2) return { move, seqs: [squares] };
    const [from, to] = squares;
    const seqs = [[from, to]];
    for (const s of paths.get(from) || []) {
      if (s.path[s.path.length - 1] === to && s.path.length > 1) seqs.push([from, ...s.path]);
    }
    return { move, seqs };
  }
}

/**
 * The capture sequence a move played from `before` (the position before it):
 * the one listing the move's landings, or, for `from`x`to`, one of the
 * largest ending there (the server writes the full path when two captures
 * share start and end, so any left take the same men). Null for a quiet move,
 * or when `before` is not known.
 */
function playedCapture(move, before) {
  if (!before || !move.includes('x')) return null;
  const squares = move.split('x').map(Number);
  const [from] = squares;
  const to = squares[squares.length - 1];
  const fits = (s) => (squares.length > 2
    ? s.path.length === squares.length - 1 && s.path.every((sq, i) => sq === squares[i + 1])
    : s.path[s.path.length - 1] === to);
  const found = captureSequences(before, from).filter(fits);
  if (!found.length) return null;
  return found.reduce((best, s) => (s.count > best.count ? s : best));
}

/** The squares of the last move: every landing of a capture when `before` is known. */
export function lastCells(move, before) {
  const capture = playedCapture(move, before);
  if (capture) return [move.split('x')[0], ...capture.path].map(String);
  return move.split(/[-x]/).map(Number).filter((n) => n >= 1 && n <= 50).map(String);
}

/** The squares of the men the last move took (they are empty now). */
export function takenCells(move, before) {
  const capture = playedCapture(move, before);
  return capture ? capture.taken.map(String) : [];
}

export function autoFlip(model, seat) {
  return seat === 'black';
}

export function describe() {
  return '';
}

export function draw(model, view) {
  let body = '<rect x="-0.08" y="-0.08" width="10.16" height="10.16" fill="#4a3020"/>';
  for (let r = 0; r < 10; r += 1) {
    for (let c = 0; c < 10; c += 1) {
      if ((r + c) % 2 === 0) {
        const [x, y] = view.flipped ? [9 - c, 9 - r] : [c, r];
        body += `<rect class="sq-light" x="${x}" y="${y}" width="1" height="1"/>`;
      }
    }
  }
  for (let n = 1; n <= 50; n += 1) {
    const [r, c] = coords(n);
    const [x, y] = view.flipped ? [9 - c, 9 - r] : [c, r];
    const p = model.board.get(n);
    const taken = view.taken && view.taken.has(String(n));
    let inner = '<rect class="sq-dark" width="1" height="1"/><rect class="hl" x="0.03" y="0.03" width="0.94" height="0.94"/>';
    if (p) {
      const ring = `<circle cx="0.5" cy="0.5" r="0.27" fill="none" stroke="${p.side === 'white' ? '#b7b0a0' : '#55585e'}" stroke-width="0.03"/>`;
      const crown = p.king ? '<polygon class="crown" points="0.3,0.58 0.3,0.38 0.4,0.48 0.5,0.33 0.6,0.48 0.7,0.38 0.7,0.58"/>' : '';
      inner += disc(0.5, 0.5, 0.38, p.side, ring + crown);
    } else if (taken) {
      // A man the last move took: a faint outline of it, crossed out (they
      // belong to the side to move now).
      inner += `<g class="taken-mark"><circle class="piece-${model.side}" cx="0.5" cy="0.5" r="0.34"/>`
        + '<path d="M0.33,0.33 L0.67,0.67 M0.67,0.33 L0.33,0.67"/></g>';
    }
    if (view.numbers) inner += `<text class="num" x="0.05" y="0.2">${n}</text>`;
    inner += '<circle class="tg" cx="0.5" cy="0.5" r="0.14"/><rect class="focus-ring" x="0.05" y="0.05" width="0.9" height="0.9"/>';
    const label = `square ${n}${p ? `, ${p.side} ${p.king ? 'king' : 'man'}` : taken ? ', taken by the last move' : ''}`;
    body += cellGroup({ id: String(n), x, y, view, label, inner, occupied: Boolean(p) });
  }
  return { viewBox: '-0.15 -0.15 10.3 10.3', body, title: 'Draughts board' };
}

export function bottomSide(model, flipped) {
  return flipped ? 'black' : 'white';
}

/** View switches the room page offers for this board (passed to `draw` as `view[key]`). */
/** Square numbers are on at first: the notation is made of them. */
export const toggles = [{ key: 'numbers', label: 'Square numbers', on: true }];

/** The analysis board's set-up editor: what a click puts on a square, and the text. */
export const editor = {
  cycle(model, cell) {
    const sq = Number(cell);
    if (!(sq >= 1 && sq <= 50)) return;
    const order = [null, 'wm', 'wk', 'bm', 'bk'];
    const piece = model.board.get(sq);
    const now = piece ? `${piece.side[0]}${piece.king ? 'k' : 'm'}` : null;
    const next = order[(order.indexOf(now) + 1) % order.length];
    if (next) model.board.set(sq, { side: next[0] === 'w' ? 'white' : 'black', king: next[1] === 'k' });
    else model.board.delete(sq);
  },
  format(model) {
    const list = (side) => [...model.board].filter(([, p]) => p.side === side).sort((a, b) => a[0] - b[0])
      .map(([sq, p]) => `${p.king ? 'K' : ''}${sq}`).join(',');
    return `${model.side === 'white' ? 'W' : 'B'}:W${list('white')}:B${list('black')}`;
  },
};

/** What 100 of the engine's points are worth: the analysis speaks in it. */
export const scoreUnit = ['man', 'men'];
