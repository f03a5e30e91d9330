// What the page knows about each game beyond the API: its board, and how its
// sides are called.

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

export function sideName(game, side) {
  if (game === 'virus' || game === 'ataxx') return side === 'white' ? 'White (o)' : 'Black (x)';
  return side === 'white' ? 'White' : 'Black';
}

/** Colour choices on the home page, the side that starts first. */
export function colourChoices(game) {
  switch (game) {
    case 'escampe': return [['white', 'White (moves first)'], ['black', 'Black (places first)']];
    case 'draughts': return [['white', 'White (moves first)'], ['black', 'Black']];
    case 'virus':
    case 'ataxx': return [['black', 'Black x (moves first)'], ['white', 'White o']];
    default: return [['black', 'Black (moves first)'], ['white', 'White']];
  }
}

/** Words for a pass button. */
export function passLabel(move) {
  return move === 'E' || move === '0000' ? 'Pass' : move;
}
