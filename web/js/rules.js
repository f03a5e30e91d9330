// The rules of each game (`/rules/GAME`), short and illustrated with the
// game's own board drawing, in the words of docs/rules/ (which has every
// detail, for programmers).

import { h } from './dom.js';
import { boardFor } from './games.js';

/** Each game: its title, a position to draw, what the picture shows, and the rules. */
const RULES = {
  escampe: {
    title: 'Escampe',
    picture: ['n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2', 'White to move; Black’s last move arrived on a double liseré, so White must move a piece standing on a double liseré. F6-E5 wins by force.'],
    sections: [
      ['The board', ['A 6x6 board. Every square has a border of one, two or three lines: its liseré. The liserés are drawn in the squares’ corners.']],
      ['The pieces', ['Each side has a unicorn and five paladins. White’s are light, Black’s dark; the unicorn is the larger piece.']],
      ['Placing', [
        'Black places first: six pieces on the two rows of one edge (the unicorn first, then the paladins).',
        'White then places on the two rows of the opposite edge, and makes the first move.',
      ]],
      ['Moving', [
        'A piece moves exactly as many orthogonal steps as the liseré of the square it starts from: 1, 2 or 3. The path may turn, but may not cross an occupied square or visit a square twice.',
        'The liseré rule: you must move a piece standing on the same liseré as the square where your opponent’s last move arrived. White’s first move is free.',
        'A player who cannot move passes (E); the opponent then moves freely.',
      ]],
      ['Winning', ['A paladin that lands on the enemy unicorn captures it, and wins the game. A unicorn never captures, and paladins are never taken.']],
      ['Notation', ['Moves are written from-to: B1-D1. A placement lists six squares, unicorn first: C6/A6/B5/D5/E6/F5.']],
    ],
  },
  draughts: {
    title: 'International draughts',
    picture: ['W:W31-50:B1-20', 'The start: White’s men on 31-50, Black’s on 1-20. White moves first.'],
    sections: [
      ['The board', ['A 10x10 board; only the 50 dark squares are used, numbered 1 to 50 from Black’s side.']],
      ['Moving', [
        'A man moves one square diagonally forward. A man that ends its move on the far row becomes a king.',
        'A king flies: any distance along a diagonal over empty squares.',
      ]],
      ['Capturing', [
        'Capturing is compulsory, and you must take the most pieces possible (men and kings count the same).',
        'A man captures forward and backward by jumping an adjacent enemy piece. A king captures at a distance and may land on any empty square behind the piece it takes.',
        'Captures chain: the pieces taken are removed only at the end of the move, and no piece can be jumped twice.',
      ]],
      ['The end', [
        'A player who cannot move (no pieces, or all blocked) loses.',
        'Draws: threefold repetition; 25 moves each with only kings moving and nothing taken; and the short endgame limits of the FMJD rules.',
      ]],
      ['Notation', ['Moves are written 32-28; captures 28x19 (with every landing square when two captures would read the same). Results: 2-0, 1-1, 0-2.']],
    ],
  },
  abalone: {
    title: 'Abalone',
    picture: ['wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0', 'The standard start: 14 marbles each. Black moves first.'],
    sections: [
      ['The board', ['A hexagon of 61 cells. Rows are lettered A (Black’s side) to I, diagonals numbered 1 to 9.']],
      ['Moving', [
        'A move shifts one, two or three of your marbles in a straight line by one cell, in one of six directions.',
        'Along the line (inline), the group may push enemy marbles it outnumbers: three push two or one, two push one (sumito). The pushed line needs an empty cell, or the edge, behind it.',
        'Sideways (broadside), every cell the group moves to must be empty; a broadside never pushes.',
      ]],
      ['Winning', ['A marble pushed off the board is out. The first player to push out six enemy marbles wins. Threefold repetition is a draw. Games on this site end at a move limit (100 moves each unless the room chose otherwise): then whoever has pushed off more marbles wins, and as many each is a draw.']],
      ['Notation', ['Inline: the trailing marble’s cell and where it goes, a1b2. Broadside: the group’s two end cells and where the first goes, c6c7d6.']],
    ],
  },
  virus: {
    title: 'The virus game',
    picture: ['x5o/7/7/7/7/7/o5x x', 'The start on 7x7: two stones each in opposite corners. Black moves first.'],
    sections: [
      ['The board', ['A square board (4x4 to 9x9; 7x7 usually). Files a.. from the left, ranks 1.. from the bottom.']],
      ['Moving', ['A move drops a new stone on an empty cell next to one of yours (in any of the 8 directions). Every enemy stone next to that cell turns to your colour.']],
      ['The end', ['The game ends when the side to move cannot drop a stone; every empty cell left then counts for the other side. The most stones wins; equal counts draw.']],
      ['Notation', ['A move is the cell it fills: b6.']],
    ],
  },
  ataxx: {
    title: 'Ataxx',
    picture: ['x5o/7/7/7/7/7/o5x x 0 1', 'The start: two stones each in opposite corners. Black moves first.'],
    sections: [
      ['The board', ['7x7 cells; some openings block cells, which can never be entered.']],
      ['Moving', [
        'Clone: put a new stone on an empty cell next to one of yours.',
        'Jump: move one of your stones to an empty cell exactly two cells away; it leaves its cell.',
        'Either way, every enemy stone next to the arrival cell turns to your colour.',
        'A player with no move passes.',
      ]],
      ['The end', ['The game ends when a side has no stones, or no empty cell is within reach of any stone: the most stones wins. 100 moves without a clone, or threefold repetition, is a draw.']],
      ['Notation', ['A clone is the cell it fills, b6; a jump is its two cells, g1e3; a pass is 0000.']],
    ],
  },
};

