// The analysis board: any position (from a game's replay, a typed position
// text, or moves played on the board), analysed live by the engine in this
// browser: evaluation, depth, principal variation, an evaluation bar and
// the best move as an arrow. Works without the server once the page is loaded.

import { h } from './dom.js';
import { LocalEngine, EngineStopped } from './engine.js';
import { boardFor, pickerFor, describeScore, numberedLine, plyOffset } from './games.js';
import { MAX_LISTED_MOVES } from './local.js';

/** How long one analysis runs before it settles (it can be restarted). */
const ANALYSIS_MS = 120000;
/** The evaluation bar's scale: this many points is three quarters of the bar. */
const BAR_SCALE = 400;

export function analysisView(root, { navigate, query }) {
  const engine = new LocalEngine();
  let catalogue = null;
  let game = query.get('game');
  let variant = query.get('variant') || null;
  let start = query.get('position') || null;
  let moves = [];
  let info = null; // the engine's state answer for the shown position
  let line = null; // the latest search iteration
  let running = false;
  let flipped = false;
  let board = null;
  let model = null;
  let picker = null;
  let destroyed = false;
  let problem = '';
  // The set-up editor: the position being built (a board model), or null.
  let draft = null;
  // A move or a position being checked by the engine: further input waits.
  let checking = false;

  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  svg.setAttribute('role', 'group');
  const barFill = h('div', { class: 'eval-fill' });
  const bar = h('div', { class: 'eval-bar', role: 'meter', 'aria-label': 'Evaluation for White', 'aria-valuemin': '0', 'aria-valuemax': '100' }, barFill);
  const gameSelect = h('select', { 'aria-label': 'Game', onchange: () => { game = gameSelect.value; variant = null; start = null; moves = []; fillVariants(); load(); } });
  const variantSelect = h('select', { 'aria-label': 'Variant', onchange: () => { variant = variantSelect.value || null; start = null; moves = []; load(); } });
  /** A typed position: shown only once the rules accept it. */
  const setPosition = async (text) => {
    if (checking) return;
    const wasRunning = running;
    checking = true;
    engine.stop();
    try {
      await engine.request({ op: 'state', ...request({ start: text || null, moves: [] }) });
    } catch (err) {
      checking = false;
      if (err instanceof EngineStopped) return;
      problem = err.message;
      running = false;
      if (wasRunning) analyse();
      else render();
      return;
    }
    checking = false;
    start = text || null;
    moves = [];
    load();
  };
  const positionInput = h('input', { type: 'text', maxlength: '400', spellcheck: 'false', autocomplete: 'off', 'aria-label': 'Position text' });
  const positionForm = h('form', { class: 'typed', onsubmit: (e) => { e.preventDefault(); setPosition(positionInput.value.trim()); } },
    positionInput, h('button', { class: 'btn', type: 'submit', 'data-action': 'set-position' }, 'Set position'));
  const moveInput = h('input', { type: 'text', maxlength: '200', spellcheck: 'false', autocomplete: 'off', 'aria-label': 'Move in notation' });
  const moveForm = h('form', { class: 'typed', onsubmit: (e) => { e.preventDefault(); const text = moveInput.value.trim(); if (text) play(text); } },
    moveInput, h('button', { class: 'btn', type: 'submit' }, 'Play'));
  const figures = h('dl', { class: 'analysis-figures' });
  const pvLine = h('p', { class: 'pv', 'aria-live': 'off' });
  const hint = h('p', { class: 'hint', 'aria-live': 'polite' });
  const controls = h('div', { class: 'actions' });
  const section = h('section', { class: 'analysis game', 'data-depth': '0' },
    h('div', { class: 'board-area' },
      h('div', { class: 'analysis-board' }, bar, h('div', { class: 'board-wrap' }, svg)),
      hint),
    h('aside', { class: 'panel', 'aria-label': 'Analysis' },
      h('h1', {}, 'Analysis board'),
      h('p', { class: 'meta local-note', 'data-local': 'true' }, 'The engine runs in this browser.'),
      h('div', { class: 'choices' }, gameSelect, variantSelect),
      positionForm,
      figures,
      pvLine,
      controls,
      h('details', {}, h('summary', {}, 'Type a move'), moveForm)));
  root.replaceChildren(section);

  svg.addEventListener('click', (event) => {
    const cell = event.target.closest && event.target.closest('.cell');
    if (cell && draft) {
      board.editor.cycle(draft, cell.dataset.cell);
      render();
      return;
    }
    if (!cell || !picker) return;
    const result = picker.click(cell.dataset.cell);
    if (result.move) play(result.move);
    else if (result.changed) render();
  });

  function fillGames() {
    gameSelect.replaceChildren(...catalogue.games.map((g) => h('option', { value: g.name, selected: g.name === game }, g.title)));
    fillVariants();
  }

  function fillVariants() {
    const known = catalogue && catalogue.games.find((g) => g.name === game);
    const list = known ? known.variants : [];
    variantSelect.hidden = !list.length;
    variantSelect.replaceChildren(...list.map((v) => h('option', { value: v, selected: v === variant }, v)));
  }

  function request(extra) {
    return { game, variant, start, moves, ...extra };
  }

  async function load() {
    engine.stop();
    problem = '';
    line = null;
    try {
      info = await engine.request({ op: 'state', ...request() });
    } catch (err) {
      if (err instanceof EngineStopped) return;
      problem = err.message;
      if (!info || info.game.split('/')[0] !== game) {
        // A bad position text: back to the game's start.
        start = null;
        moves = [];
        try { info = await engine.request({ op: 'state', ...request() }); } catch (_) { info = null; }
      }
    }
    if (destroyed || !info) {
      render();
      return;
    }
    const address = new URLSearchParams({ game, position: info.position });
    if (variant) address.set('variant', variant);
    history.replaceState(null, '', `/analysis?${address}`);
    positionInput.value = info.position;
    board = boardFor(game);
    model = board ? board.parse(info.position) : null;
    const listed = info.legal_moves.length <= MAX_LISTED_MOVES;
    // Moves too many to list (an Escampe placement) are typed.
    picker = board && !info.outcome && info.legal_moves.length && listed ? pickerFor(board, model, info.legal_moves) : null;
    render();
    analyse();
  }

  async function play(move) {
    if (checking) return;
    checking = true;
    const next = [...moves, move];
    try {
      engine.stop();
      await engine.request({ op: 'state', ...request({ moves: next }) });
      moveInput.value = '';
    } catch (err) {
      checking = false;
      if (err instanceof EngineStopped) return;
      problem = err.message.replace(/^move \d+ /, 'move ');
      render();
      return;
    }
    checking = false;
    moves = next;
    load();
  }

  /** Escampe before both sides have placed: the engine's search starts after. */
  function placementStage() {
    // `active` reads "no listed moves" as placing; the engine lists them all.
    return Boolean(info && !info.outcome && board && board.placement && model
      && board.placement.active(model, info.side_to_move, { legal_moves: null }));
  }

  async function analyse() {
    if (!info || info.outcome || placementStage()) {
      running = false;
      render();
      return;
    }
    running = true;
    render();
    try {
      const answer = await engine.request({ op: 'think', ...request(), level: 'master', analysis: true, movetime_ms: ANALYSIS_MS, table_mb: 32, id: 'analysis' }, (report) => {
        if (destroyed || !report || !report.info) return;
        line = report.info;
        render();
      });
      // A single legal move is answered without a search: show it all the same.
      if (!line) line = { depth: answer.depth, seldepth: answer.depth, score: answer.score, nodes: answer.nodes, nps: 0, pv: answer.pv, side_to_move: answer.side_to_move };
    } catch (err) {
      if (!(err instanceof EngineStopped)) problem = err.message;
    }
    if (destroyed) return;
    running = false;
    render();
  }

  function edit() {
    engine.stop();
    running = false;
    line = null;
    draft = board.parse(info.position);
    render();
  }

  function finishEditing() {
    const text = board.editor.format(draft);
    draft = null;
    positionInput.value = text;
    setPosition(text);
  }

  function stop() {
    engine.stop();
    running = false;
    render();
  }

  function undo() {
    if (!moves.length) return;
    moves = moves.slice(0, -1);
    load();
  }

  /** The score for White, in points (a win is ±infinity). */
  function whiteScore() {
    if (!line) return 0;
    const sign = line.side_to_move === 'white' ? 1 : -1;
    if (line.score.ends_in !== null && line.score.ends_in !== undefined) {
      return sign * (line.score.value > 0 ? Infinity : -Infinity);
    }
    return sign * line.score.value;
  }

  // Numbering from the set position: the second mover's move is `1… move`.
  function secondMoverOffset() {
    if (!info || !info.side_to_move) return 0;
    const other = info.side_to_move === 'white' ? 'black' : 'white';
    return plyOffset(game, moves.length % 2 === 0 ? info.side_to_move : other);
  }

  function render() {
    if (destroyed) return;
    section.dataset.depth = String(line ? line.depth : 0);
    section.dataset.pv = line ? line.pv.join(' ') : '';
    section.dataset.running = String(running);
    section.dataset.game = game;
    renderBoard();
    const white = whiteScore();
    const share = Number.isFinite(white) ? 50 + 50 * Math.tanh(white / BAR_SCALE) : (white > 0 ? 100 : 0);
    barFill.style.height = `${share.toFixed(1)}%`;
    bar.setAttribute('aria-valuenow', share.toFixed(0));
    bar.classList.toggle('flipped', flipped);
    section.dataset.eval = line ? String(Number.isFinite(white) ? white : (white > 0 ? 'win' : 'loss')) : '';
    const item = (term, value, key) => [h('dt', {}, term), h('dd', { 'data-figure': key }, value)];
    const toMove = info ? info.side_to_move : '';
    const placing = placementStage();
    figures.replaceChildren(
      ...item('To move', info ? (info.outcome ? `game over: ${info.outcome.winner ? `${info.outcome.winner} won` : 'draw'} (${info.outcome.reason})` : toMove) : '…', 'to-move'),
      ...item('Evaluation', placing ? 'from the first move' : line ? describeScore(game, line.score, line.side_to_move) : '…', 'score'),
      ...item('Depth', line ? `${line.depth}/${line.seldepth}` : '…', 'depth'),
      ...item('Nodes', line ? `${line.nodes.toLocaleString('en')} (${Math.round(line.nps / 1000).toLocaleString('en')} kN/s)` : '…', 'nodes'));
    pvLine.replaceChildren(h('span', { class: 'tag' }, 'Best line: '), placing ? '—' : line ? numberedLine(line.pv, moves.length + secondMoverOffset()) : '…');
    if (draft) {
      const name = (side) => (catalogue && catalogue.games.find((g) => g.name === game)?.sides[side]) || side;
      controls.replaceChildren(
        h('button', { class: 'btn', type: 'button', 'data-action': 'side-to-move', onclick: () => { draft.side = draft.side === 'white' ? 'black' : 'white'; render(); } }, `${name(draft.side)} to move`),
        h('button', { class: 'btn', type: 'button', 'data-action': 'clear-board', onclick: () => { draft.board.clear(); render(); } }, 'Clear the board'),
        h('button', { class: 'btn primary', type: 'button', 'data-action': 'done-editing', onclick: finishEditing }, 'Done'),
        h('button', { class: 'btn', type: 'button', 'data-action': 'cancel-editing', onclick: () => { draft = null; analyse(); } }, 'Cancel'));
      hint.textContent = problem || 'Set up: click a square to change what stands on it (empty, then each piece in turn).';
      hint.classList.toggle('bad', Boolean(problem));
      return;
    }
    controls.replaceChildren(
      running
        ? h('button', { class: 'btn', type: 'button', 'data-action': 'stop', onclick: stop }, 'Stop')
        : h('button', { class: 'btn primary', type: 'button', 'data-action': 'analyse', disabled: !info || Boolean(info.outcome), onclick: analyse }, 'Analyse'),
      h('button', { class: 'btn', type: 'button', 'data-action': 'undo', disabled: !moves.length, onclick: undo }, 'Take back'),
      board && board.editor ? h('button', { class: 'btn', type: 'button', 'data-action': 'set-up', disabled: !info, onclick: edit }, 'Set up') : '',
      h('button', { class: 'btn', type: 'button', 'data-action': 'flip', onclick: () => { flipped = !flipped; render(); } }, 'Flip board'),
      info ? h('a', { class: 'btn', 'data-link': true, href: '/', 'data-action': 'home' }, 'New game') : '');
    hint.textContent = problem || (placing
      ? 'The engine analyses from the first move: place both sides’ pieces first (type a placement, as C6/A6/B5/D5/E6/F5, or play one on the board).'
      : moves.length ? `Moves from the set position: ${numberedLine(moves, secondMoverOffset())}` : 'Play moves on the board to explore; the engine follows.');
    hint.classList.toggle('bad', Boolean(problem));
  }

  /** The board markup last put in the SVG. */
  let drawnBody = null;

  function renderBoard() {
    if (!board || !model) {
      svg.replaceChildren();
      drawnBody = null;
      return;
    }
    const empty = { playable: new Set(), selected: new Set(), targets: new Map(), hasSelection: false };
    const editing = Boolean(draft);
    const view = { ...empty, ...(picker && !editing ? picker.view() : {}), ghosts: null, pickable: null, last: new Set(), taken: new Set(), interactive: Boolean(picker) && !editing, flipped, showImposed: !editing };
    const drawn = board.draw(draft || model, view);
    svg.setAttribute('viewBox', drawn.viewBox);
    const [, , width, height] = drawn.viewBox.split(/\s+/).map(Number);
    if (width > 0 && height > 0) svg.parentElement.style.aspectRatio = `${width} / ${height}`;
    svg.setAttribute('aria-label', drawn.title);
    // The cells are redrawn only when they change: an engine report arrives
    // many times a second, and a cell replaced between a press and its
    // release would swallow the click.
    if (drawn.body !== drawnBody) {
      svg.innerHTML = drawn.body;
      drawnBody = drawn.body;
    }
    for (const old of svg.querySelectorAll('.arrows')) old.remove();
    section.dataset.editing = String(editing);
    if (!editing) drawArrow();
  }

  /**
   * The best move as an arrow from the first cell it names to the last (a
   * ring on a one-cell move, an Ataxx clone), and the expected reply as a
   * fainter one.
   */
  function drawArrow() {
    if (!line || !board || !board.lastCells || placementStage()) return;
    const ns = 'http://www.w3.org/2000/svg';
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const centre = (id) => {
      const el = svg.querySelector(`.cell[data-cell="${CSS.escape(id)}"]`);
      if (!el) return null;
      const box = el.getBoundingClientRect();
      if (!box.width) return null;
      return new DOMPoint(box.x + box.width / 2, box.y + box.height / 2).matrixTransform(matrix.inverse());
    };
    const [, , width] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
    const group = document.createElementNS(ns, 'g');
    group.setAttribute('class', 'arrows');
    svg.append(group);
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="arrow-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrow-head"/></marker>'
      + '<marker id="reply-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="reply-head"/></marker>';
    group.append(defs);
    const mark = (move, kind, head) => {
      if (!move) return;
      // The cells the move names, in order (not the board's whole highlight).
      const points = board.lastCells(move, null).map(centre).filter(Boolean);
      if (!points.length) return;
      const from = points[0];
      const to = points[points.length - 1];
      const shape = document.createElementNS(ns, points.length > 1 ? 'line' : 'circle');
      const attributes = points.length > 1
        ? { x1: from.x, y1: from.y, x2: to.x, y2: to.y, 'marker-end': `url(#${head})` }
        : { cx: from.x, cy: from.y, r: width / 25, fill: 'none' };
      for (const [key, value] of Object.entries({ class: kind, 'data-move': move, 'stroke-width': width / 60, ...attributes })) {
        shape.setAttribute(key, String(value));
      }
      group.append(shape);
    };
    mark(line.pv[1], 'reply-arrow', 'reply-head');
    mark(line.pv[0], 'best-arrow', 'arrow-head');
  }

  // The catalogue comes from the engine itself: the board works offline.
  engine.request({ op: 'games' }).then((answer) => {
    if (destroyed) return;
    catalogue = answer;
    if (!catalogue.games.some((g) => g.name === game)) game = catalogue.games[0].name;
    fillGames();
    load();
  }, (err) => {
    problem = err.message;
    render();
  });

  return {
    destroy() {
      destroyed = true;
      engine.close();
    },
  };
}
