// The virus game and Ataxx: an n x n grid (4-9), files a.. left to right,
// ranks 1.. bottom to top. Black `x` moves first. Clones are written as the
// target cell `b6`, Ataxx jumps as origin and target `g1e3`, a pass `0000`.
// FEN: ranks from the top, `x` `o` stones, `-` blocked, digits for empties.

import { cellGroup, disc } from './svg.js';

const FILES = 'abcdefghi';

export function parse(text) {
  const [ranks = '', side = 'x', ...counters] = text.trim().split(/\s+/);
  const lines = ranks.split('/');
  const n = lines.length;
  const board = new Map();
  lines.forEach((line, i) => {
    const rank = n - i;
    let file = 0;
    for (const ch of line) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        const cell = `${FILES[file]}${rank}`;
        if (ch === 'x') board.set(cell, 'black');
        else if (ch === 'o') board.set(cell, 'white');
        else if (ch === '-') board.set(cell, 'blocked');
        file += 1;
      }
    }
  });
  // Full Ataxx writes its clocks after the side; the virus game does not.
  return { n, board, side: side === 'o' ? 'white' : 'black', jumps: counters.length > 0 };
}

function split(cell) {
  return [FILES.indexOf(cell[0]), Number(cell.slice(1))];
}

function distance(a, b) {
  const [fa, ra] = split(a);
  const [fb, rb] = split(b);
  return Math.max(Math.abs(fa - fb), Math.abs(ra - rb));
}

export function entries(model, legal) {
  const own = [...model.board].filter(([, v]) => v === model.side).map(([c]) => c);
  return legal.map((move) => {
    if (/^[a-i][1-9]$/.test(move)) {
      // A clone: click the cell; in Ataxx, also a stone next to it and then the cell.
      const from = model.jumps ? own.filter((s) => distance(s, move) === 1) : [];
      const seqs = [[move], ...from.map((s) => [s, move])];
      return { move, seqs };
    }
    const m = /^([a-i][1-9])([a-i][1-9])$/.exec(move);
    return { move, seqs: m ? [[m[1], m[2]]] : [] };
  });
}

export function lastCells(move) {
  return move.match(/[a-i][1-9]/g) || [];
}

/** Black's stones start at the bottom; a player of White sees theirs there. */
export function autoFlip(model, seat) {
  return seat === 'white';
}

export function describe(model) {
  let black = 0;
  let white = 0;
  for (const v of model.board.values()) {
    if (v === 'black') black += 1;
    else if (v === 'white') white += 1;
  }
  return `Stones: Black ${black}, White ${white}`;
}

export function draw(model, view) {
  const n = model.n;
  let body = `<rect x="-0.05" y="-0.05" width="${n + 0.1}" height="${n + 0.1}" fill="#6d7a74"/>`;
  for (let rank = n; rank >= 1; rank -= 1) {
    for (let file = 0; file < n; file += 1) {
      const cell = `${FILES[file]}${rank}`;
      let x = file;
      let y = n - rank;
      if (view.flipped) { x = n - 1 - x; y = n - 1 - y; }
      const v = model.board.get(cell);
      let inner = `<rect class="${v === 'blocked' ? 'blocked' : 'grid-cell'}" width="1" height="1"/><rect class="hl" x="0.04" y="0.04" width="0.92" height="0.92" rx="0.06"/>`;
      if (v === 'black' || v === 'white') inner += disc(0.5, 0.5, 0.37, v);
      inner += '<circle class="tg" cx="0.5" cy="0.5" r="0.14"/><rect class="focus-ring" x="0.05" y="0.05" width="0.9" height="0.9"/>';
      const what = v === 'blocked' ? ', blocked' : v ? `, ${v} stone` : '';
      body += cellGroup({ id: cell, x, y, view, label: `${cell}${what}`, inner, occupied: Boolean(v) });
    }
  }
  for (let i = 0; i < n; i += 1) {
    const file = view.flipped ? n - 1 - i : i;
    const rank = view.flipped ? i + 1 : n - i;
    body += `<text class="coord" x="${i + 0.5}" y="${n + 0.3}">${FILES[file]}</text>`;
    body += `<text class="coord" x="-0.3" y="${i + 0.5}">${rank}</text>`;
  }
  return { viewBox: `-0.55 -0.2 ${n + 0.75} ${n + 0.75}`, body, title: `${n}x${n} board` };
}

export function bottomSide(model, flipped) {
  return flipped ? 'white' : 'black';
}

/** The move that passes, shown as a "Pass" button. */
export const passMove = '0000';

/** The analysis board's set-up editor: what a click puts on a cell, and the text. */
export const editor = {
  cycle(model, cell) {
    const order = model.jumps ? [undefined, 'black', 'white', 'blocked'] : [undefined, 'black', 'white'];
    const next = order[(order.indexOf(model.board.get(cell)) + 1) % order.length];
    if (next) model.board.set(cell, next);
    else model.board.delete(cell);
  },
  format(model) {
    const ranks = [];
    for (let rank = model.n; rank >= 1; rank -= 1) {
      let line = '';
      let empty = 0;
      for (let file = 0; file < model.n; file += 1) {
        const v = model.board.get(`${FILES[file]}${rank}`);
        if (!v) { empty += 1; continue; }
        if (empty) line += String(empty);
        empty = 0;
        line += { black: 'x', white: 'o', blocked: '-' }[v];
      }
      ranks.push(line + (empty ? String(empty) : ''));
    }
    return `${ranks.join('/')} ${model.side === 'white' ? 'o' : 'x'}${model.jumps ? ' 0 1' : ''}`;
  },
};

/** What 100 of the engine's points are worth: the analysis speaks in it. */
export const scoreUnit = ['stone', 'stones'];
