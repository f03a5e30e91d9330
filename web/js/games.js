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
  return BOARDS[game] || null;
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
