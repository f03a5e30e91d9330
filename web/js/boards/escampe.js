// Escampe: a 6x6 board whose squares carry a liseré of 1-3 lines (drawn as
// nested corner brackets), unicorns and paladins; placements on two rows,
// then moves `B1-D1`, the pass `E`. Position text: `n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2`.

import { cellGroup, disc } from './svg.js';

const COLUMNS = 'ABCDEF';
/** Liseré of each square, row 6 first (docs/rules/escampe.md). */
const LISERE = [
  [3, 2, 2, 1, 3, 2],
  [1, 3, 1, 3, 1, 2],
  [2, 1, 3, 2, 3, 1],
  [2, 3, 1, 2, 1, 3],
  [3, 1, 3, 1, 3, 2],
  [1, 2, 2, 3, 1, 2],
];

export function lisere(square) {
  const col = COLUMNS.indexOf(square[0]);
  const row = Number(square.slice(1));
  return LISERE[6 - row][col];
}

const NAMES = { N: 'black unicorn', n: 'black paladin', B: 'white unicorn', b: 'white paladin' };

export function parse(text) {
  const [rows = '', side = 'w', constraint = '-'] = text.trim().split(/\s+/);
  const board = new Map();
  rows.split('/').forEach((row, i) => {
    let col = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) col += Number(ch);
      else {
        board.set(`${COLUMNS[col]}${6 - i}`, ch);
        col += 1;
      }
    }
  });
  return {
    board,
    side: side === 'b' ? 'black' : 'white',
    constraint: /^[123]$/.test(constraint) ? Number(constraint) : null,
  };
}

/** The side owning a piece letter. */
const owner = (piece) => ('Nn'.includes(piece) ? 'black' : 'white');

function rowsOf(model, side) {
  return [...model.board].filter(([, p]) => owner(p) === side).map(([sq]) => Number(sq.slice(1)));
}

/** Whether `side` still has to place its pieces. */
export function placing(model, side) {
  return rowsOf(model, side).length === 0;
}

/**
 * The rows `side` may place on: White takes the edge Black left; Black's first
 * square decides its edge (`first`, if any).
 */
export function placementRows(model, side, first) {
  if (side === 'white') {
    const black = rowsOf(model, 'black');
    return black.length && black[0] >= 5 ? [1, 2] : [5, 6];
  }
  if (first) return Number(first.slice(1)) >= 5 ? [5, 6] : [1, 2];
  return [1, 2, 5, 6];
}

/** Placements worth offering: Black placements of plateau's book (a fair start for White too). */
export function suggestions(model, side) {
  const rows = placementRows(model, side, null);
  const bottom = ['A1/B1/D1/A2/D2/F2', 'A1/B1/A2/C2/D2/F2', 'A1/B1/A2/D2/E2/F2'];
  const top = ['A6/A5/D5/E5/B6/E6', 'A6/A5/D5/E5/B6/F6', 'E6/A5/B5/E5/D6/F6'];
  if (rows.length === 4) return [...bottom.slice(0, 2), ...top.slice(0, 1)];
  return rows[0] === 1 ? bottom : top;
}

export const squares = () => {
  const out = [];
  for (let row = 6; row >= 1; row -= 1) for (const c of COLUMNS) out.push(`${c}${row}`);
  return out;
};

export function entries(model, legal) {
  return legal.map((move) => {
    const m = /^([A-F][1-6])-([A-F][1-6])$/.exec(move);
    return { move, seqs: m ? [[m[1], m[2]]] : [] };
  });
}

export function lastCells(move) {
  return (move.match(/[A-F][1-6]/g) || []).slice(0, 6);
}

/** Own pieces at the bottom once placed. */
export function autoFlip(model, seat) {
  if (!seat) return false;
  const rows = rowsOf(model, seat);
  if (!rows.length) return false;
  return rows.reduce((a, b) => a + b, 0) / rows.length > 3.5;
}

export function describe(model, state) {
  if (!model.constraint || state.status !== 'playing') return '';
  const side = model.side === 'white' ? 'White' : 'Black';
  const moves = state.legal_moves;
  if (Array.isArray(moves) && moves.length === 1 && moves[0] === 'E') {
    return `${side} has no piece that can move from a liseré-${model.constraint} square: ${side} must pass`;
  }
  return `${side} must move a piece from a liseré-${model.constraint} square`;
}

function piece(letter) {
  const side = owner(letter);
  if (letter === 'N' || letter === 'B') {
    const horn = '<polygon class="horn" points="0.5,0.2 0.445,0.47 0.555,0.47"/>'
      + '<circle class="unicorn-mark" cx="0.5" cy="0.56" r="0.07"/>';
    return disc(0.5, 0.53, 0.27, side, horn);
  }
  return disc(0.5, 0.5, 0.22, side);
}

/**
 * A square's liseré: 1-3 nested lines drawn only at the square's corners, as
 * brackets. Rings around the middle read as empty pieces; corners stay clear
 * of where a piece stands.
 */
