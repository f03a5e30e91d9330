// Shared pieces of the SVG boards: a cell group with its state classes, its
// accessibility attributes and its highlight shapes.

import { esc } from '../dom.js';

/**
 * One cell: `<g class="cell ..." data-cell=id>` translated to (x, y), holding
 * `inner` (markup in cell units, origin at the cell's top-left or centre as the
 * board chooses). Interactive cells are focusable buttons with a label.
 */
export function cellGroup({ id, x, y, view, label, inner, occupied = false }) {
  const classes = ['cell'];
  const playable = view.playable.has(id);
  const target = view.targets.get(id);
  if (playable) classes.push('playable');
  if (view.selected.has(id)) classes.push('selected');
  if (target) classes.push('target', target);
  if (view.pickable && view.pickable.has(id)) classes.push('pickable');
  if (view.last.has(id)) classes.push('last');
  if (view.taken && view.taken.has(id)) classes.push('taken');
  if (view.imposed && view.imposed.has(id)) classes.push('imposed');
  if (occupied) classes.push('occupied');
  const active = view.interactive && (playable || target || view.selected.has(id) || (view.pickable && view.pickable.has(id)));
  let state = '';
  if (view.selected.has(id)) state = ', selected';
  else if (target) state = target === 'final' ? ', move here' : ', continue the capture here';
  else if (playable) state = ', can move';
  const a11y = active ? ` tabindex="0" role="button" aria-label="${esc(label + state)}"` : ` aria-label="${esc(label)}"`;
  return `<g class="${classes.join(' ')}" data-cell="${esc(id)}" transform="translate(${x.toFixed(3)} ${y.toFixed(3)})"${a11y}>${inner}</g>`;
}

/** A disc piece of `side` ('white' | 'black') centred at (cx, cy). */
export function disc(cx, cy, r, side, extra = '') {
  const shade = side === 'white' ? '#ffffff' : '#5a5e66';
  return `<circle class="piece-${side}" cx="${cx}" cy="${cy}" r="${r}"/>`
    + `<circle cx="${cx - r * 0.3}" cy="${cy - r * 0.3}" r="${r * 0.35}" fill="${shade}" opacity="${side === 'white' ? 0.8 : 0.35}"/>`
    + extra;
}

/** Maps a display position through a half-turn when the board is flipped. */
export function turn(flipped, x, y, width, height) {
  return flipped ? [width - x, height - y] : [x, y];
}
