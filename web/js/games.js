// What the page knows about each game: its board module (drawing and move
// entry), and from the server's catalogue (`GET /api/games`) everything else —
// how its sides are called and which starts. Adding a game means adding its
// board module here; nothing else in the page names games.

import { api } from './api.js';
import * as escampe from './boards/escampe.js';
import * as draughts from './boards/draughts.js';
import * as abalone from './boards/abalone.js';
import * as ataxx from './boards/ataxx.js';
import { SequencePicker } from './picker.js';

const BOARDS = { escampe, draughts, abalone, virus: ataxx, ataxx };

export function boardFor(game) {
  return Object.hasOwn(BOARDS, game) ? BOARDS[game] : null;
}

/** The move picker of a position. */
export function pickerFor(board, model, legal) {
  if (board.AbalonePicker) return new board.AbalonePicker(model, legal);
  return new SequencePicker(board.entries(model, legal));
}

let catalogue = null;
let loading = null;

/** The server's catalogue of games and levels, fetched once. */
export function loadCatalogue() {
  if (!loading) {
    loading = api.games().then((value) => { catalogue = value; return value; });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

function info(game) {
  return catalogue ? catalogue.games.find((g) => g.name === game) : null;
}

export function sideName(game, side) {
  const known = info(game);
  if (known && known.sides && known.sides[side]) return known.sides[side].name;
  return side === 'white' ? 'White' : 'Black';
}

/** Colour choices on the home page: a side with something to say first. */
export function colourChoices(game) {
  const known = info(game);
  const choice = (side) => {
    const about = known && known.sides ? known.sides[side] : null;
    const name = sideName(game, side);
    return [side, about && about.note ? `${name} · ${about.note}` : name];
  };
  const blackFirst = Boolean(known && known.sides && known.sides.black.note && !known.sides.white.note);
  return blackFirst ? [choice('black'), choice('white')] : [choice('white'), choice('black')];
}

/** Words for a pass button. */
export function passLabel(move) {
  return Object.values(BOARDS).some((board) => board.passMove === move) ? 'Pass' : move;
}

/**
 * An engine score in the game's own units, from White's side: "+1.4 men
 * (White is better)", "Black wins in 5" when proven. `score` is the engine's
 * ({value, ends_in}) for `toMove`; a unit is 100 of its points in every game
 * (a man, a stone, a marble; in Escampe, a clear advantage).
 */
export function describeScore(game, score, toMove) {
  if (!score) return '';
  const mover = toMove === 'black' ? 'black' : 'white';
  const board = boardFor(game);
  if (score.ends_in !== null && score.ends_in !== undefined) {
    const winner = score.value > 0 ? mover : (mover === 'white' ? 'black' : 'white');
    const moves = Math.max(1, Math.ceil(Math.abs(score.ends_in) / 2));
    return `${sideName(game, winner)} wins in ${moves} move${moves === 1 ? '' : 's'}`;
  }
  const white = (mover === 'white' ? score.value : -score.value) / 100;
  const unit = board && board.scoreUnit;
  const size = Math.abs(white);
  const amount = `${white >= 0 ? '+' : '−'}${size.toFixed(size >= 10 ? 0 : 1)}`;
  const named = unit ? ` ${size.toFixed(1) === '1.0' ? unit[0] : unit[1]}` : '';
  if (size < 0.2) return `${amount}${named} (about equal)`;
  const better = sideName(game, white > 0 ? 'white' : 'black');
  const how = size < 0.7 ? 'is slightly better' : size < 2 ? 'is better' : 'is winning';
  return `${amount}${named} (${better} ${how})`;
}

/**
 * A line of moves numbered like the move list: `ply` moves were played
 * before its first (move numbers count pairs of moves from the start).
 */
/** Who moves first from each game's start (Escampe: once placed). */
const FIRST_TO_MOVE = { escampe: 'white', draughts: 'white', abalone: 'black', virus: 'black', ataxx: 'black' };

/**
 * The ply a position's own move stands at in numbering: 1 when `side`, to
 * move there, is the game's second mover (its move is a numbered move's
 * second half, `1… move`), else 0.
 */
export function plyOffset(game, side) {
  const first = Object.hasOwn(FIRST_TO_MOVE, game) ? FIRST_TO_MOVE[game] : null;
  return first && side && side !== first ? 1 : 0;
}

export function numberedLine(moves, ply) {
  return moves.map((move, i) => {
    const at = ply + i;
    if (at % 2 === 0) return `${at / 2 + 1}. ${move}`;
    return i === 0 ? `${Math.floor(at / 2) + 1}… ${move}` : move;
  }).join(' ');
}