function lisereMarks(lines) {
  let out = '';
  for (let i = 0; i < lines; i += 1) {
    const a = (0.09 + i * 0.07).toFixed(2); // inset from the edge
    const b = (0.26 + i * 0.03).toFixed(2); // where the bracket's arms end
    const c = (1 - a).toFixed(2);
    const d = (1 - b).toFixed(2);
    out += `<path class="lisere" d="M${a},${b} L${a},${a} L${b},${a} M${d},${a} L${c},${a} L${c},${b}`
      + ` M${c},${d} L${c},${c} L${d},${c} M${b},${c} L${a},${c} L${a},${d}"/>`;
  }
  return out;
}

/** `view`: {flipped, playable, selected, targets, last, interactive, ghosts: Map square->letter}. */
export function draw(model, view) {
  const imposed = new Set();
  if (model.constraint && view.showImposed) {
    for (const sq of squares()) if (lisere(sq) === model.constraint) imposed.add(sq);
  }
  const cellView = { ...view, imposed };
  let body = '<rect x="-0.06" y="-0.06" width="6.12" height="6.12" rx="0.08" fill="#7a5533"/>';
  for (const sq of squares()) {
    const col = COLUMNS.indexOf(sq[0]);
    const row = Number(sq.slice(1));
    let x = col;
    let y = 6 - row;
    if (view.flipped) { x = 5 - x; y = 5 - y; }
    const lines = lisere(sq);
    let inner = '<rect class="sq-light" width="1" height="1" stroke="#b89a6a" stroke-width="0.02"/>'
      + '<rect class="hl" x="0.04" y="0.04" width="0.92" height="0.92" rx="0.08"/>';
    inner += lisereMarks(lines);
    const letter = model.board.get(sq);
    const ghost = view.ghosts && view.ghosts.get(sq);
    if (letter) inner += piece(letter);
    else if (ghost) inner += `<g class="ghost">${piece(ghost)}</g>`;
    inner += '<circle class="tg" cx="0.5" cy="0.5" r="0.12"/>';
    inner += '<rect class="focus-ring" x="0.05" y="0.05" width="0.9" height="0.9" rx="0.08"/>';
    const label = `${sq}, liseré ${lines}${letter ? `, ${NAMES[letter]}` : ghost ? `, ${NAMES[ghost]} (planned)` : ''}`;
    body += cellGroup({ id: sq, x, y, view: cellView, label, inner, occupied: Boolean(letter) });
  }
  for (let i = 0; i < 6; i += 1) {
    const col = view.flipped ? 5 - i : i;
    const row = view.flipped ? i + 1 : 6 - i;
    body += `<text class="coord" x="${i + 0.5}" y="6.3">${COLUMNS[col]}</text>`;
    body += `<text class="coord" x="-0.3" y="${i + 0.5}">${row}</text>`;
  }
  return { viewBox: '-0.55 -0.2 6.75 6.75', body, title: 'Escampe board' };
}

/**
 * The side whose pieces sit at the bottom of the drawing; before Black has
 * placed, the player's own (`seat`), White for a spectator.
 */
export function bottomSide(model, flipped, seat) {
  const black = rowsOf(model, 'black');
  const blackLow = black.length ? black.reduce((a, b) => a + b, 0) / black.length < 3.5 : seat === 'black';
  return blackLow !== flipped ? 'black' : 'white';
}

/**
 * Placing pieces before play, as the room page drives it for any board that
 * exports `placement`: how many squares, which ones may be clicked, what each
 * clicked square shows, the words, and layouts to suggest.
 */
export const placement = {
  count: 6,
  active(model, side, state) {
    return state.legal_moves === null && placing(model, side);
  },
  allowed(model, side, chosen) {
    const rows = placementRows(model, side, chosen[0]);
    return new Set(squares().filter((sq) => rows.includes(Number(sq.slice(1))) && !model.board.has(sq)));
  },
  ghost(side, index) {
    if (side === 'black') return index === 0 ? 'N' : 'n';
    return index === 0 ? 'B' : 'b';
  },
  hint(chosen) {
    if (!chosen.length) return 'Click six squares: your unicorn first, then five paladins';
    if (chosen.length < 6) return `${6 - chosen.length} more square${chosen.length === 5 ? '' : 's'} to place`;
    return 'All six placed: confirm with Place';
  },
  suggestions,
};

/** The move that passes, shown as a "Pass" button. */
export const passMove = 'E';

/** The analysis board's set-up editor: what a click puts on a square, and the text. */
export const editor = {
  cycle(model, cell) {
    const order = [undefined, 'b', 'B', 'n', 'N'];
    const next = order[(order.indexOf(model.board.get(cell)) + 1) % order.length];
    if (next) model.board.set(cell, next);
    else model.board.delete(cell);
  },
  format(model) {
    const rows = [];
    for (let row = 6; row >= 1; row -= 1) {
      let line = '';
      let empty = 0;
      for (const col of COLUMNS) {
        const piece = model.board.get(`${col}${row}`);
        if (!piece) { empty += 1; continue; }
        if (empty) line += String(empty);
        empty = 0;
        line += piece;
      }
      rows.push(line + (empty ? String(empty) : ''));
    }
    return `${rows.join('/')} ${model.side === 'black' ? 'b' : 'w'} ${model.constraint || '-'}`;
  },
};

/** Escampe has no material: 1.0 (100 of the engine's points) is a clear advantage. */
export const scoreUnit = null;