/** The games that have a rules page, in the home page's order. */
export const RULE_GAMES = Object.keys(RULES);

export function rulesView(root, { game }) {
  // Own keys only: /rules/constructor is no game.
  const rules = Object.hasOwn(RULES, game) ? RULES[game] : null;
  if (!rules) {
    root.replaceChildren(h('section', { class: 'card rules-index' },
      h('h1', {}, 'Rules'),
      game ? h('p', { class: 'error' }, `There is no game “${String(game).slice(0, 30)}”.`) : '',
      h('ul', {}, RULE_GAMES.map((name) => h('li', {}, h('a', { href: `/rules/${name}`, 'data-link': true }, RULES[name].title))))));
    return { destroy() {} };
  }
  const figure = h('figure', { class: 'rules-figure' });
  const board = boardFor(game);
  if (board) {
    const model = board.parse(rules.picture[0]);
    const view = { playable: new Set(), selected: new Set(), targets: new Map(), hasSelection: false, ghosts: null, pickable: null, last: new Set(), taken: new Set(), interactive: false, flipped: false, showImposed: true, numbers: true };
    const drawn = board.draw(model, view);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'board');
    svg.setAttribute('viewBox', drawn.viewBox);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', drawn.title);
    svg.innerHTML = drawn.body;
    figure.append(h('div', { class: 'board-wrap' }, svg), h('figcaption', { class: 'meta' }, rules.picture[1]));
  }
  root.replaceChildren(h('article', { class: 'card rules', 'data-game': game },
    h('h1', {}, `${rules.title}: the rules`),
    figure,
    ...rules.sections.flatMap(([title, paragraphs]) => [h('h2', {}, title), ...paragraphs.map((text) => h('p', {}, text))]),
    h('p', { class: 'actions' },
      h('a', { class: 'btn primary', href: `/?game=${game}`, 'data-link': true }, `Play ${rules.title}`),
      h('a', { class: 'btn', href: '/rules', 'data-link': true }, 'Other games'))));
  return { destroy() {} };
}
