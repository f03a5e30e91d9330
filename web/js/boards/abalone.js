// Abalone: 61 cells in a hexagon, rows A (Black's side) to I, diagonals 1-9.
// Moves in Aba-Pro notation: inline `a1b2` (the trailing marble's from and to;
// the own marbles in front move too), broadside `c6c7d6` (the two ends, then
// the first one's destination). Position text: rows I to A, then the side to
// move, then the marbles each side has lost: `... b b0 w0`.

import { cellGroup, disc } from './svg.js';

const ROWS = 'abcdefghi';
const DIRS = [[0, -1], [0, 1], [1, 0], [1, 1], [-1, 0], [-1, -1]];
const SQRT3_2 = Math.sqrt(3) / 2;

const span = (row) => [Math.max(1, row - 4), Math.min(9, row + 4)]; // row 1..9
const id = (row, d) => `${ROWS[row - 1]}${d}`;
const onBoard = (row, d) => row >= 1 && row <= 9 && d >= span(row)[0] && d <= span(row)[1];

function split(cell) {
  return [ROWS.indexOf(cell[0]) + 1, Number(cell.slice(1))];
}

function step(cell, [dr, dd], times = 1) {
  const [r, d] = split(cell);
  const nr = r + dr * times;
  const nd = d + dd * times;
  return onBoard(nr, nd) ? id(nr, nd) : null;
}

export function cells() {
  const out = [];
  for (let row = 9; row >= 1; row -= 1) {
    const [low, high] = span(row);
    for (let d = low; d <= high; d += 1) out.push(id(row, d));
  }
  return out;
}

export function parse(text) {
  const [rows = '', side = 'b', ...counts] = text.trim().split(/\s+/);
  const board = new Map();
  rows.split('/').forEach((line, i) => {
    const row = 9 - i;
    let d = span(row)[0];
    for (const ch of line) {
      if (/\d/.test(ch)) d += Number(ch);
      else {
        board.set(id(row, d), ch === 'b' ? 'black' : 'white');
        d += 1;
      }
    }
  });
  const lost = { black: 0, white: 0 };
  for (const c of counts) {
    const m = /^([bw])(\d+)$/.exec(c);
    if (m) lost[m[1] === 'b' ? 'black' : 'white'] = Number(m[2]);
  }
  return { board, side: side === 'w' ? 'white' : 'black', lost };
}

function direction(from, to) {
  const [r1, d1] = split(from);
  const [r2, d2] = split(to);
  return DIRS.find(([dr, dd]) => dr === r2 - r1 && dd === d2 - d1) || null;
}

/** A legal move's group, direction and the cells that, clicked, play it. */
function decode(model, move) {
  const cellsOf = move.match(/[a-i][1-9]/g) || [];
  if (cellsOf.length === 2) {
    const [from, to] = cellsOf;
    const dir = direction(from, to);
    if (!dir) return null;
    const group = [from];
    let next = step(from, dir);
    while (next && model.board.get(next) === model.side && group.length < 3) {
      group.push(next);
      next = step(next, dir);
    }
    const ahead = step(group[group.length - 1], dir);
    return { move, inline: true, trailing: from, group, dir, targets: ahead ? [ahead] : [] };
  }
  if (cellsOf.length === 3) {
    const [a, b, dest] = cellsOf;
    const dir = direction(a, dest);
    const [ra, da] = split(a);
    const [rb, db] = split(b);
    const n = Math.max(Math.abs(rb - ra), Math.abs(db - da));
    if (!dir || n < 1 || n > 2) return null;
    const unit = [(rb - ra) / n, (db - da) / n];
    const group = [];
    for (let i = 0; i <= n; i += 1) group.push(step(a, unit, i));
    if (group.some((c) => !c)) return null;
    return { move, inline: false, group, dir, targets: group.map((c) => step(c, dir)).filter(Boolean) };
  }
  return null;
}

function isLine(group) {
  if (group.length <= 1) return true;
  if (group.length > 3) return false;
  for (const a of group) {
    for (const dir of DIRS) {
      const line = [a];
      for (let i = 1; i < group.length; i += 1) line.push(step(a, dir, i));
      if (line.every((c) => c && group.includes(c))) return true;
    }
  }
  return false;
}

const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));

/** Select 1-3 marbles in a line, then click where they go (a cell they move onto). */
export class AbalonePicker {
  constructor(model, legal) {
    this.model = model;
    this.moves = legal.map((m) => decode(model, m)).filter(Boolean);
    this.buttons = [];
    this.selection = [];
  }

  matching() {
    const s = this.selection;
    if (!s.length) return [];
    return this.moves.filter((m) => sameSet(m.group, s) || (s.length === 1 && m.inline && m.trailing === s[0]));
  }

  targetMap() {
    const map = new Map();
    for (const m of this.matching()) for (const t of m.targets) if (!map.has(t)) map.set(t, m.move);
    return map;
  }

  view() {
    const playable = new Set();
    for (const m of this.moves) for (const c of m.group) playable.add(c);
    const targets = new Map([...this.targetMap().keys()].map((c) => [c, 'final']));
    return { playable, selected: new Set(this.selection), targets, hasSelection: this.selection.length > 0 };
  }

  click(cell) {
    const target = this.targetMap().get(cell);
    if (target) {
      this.selection = [];
      return { move: target };
    }
    const playable = this.view().playable;
    if (playable.has(cell)) {
      if (this.selection.includes(cell)) {
        const rest = this.selection.filter((c) => c !== cell);
        this.selection = isLine(rest) ? rest : [];
      } else {
        const grown = [...this.selection, cell];
        this.selection = isLine(grown) ? grown : [cell];
      }
      return { changed: true };
    }
    if (this.selection.length) {
      this.selection = [];
      return { changed: true };
    }
    return { ignored: true };
  }
}

/**
 * The cells of the last move: with `before` (the position before it), every
 * moved marble's cell and destination and every marble it pushed (an ejected
 * one's last cell); without it, the cells the move names.
 */
export function lastCells(move, before) {
  const named = move.match(/[a-i][1-9]/g) || [];
  const decoded = before ? decode(before, move) : null;
  if (!decoded) return named;
  const cells = new Set(decoded.group);
  for (const c of decoded.group) {
    const to = step(c, decoded.dir);
    if (to) cells.add(to);
  }
  if (decoded.inline) {
    // The enemy line in front is pushed one cell (off the board at the edge).
    const mover = before.board.get(decoded.trailing);
    let at = step(decoded.group[decoded.group.length - 1], decoded.dir);
    while (at && before.board.has(at) && before.board.get(at) !== mover) {
      cells.add(at);
      at = step(at, decoded.dir);
      if (at) cells.add(at);
    }
  }
  return [...cells];
}

export function autoFlip(model, seat) {
  return seat === 'white';
}

export function describe(model) {
  return `Lost marbles: Black ${model.lost.black}, White ${model.lost.white} (six lose)`;
}

/** Centre of a cell in board units (I at the top). */
function position(row, d, flipped) {
  const x = d - 1 - (row - 1) / 2 + 2.5;
  const y = (9 - row) * SQRT3_2 + 0.6;
  if (!flipped) return [x, y];
  return [9 - x, 8 * SQRT3_2 + 1.2 - y];
}

export function draw(model, view) {
  const corners = [[1, 1], [1, 5], [5, 9], [9, 9], [9, 5], [5, 1]].map(([r, d]) => position(r, d, view.flipped));
  const [cx, cy] = position(5, 5, view.flipped);
  const outline = corners.map(([x, y]) => {
    const k = 1 + 0.72 / Math.hypot(x - cx, y - cy);
    return `${(cx + (x - cx) * k).toFixed(3)},${(cy + (y - cy) * k).toFixed(3)}`;
  }).join(' ');
  let body = `<polygon class="hexboard" points="${outline}" stroke="#5b3a22" stroke-width="0.06" stroke-linejoin="round"/>`;
  for (const cell of cells()) {
    const [row, d] = split(cell);
    const [x, y] = position(row, d, view.flipped);
    const marble = model.board.get(cell);
    // The highlight shows as a ring around a marble (r 0.43): wide enough to see.
    let inner = '<circle class="hole" r="0.42"/><circle class="hl" r="0.485"/>';
    if (marble) inner += disc(0, 0, 0.43, marble);
    inner += '<circle class="tg" r="0.15"/><circle class="focus-ring" r="0.48"/>';
    const label = `${cell}${marble ? `, ${marble} marble` : ''}`;
    body += cellGroup({ id: cell, x, y, view, label, inner, occupied: Boolean(marble) });
  }
  // Row letters left of each row, diagonal numbers below each diagonal's end,
  // both clear of the board's rim.
  for (let row = 1; row <= 9; row += 1) {
    const [x, y] = position(row, span(row)[0] - 1.45, view.flipped);
    body += `<text class="coord" x="${x.toFixed(3)}" y="${y.toFixed(3)}">${ROWS[row - 1].toUpperCase()}</text>`;
  }
  for (let d = 1; d <= 9; d += 1) {
    const [x, y] = position(Math.max(1, d - 4) - 1.5, d, view.flipped);
    body += `<text class="coord" x="${x.toFixed(3)}" y="${y.toFixed(3)}">${d}</text>`;
  }
  const height = 8 * SQRT3_2 + 1.2;
  return { viewBox: `-1.2 -0.95 11.4 ${(height + 1.9).toFixed(3)}`, body, title: 'Abalone board' };
}

export function bottomSide(model, flipped) {
  return flipped ? 'white' : 'black';
}

/** What to do, said under the board when it is the player's move. */
export const moveHint = 'Select 1-3 marbles in a line, then click where they go (a green dot)';

/** The analysis board's set-up editor: what a click puts on a cell, and the text. */
export const editor = {
  cycle(model, cell) {
    const order = [undefined, 'black', 'white'];
    const next = order[(order.indexOf(model.board.get(cell)) + 1) % order.length];
    if (next) model.board.set(cell, next);
    else model.board.delete(cell);
  },
  format(model) {
    const rows = [];
    for (let row = 9; row >= 1; row -= 1) {
      const [low, high] = span(row);
      let line = '';
      let empty = 0;
      for (let d = low; d <= high; d += 1) {
        const marble = model.board.get(id(row, d));
        if (!marble) { empty += 1; continue; }
        if (empty) line += String(empty);
        empty = 0;
        line += marble === 'black' ? 'b' : 'w';
      }
      rows.push(line + (empty ? String(empty) : ''));
    }
    return `${rows.join('/')} ${model.side === 'white' ? 'w' : 'b'} b${model.lost.black} w${model.lost.white}`;
  },
};

/** What 100 of the engine's points are worth: the analysis speaks in it. */
export const scoreUnit = ['marble', 'marbles'];
