// A room: the board, the players, the moves, and the controls. The server is
// the authority: the page shows its state, offers only its legal moves, and
// posts the one chosen; every change comes back over the event stream.

import { serverBackend } from './server.js';
import { h, toast, copyText } from './dom.js';
import { boardFor, pickerFor, sideName, passLabel, describeScore } from './games.js';
import * as store from './store.js';
import { evaluationGraph } from './graph.js';
import { soundOn, setSound, moveSound, lowTimeSound } from './sound.js';

const other = (side) => (side === 'white' ? 'black' : 'white');

/** A board view switch as this browser last left it (`fallback` the first time). */
function savedSwitch(key, fallback) {
  try {
    const value = localStorage.getItem(`plateau.view.${key}`);
    return value === null ? fallback : value === 'on';
  } catch (_) {
    return fallback;
  }
}

function saveSwitch(key, on) {
  try { localStorage.setItem(`plateau.view.${key}`, on ? 'on' : 'off'); } catch (_) { /* not remembered */ }
}

export function gameView(root, code, { navigate, backend = serverBackend(code) }) {
  const remembered = backend.local ? null : store.get(code);
  let tokens = { ...((backend.tokens || (remembered && remembered.tokens)) || {}) };
  let state = null;
  let board = null;
  let model = null;
  let picker = null;
  let userFlip = false;
  // The board's own view switches (draughts' square numbers), by key.
  const switches = {};
  let pending = false;
  let hint = { text: '', bad: false };
  let placement = [];
  // A placement the engine found losing by force: placed only when confirmed.
  let risky = null;
  let resignArmed = null;
  let connection = 'connecting';
  let stream = null;
  let destroyed = false;
  // Stepping through the game: the ply shown (null: the live position), its
  // model, and the positions the server replayed for this list of moves.
  let replayPly = null;
  let replayModel = null;
  let replayText = '';
  let positions = null;
  // The position before the last move, {moves, text} (the moves it is for):
  // boards draw a capture's path or a push from it.
  let before = null;
  // When the state's clock times were read (they are the server's "now").
  let clockAt = 0;

  // The layout is built once; renders only fill it, so nothing jumps.
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('role', 'group');
  svg.setAttribute('class', 'board');
  const playerTop = h('div', { class: 'player top' });
  const playerBottom = h('div', { class: 'player bottom' });
  const hintLine = h('p', { class: 'hint', 'aria-live': 'polite' });
  const placementBar = h('div', { class: 'placement', hidden: true });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const connectionLine = h('div', { class: 'connection', 'aria-live': 'polite' });
  const limitLine = h('p', { class: 'move-limit', hidden: true });
  const banner = h('div', { class: 'banner', role: 'status', hidden: true });
  const offerLine = h('div', { class: 'offer', 'aria-live': 'polite', hidden: true });
  const logList = h('ul', { class: 'log', 'aria-label': 'Room history', hidden: true });
  const actions = h('div', { class: 'actions' });
  const share = h('div', { class: 'share' });
  const moveList = h('ol', { class: 'moves', 'aria-label': 'Moves played' });
  const movesBox = h('div', { class: 'moves-box', tabindex: '0', 'aria-label': 'Move list' }, moveList);
  moveList.addEventListener('click', (event) => {
    const ply = event.target.closest && event.target.closest('[data-ply]');
    if (ply) showPly(+ply.dataset.ply);
  });
  const replayBar = h('div', { class: 'replay', hidden: true });
  const graph = evaluationGraph({ onPick: (ply) => showPly(ply) });
  const typedInput = h('input', { type: 'text', maxlength: '200', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Move in notation' });
  const typedForm = h('form', { class: 'typed', onsubmit: (e) => { e.preventDefault(); const text = typedInput.value.trim(); if (text && canAct()) submit(text); } },
    typedInput, h('button', { class: 'btn', type: 'submit' }, 'Play'));
  const section = h('section', { class: 'game', 'data-code': code },
    h('div', { class: 'board-area' },
      playerTop,
      h('div', { class: 'board-wrap' }, svg),
      playerBottom,
      hintLine,
      placementBar),
    h('aside', { class: 'panel', 'aria-label': 'Game' },
      h('h1', { class: 'visually-hidden' }, `Room ${code}`),
      status,
      connectionLine,
      limitLine,
      banner,
      offerLine,
      actions,
      share,
      movesBox,
      replayBar,
      graph.box,
      logList,
      h('details', {}, h('summary', {}, 'Type a move'), typedForm)));
  root.replaceChildren(section);
  status.append(h('span', { class: 'spinner on', 'aria-hidden': 'true' }), h('span', {}, 'Loading…'));

  svg.addEventListener('click', (event) => {
    const cell = event.target.closest && event.target.closest('.cell');
    if (cell) onCell(cell.dataset.cell);
  });
  svg.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const cell = event.target.closest && event.target.closest('.cell');
    if (cell) {
      event.preventDefault();
      onCell(cell.dataset.cell);
    }
  });
  const onVisible = () => { if (document.visibilityState === 'visible' && stream) stream.reconnect(); };
  document.addEventListener('visibilitychange', onVisible);
  // Arrow keys step through the moves, Home goes to the start, End back to the game.
  const onKey = (event) => {
    if (!state || !state.moves.length || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.closest('input, textarea, select') || target.isContentEditable)) return;
    const shown = replayPly === null ? state.moves.length : replayPly;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: state.moves.length }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    showPly(Math.max(0, Math.min(to, state.moves.length)));
  };
  document.addEventListener('keydown', onKey);

  // ---- state -------------------------------------------------------------

  const seated = () => Object.keys(tokens).filter((s) => tokens[s]);
  const mine = (side) => Boolean(tokens[side]);
  const bothHere = () => mine('white') && mine('black');

  function canAct() {
    return Boolean(state) && state.status === 'playing' && !pending && replayPly === null && mine(state.side_to_move);
  }

  /** Shows the position after `ply` moves; the last ply is the live game. */
  async function showPly(ply) {
    if (!state || !board) return;
    if (ply >= state.moves.length) {
      replayPly = null;
      replayModel = null;
      render();
      return;
    }
    try {
      if (!positions || positions.length !== state.moves.length + 1) {
        const answer = await backend.positions();
        positions = answer.positions;
      }
      if (ply >= positions.length - 1) {
        replayPly = null;
        replayModel = null;
      } else {
        replayPly = Math.max(0, ply);
        replayText = positions[replayPly];
        replayModel = board.parse(replayText);
      }
    } catch (err) {
      setHint(err.message, true);
    }
    render();
  }

  /** The in-browser computer's best move so far (what "Move now" plays), or ''. */
  function aiBest() {
    const seen = state && state.ai && state.ai.info;
    return seen && seen.pv.length ? seen.pv[0] : '';
  }

  function thinking() {
    return Boolean(state && state.status === 'playing' && state.ai && state.side_to_move === state.ai.seat);
  }

  function placingNow() {
    return Boolean(state && state.status === 'playing' && model && board && board.placement
      && board.placement.active(model, state.side_to_move, state));
  }

  function accept(next) {
    if (!next || typeof next.version !== 'number') return;
    if (state && next.version < state.version) return;
    if (state && next.version === state.version && backend.local) {
      // The local engine's progress: the same position, new search figures.
      state = next;
      section.dataset.aiBest = aiBest();
      renderStatus();
      renderActions();
      return;
    }
    const moved = !state || next.version !== state.version || next.position !== state.position;
    const prior = state;
    noteAnswer(prior, next);
    state = next;
    clockAt = performance.now();
    if (stream) stream.seen(state.version);
    if (moved) {
      positions = null;
      keepBefore(prior);
      if (replayPly !== null) showPly(replayPly);
      const priorModel = prior && prior.game === state.game ? model : null;
      board = boardFor(state.game);
      model = board ? board.parse(state.position) : null;
      if (prior && state.moves.length === prior.moves.length + 1) moveSound(priorModel, model, prior.side_to_move);
      for (const toggle of (board && board.toggles) || []) {
        if (!(toggle.key in switches)) switches[toggle.key] = savedSwitch(toggle.key, Boolean(toggle.on));
      }
      picker = board && Array.isArray(state.legal_moves) && state.status === 'playing' ? pickerFor(board, model, state.legal_moves) : null;
      placement = [];
      risky = null;
      if (!pending) hint = { text: '', bad: false };
      remember();
    }
    render();
    sayShown();
  }

  // Against the AI, the person's first clock waits until the board is shown.
  let shownSent = null;
  function sayShown() {
    if (!backend.ready || !state || state.status !== 'playing' || !state.ai || !state.clock) return;
    if (state.clock.running || !mine(state.side_to_move) || shownSent === state.version) return;
    shownSent = state.version;
    // After the frame that draws the board.
    requestAnimationFrame(() => {
      if (destroyed) return;
      backend.ready(tokens[state.side_to_move]).then(accept, () => { shownSent = null; });
    });
  }

  /** Keeps the position before the last move: the previous state's, else the server's replay. */
  function keepBefore(prior) {
    const key = state.moves.join(' ');
    if (prior && prior.moves.join(' ') === state.moves.slice(0, -1).join(' ') && state.moves.length) {
      before = { moves: key, text: prior.position };
    } else if (state.moves.length && (!before || before.moves !== key)) {
      before = null;
      backend.positions().then((answer) => {
        if (destroyed || !state || answer.moves.join(' ') !== state.moves.join(' ')) return;
        before = { moves: answer.moves.join(' '), text: answer.positions[answer.positions.length - 2] };
        render();
      }, () => {}); // without it the highlight shows the cells the move names
    }
  }

  /** The last-move highlight of move `ply` (1-based): its cells, and the pieces it took. */
  function lastMarks(ply) {
    const move = state.moves[ply - 1];
    if (!move || !board) return { last: new Set(), taken: new Set() };
    let text = null;
    if (positions && positions.length === state.moves.length + 1) text = positions[ply - 1];
    else if (before && ply === state.moves.length && before.moves === state.moves.join(' ')) text = before.text;
    const prev = text ? board.parse(text) : null;
    return {
      last: new Set(board.lastCells(move, prev)),
      taken: new Set(board.takenCells ? board.takenCells(move, prev) : []),
    };
  }

  function remember() {
    if (backend.local || !seated().length) return;
    store.remember({
      code,
      game: state.game,
      variant: state.variant,
      title: state.title,
      tokens,
      status: state.status,
      result: state.result,
      opponent: bothHere() ? 'local' : state.ai ? 'ai' : 'friend',
      level: state.ai ? state.ai.level : undefined,
    });
  }

  async function refresh() {
    try {
      accept(await backend.state());
    } catch (err) {
      setHint(err.message, true);
    }
  }

  function connect() {
    if (stream) stream.close();
    const token = tokens[seated()[0]];
    stream = backend.openStream({
      token,
      lastId: state ? state.version : null,
      onEvent: (kind, data) => {
        if (destroyed) return;
        if (kind === 'state' || kind === 'presence') accept(data);
      },
      // The in-browser engine's own failures (a local game).
      onError: (err) => {
        if (!destroyed) setHint(err.message, true);
      },
      onConnection: (value) => {
        if (destroyed) return;
        connection = value;
        if (value === 'gone') {
          store.forget(code);
          if (!state) {
            showMissing();
            return;
          }
        }
        renderConnection();
      },
    });
  }

  /** Nothing of a room to show: no board, no moves, no move form. */
  function showMissing() {
    root.replaceChildren(h('section', { class: 'card notice', 'data-missing': code },
      h('h1', {}, `There is no room ${code}`),
      h('p', {}, 'It may have expired, or the code may be mistyped.'),
      h('p', {}, h('a', { class: 'btn primary', href: '/', 'data-link': true }, 'New game'))));
  }

  // ---- actions -----------------------------------------------------------

  function setHint(text, bad = false) {
    hint = { text, bad };
    renderHint();
  }

  async function submit(move) {
    if (!canAct()) return;
    const side = state.side_to_move;
    pending = true;
    setHint('');
    render();
    try {
      const next = await backend.play(tokens[side], state.version, move);
      pending = false;
      typedInput.value = '';
      // The event stream may already have brought a newer state (the
      // computer's reply): then this answer is old news, but the page must
      // still leave its sending state.
      accept(next);
      render();
    } catch (err) {
      pending = false;
      if (err.status === 409) await refresh();
      setHint(err.message, true);
      if (picker && state && Array.isArray(state.legal_moves)) picker = pickerFor(board, model, state.legal_moves);
      render();
    }
  }

  function onCell(cell) {
    if (!state || !canAct()) return;
    if (placingNow()) {
      togglePlacement(cell);
      return;
    }
    if (!picker) return;
    const result = picker.click(cell);
    if (result.move) submit(result.move);
    else if (result.changed) {
      setHint('');
      renderBoard();
    }
  }

  function allowedPlacement() {
    return board.placement.allowed(model, state.side_to_move, placement);
  }

  function togglePlacement(cell) {
    if (placement.includes(cell)) {
      placement = placement.filter((c) => c !== cell);
    } else if (placement.length < board.placement.count && allowedPlacement().has(cell)) {
      placement = [...placement, cell];
    } else {
      return;
    }
    setHint(placementHint());
    render();
  }

  function placementHint() {
    return board.placement.hint(placement);
  }

  async function resign() {
    if (!resignArmed) {
      resignArmed = setTimeout(() => { resignArmed = null; renderActions(); }, 4000);
      renderActions();
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    const side = mine(state.side_to_move) ? state.side_to_move : seated()[0];
    try {
      accept(await backend.resign(tokens[side]));
    } catch (err) {
      setHint(err.message, true);
    }
    renderActions();
  }

  /** Draw offers and takebacks: `what` is draw or takeback. */
  async function answerOffer(what, action, side) {
    try {
      accept(await backend.offer(tokens[side], what, action));
    } catch (err) {
      setHint(err.message, true);
    }
    render();
  }

  /** On one device with both seats, a takeback is asked by the last mover and granted by the other. */
  async function takeback() {
    if (!bothHere()) {
      await answerOffer('takeback', 'offer', seated()[0]);
      return;
    }
    const asker = other(state.side_to_move);
    try {
      await backend.offer(tokens[asker], 'takeback', 'offer');
      accept(await backend.offer(tokens[other(asker)], 'takeback', 'accept'));
    } catch (err) {
      setHint(err.message, true);
    }
    render();
  }

  async function rematch() {
    const side = seated()[0];
    try {
      const answer = await backend.rematch(tokens[side]);
      goToRematch(answer.code);
    } catch (err) {
      setHint(err.message, true);
    }
  }

  /** Seats swap in a rematch: each token keeps its player, on the other side. */
  function goToRematch(newCode) {
    if (seated().length && !backend.local) {
      const swapped = {};
      for (const side of seated()) swapped[other(side)] = tokens[side];
      store.remember({ code: newCode, game: state.game, variant: state.variant, title: state.title, tokens: swapped, opponent: bothHere() ? 'local' : state.ai ? 'ai' : 'friend' });
    }
    navigate(backend.path(newCode));
  }

  async function join() {
    try {
      const answer = await backend.join();
      tokens = { ...tokens, [answer.seat]: answer.token };
      store.remember({ code, game: state.game, variant: state.variant, title: state.title, tokens, opponent: 'friend' });
      toast(`You play ${sideName(state.game, answer.seat)}`);
      connect();
      await refresh();
    } catch (err) {
      setHint(err.message, true);
      await refresh();
    }
  }

  // ---- rendering ---------------------------------------------------------

  function render() {
    if (!state) return;
    section.dataset.version = String(state.version);
    section.dataset.status = state.status;
    section.dataset.moves = String(state.moves.length);
    section.dataset.toMove = state.side_to_move;
    section.dataset.seat = seated().join(' ') || 'spectator';
    section.dataset.thinking = String(thinking());
    section.dataset.pending = String(pending);
    section.dataset.replay = replayPly === null ? 'live' : String(replayPly);
    section.dataset.game = state.game;
    section.dataset.aiBest = aiBest();
    renderBoard();
    renderPlayers();
    renderStatus();
    renderConnection();
    renderLimit();
    renderOffer();
    renderActions();
    renderShare();
    renderMoves();
    keepingFocus(replayBar, renderReplay);
    renderLog();
    renderHint();
    keepingFocus(placementBar, renderPlacement);
    graph.show(state, replayPly === null ? state.moves.length : replayPly);
    document.title = `${canAct() ? '● Your move · ' : ''}${state.title} · ${code} · plateau`;
    typedForm.querySelector('button').disabled = !canAct();
    // Only players type moves; spectators just watch.
    typedForm.closest('details').hidden = !seated().length || state.status !== 'playing';
  }

  function flipped() {
    if (!board || !model) return userFlip;
    const seat = bothHere() ? null : seated()[0] || null;
    return board.autoFlip(model, seat) !== userFlip;
  }

  function boardView() {
    const empty = { playable: new Set(), selected: new Set(), targets: new Map(), hasSelection: false };
    if (replayPly !== null) {
      return { ...empty, ...switches, ghosts: null, pickable: null, ...lastMarks(replayPly), interactive: false, flipped: flipped(), showImposed: false };
    }
    const active = canAct();
    let view = active && picker ? picker.view() : empty;
    let ghosts = null;
    let pickable = null;
    if (active && placingNow()) {
      const side = state.side_to_move;
      ghosts = new Map(placement.map((sq, i) => [sq, board.placement.ghost(side, i)]));
      pickable = new Set(placement.length < board.placement.count ? [...allowedPlacement()].filter((sq) => !placement.includes(sq)) : []);
      view = { ...empty, selected: new Set(placement) };
    }
    return { ...view, ghosts, pickable, ...lastMarks(state.moves.length), interactive: active, flipped: flipped(), ...switches, showImposed: state.status === 'playing' };
  }

  /** The board markup last put in the SVG. */
  let drawnBody = null;

  function renderBoard() {
    if (!board || !model) {
      svg.replaceChildren();
      drawnBody = null;
      return;
    }
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('.cell');
    const focusedCell = focused && svg.contains(focused) ? focused.dataset.cell : null;
    const drawn = board.draw(replayPly === null ? model : replayModel, boardView());
    svg.setAttribute('viewBox', drawn.viewBox);
    // The frame takes the board's own shape (Abalone's hexagon is wider than
    // tall), so no blank band surrounds it.
    const [, , width, height] = drawn.viewBox.split(/\s+/).map(Number);
    if (width > 0 && height > 0) svg.parentElement.style.aspectRatio = `${width} / ${height}`;
    svg.setAttribute('aria-label', `${drawn.title}${canAct() ? ': your move' : ''}`);
    // Redrawn only when it changes: a cell replaced between a press and its
    // release (a report of the computer's search, a spectator joining) would
    // swallow the click.
    if (drawn.body !== drawnBody) {
      svg.innerHTML = drawn.body;
      drawnBody = drawn.body;
    }
    svg.classList.toggle('flipped', flipped());
    if (focusedCell) {
      const again = svg.querySelector(`.cell[data-cell="${CSS.escape(focusedCell)}"][tabindex]`);
      if (again) again.focus();
    }
  }

  function playerRow(el, side) {
    const seat = state.seats[side];
    let who;
    let tag = '';
    if (seat.ai) {
      who = 'Computer';
      tag = state.ai ? `level ${state.ai.level}` : '';
    } else if (mine(side)) {
      who = bothHere() ? sideName(state.game, side) : 'You';
      tag = bothHere() ? 'this device' : '';
    } else if (!seat.taken) {
      who = 'Waiting for a player';
    } else {
      who = seated().length ? 'Your friend' : 'Player';
      tag = seat.connected ? 'online' : 'offline';
    }
    const toMove = state.status === 'playing' && state.side_to_move === side;
    el.className = `player ${el.classList.contains('top') ? 'top' : 'bottom'}${toMove ? ' to-move' : ''}`;
    el.dataset.side = side;
    const name = sideName(state.game, side);
    el.replaceChildren(
      h('span', { class: `swatch ${side}`, 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, who),
      h('span', { class: 'tag' }, [who === name ? '' : name, tag].filter(Boolean).join(' · ')),
      h('span', { class: 'turn' }, toMove && thinking() ? 'thinking' : 'to move'),
      state.clock ? h('span', { class: 'clock', 'data-clock': side }) : '');
    tickClocks();
  }

  /** Time left on `side`'s clock now, in milliseconds. */
  function timeLeft(side) {
    const clock = state.clock;
    let ms = clock[`${side}_ms`];
    if (clock.running === side && state.status === 'playing') ms -= performance.now() - clockAt;
    return Math.max(0, ms);
  }

  function clockText(ms) {
    const tenths = Math.floor(ms / 100);
    const seconds = Math.floor(tenths / 10);
    const shown = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    return ms < 10000 ? `${shown}.${tenths % 10}` : shown;
  }

  /** Redraws the clocks only, several times a second. */
  function tickClocks() {
    if (!state || !state.clock) return;
    const low = Math.min(20000, state.clock.initial_s * 250);
    for (const el of section.querySelectorAll('[data-clock]')) {
      const side = el.dataset.clock;
      const ms = timeLeft(side);
      el.textContent = clockText(ms);
      el.classList.toggle('running', state.clock.running === side && state.status === 'playing');
      el.classList.toggle('low', ms <= low);
      // Once per game: the player's own time running low.
      if (ms <= low && state.status === 'playing' && state.clock.running === side && mine(side) && !bothHere() && warnedLow !== `${state.code} ${side}`) {
        warnedLow = `${state.code} ${side}`;
        lowTimeSound();
      }
    }
  }
  let warnedLow = null;
  const clockTimer = setInterval(tickClocks, 100);

  function renderPlayers() {
    const seat = bothHere() ? null : seated()[0] || null;
    const bottom = board ? board.bottomSide(model, flipped(), seat) : 'white';
    playerBottom.className = 'player bottom';
    playerTop.className = 'player top';
    playerRow(playerBottom, bottom);
    playerRow(playerTop, other(bottom));
  }

  function statusText() {
    if (state.status === 'waiting') {
      return seated().length ? 'Waiting for your friend to join: share the link' : 'A seat is free in this game';
    }
    if (state.status === 'finished') return 'Game over';
    const name = sideName(state.game, state.side_to_move);
    if (pending) return 'Sending your move…';
    if (thinking()) {
      // Many games against the computer at once: its move waits its turn.
      const place = state.ai && state.ai.queue;
      if (state.ai.local) {
        const seen = state.ai.info;
        const figures = seen ? ` depth ${seen.depth}, ${describeScore(state.game, seen.score, seen.side_to_move || state.side_to_move)}` : '';
        return `The computer (${name}) is thinking in this browser…${figures}`;
      }
      return place
        ? `The computer (${name}) waits for a free thread: ${place === 1 ? 'next' : `number ${place}`} in line…`
        : `The computer (${name}) is thinking…`;
    }
    if (mine(state.side_to_move)) return bothHere() ? `${name} to move` : `Your move as ${name}`;
    if (seated().length) return `Waiting for ${name}`;
    return `${name} to move`;
  }

  function renderStatus() {
    const busy = thinking() || pending || (state.status === 'playing' && !mine(state.side_to_move) && seated().length > 0);
    status.replaceChildren(
      h('span', { class: `spinner${busy ? ' on' : ''}`, 'aria-hidden': 'true' }),
      h('span', { class: 'status-text' }, statusText()),
      h('span', { class: 'tag' }, seated().length || state.status === 'waiting' ? '' : '(watching)'));
    if (state.result) {
      const winner = state.result.winner;
      let headline;
      if (!winner) headline = 'Draw';
      else if (mine(winner) && !bothHere()) headline = 'You won';
      else if (seated().length && !bothHere()) headline = 'You lost';
      else headline = `${sideName(state.game, winner)} wins`;
      banner.replaceChildren(h('span', { class: 'headline' }, headline), h('span', { class: 'reason' }, state.result.reason));
      banner.hidden = false;
    } else {
      banner.hidden = true;
    }
  }

  // Abalone rooms end at a move limit, decided on marbles: said where the
  // status is, with the moves to go.
  function renderLimit() {
    const limit = state.move_limit;
    limitLine.hidden = !limit;
    if (!limit) return;
    const played = Math.ceil(limit.plies_played / 2);
    const toGo = Math.max(0, limit.moves_each - played);
    limitLine.dataset.toGo = String(toGo);
    limitLine.classList.toggle('low', state.status === 'playing' && toGo <= 10);
    limitLine.replaceChildren(
      h('strong', {}, `Move limit: ${limit.moves_each} moves each`),
      state.status === 'finished' ? '' : ` · ${toGo} to go`,
      '. Then whoever has pushed off more marbles wins; a draw if even.');
  }

  // An offer's answer (declined, withdrawn) stays in the status area for a
  // while: the room's history alone is easy to miss.
  let answered = null;
  let answeredTimer = null;
  function noteAnswer(prior, next) {
    if (!prior || !prior.offer || next.offer || next.status !== 'playing' || next.moves.length !== prior.moves.length) return;
    const line = (next.log || []).slice(-3).reverse().find((text) => /declined|withdrew/.test(text));
    if (!line) return;
    answered = line.charAt(0).toUpperCase() + line.slice(1);
    clearTimeout(answeredTimer);
    answeredTimer = setTimeout(() => { answered = null; if (state && !destroyed) renderOffer(); }, 8000);
  }

  function renderOffer() {
    const offer = state.status === 'playing' ? state.offer : null;
    if (offer) answered = null;
    offerLine.hidden = !offer && !answered;
    offerLine.classList.toggle('answered', !offer && Boolean(answered));
    if (!offer) {
      offerLine.replaceChildren(...(answered ? [h('span', { 'data-answer': true }, answered)] : []));
      return;
    }
    const who = sideName(state.game, offer.by);
    const asks = offer.kind === 'draw' ? `${who} offers a draw` : `${who} asks to take back their last move`;
    const items = [h('span', {}, asks)];
    if (mine(other(offer.by))) {
      items.push(
        h('button', { class: 'btn primary', type: 'button', 'data-action': 'accept-offer', onclick: () => answerOffer(offer.kind, 'accept', other(offer.by)) }, 'Accept'),
        h('button', { class: 'btn', type: 'button', 'data-action': 'decline-offer', onclick: () => answerOffer(offer.kind, 'decline', other(offer.by)) }, 'Decline'));
    } else if (mine(offer.by)) {
      items[0] = h('span', {}, offer.kind === 'draw' ? 'Draw offered: waiting for an answer' : 'Takeback asked: waiting for an answer');
      items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'withdraw-offer', onclick: () => answerOffer(offer.kind, 'decline', offer.by) }, 'Withdraw'));
    }
    keepingFocus(offerLine, () => offerLine.replaceChildren(...items));
  }

  function renderLog() {
    const lines = state.log || [];
    logList.hidden = !lines.length;
    logList.replaceChildren(...lines.slice(-6).map((line) => h('li', {}, line)));
  }

  function renderConnection() {
    const text = { lost: 'Connection lost: reconnecting…', gone: 'This room no longer exists on the server.' }[connection] || '';
    connectionLine.textContent = text;
    section.dataset.connection = connection;
  }

  /** Re-renders `container` with `fill`, giving keyboard focus back to the same control. */
  function keepingFocus(container, fill) {
    const active = document.activeElement;
    const key = active && container.contains(active) ? (active.dataset.action || active.dataset.move || active.dataset.layout || active.textContent) : null;
    fill();
    if (key === null) return;
    const again = [...container.querySelectorAll('button, a, input')]
      .find((el) => (el.dataset.action || el.dataset.move || el.dataset.layout || el.textContent) === key);
    if (again) again.focus();
  }

  function renderActions() {
    keepingFocus(actions, fillActions);
  }

  function fillActions() {
    const items = [];
    const playing = state.status === 'playing';
    if (picker && picker.buttons.length && canAct()) {
      for (const move of picker.buttons) items.push(h('button', { class: 'btn primary', type: 'button', 'data-move': move, onclick: () => submit(move) }, passLabel(move)));
    }
    if (backend.local && thinking()) {
      items.push(h('button', { class: 'btn primary', type: 'button', 'data-action': 'move-now', disabled: !state.ai.info, title: 'Stop the search: the computer plays the best move of its deepest finished iteration', onclick: () => backend.moveNow() }, 'Move now'));
    }
    items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'flip', 'aria-pressed': String(userFlip), onclick: () => { userFlip = !userFlip; render(); } }, 'Flip board'));
    items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'sound', 'aria-pressed': String(soundOn()), title: 'Sounds for moves, captures and low time', onclick: () => { setSound(!soundOn()); render(); } }, 'Sound'));
    for (const toggle of (board && board.toggles) || []) {
      items.push(h('button', { class: 'btn', type: 'button', 'data-action': toggle.key, 'aria-pressed': String(Boolean(switches[toggle.key])), onclick: () => { switches[toggle.key] = !switches[toggle.key]; saveSwitch(toggle.key, switches[toggle.key]); render(); } }, toggle.label));
    }
    if (playing && seated().length) {
      const asker = bothHere() ? other(state.side_to_move) : seated()[0];
      if (state.can_take_back && state.can_take_back[asker]) {
        items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'takeback', onclick: takeback }, 'Take back'));
      }
      if (state.draw_by_agreement && !bothHere() && !state.offer) {
        items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'offer-draw', onclick: () => answerOffer('draw', 'offer', seated()[0]) }, 'Offer draw'));
      }
      items.push(h('button', { class: `btn danger${resignArmed ? ' armed' : ''}`, type: 'button', 'data-action': 'resign', onclick: resign }, resignArmed ? 'Confirm resign' : 'Resign'));
    }
    if (state.status === 'finished' && seated().length) {
      items.push(h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', onclick: rematch }, state.rematch ? 'Play the rematch' : 'Rematch'));
    } else if (state.rematch) {
      items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'watch-rematch', onclick: () => navigate(`/r/${state.rematch}`) }, 'Watch the rematch'));
    }
    if (state.status === 'waiting' && !seated().length) {
      const free = ['white', 'black'].find((s) => !state.seats[s].taken);
      if (free) items.push(h('button', { class: 'btn primary', type: 'button', 'data-action': 'join', onclick: join }, `Join as ${sideName(state.game, free)}`));
    }
    items.push(h('a', { class: 'btn', href: '/', 'data-link': true }, 'New game'));
    actions.replaceChildren(...items);
  }

  let sharedFor = null;

  function renderShare() {
    // Rebuilt only when the words change, so a selection in the box survives moves.
    const key = `${state.status}/${seated().length}/${backend.local ? state.moves.length : ''}`;
    if (key === sharedFor) return;
    sharedFor = key;
    if (backend.local) {
      share.replaceChildren(
        h('div', { class: 'local-note', 'data-local': 'true' }, 'The computer runs in this browser: this game needs no server, and it is kept on this device.'),
        h('div', {},
          h('a', { class: 'btn', href: analysisLink(state.position), 'data-link': true, 'data-action': 'analyse' }, 'Analyse this position'),
          ' ',
          backend.canSave() ? h('button', { class: 'btn', type: 'button', 'data-action': 'save-room', title: 'Go on with this game on the server, against its computer at the same level', onclick: saveAsRoom }, 'Continue on the server') : ''));
      return;
    }
    const link = `${location.origin}/r/${code}`;
    const input = h('input', { type: 'text', readonly: true, value: link, 'aria-label': 'Share link', onfocus: (e) => e.target.select() });
    const copy = h('button', { class: 'btn', type: 'button', 'data-action': 'copy-link', onclick: async () => {
      toast((await copyText(link, input)) ? 'Link copied' : 'Copy the link from the box');
    } }, 'Copy share link');
    const waiting = state.status === 'waiting' && seated().length;
    share.replaceChildren(
      h('div', {}, waiting ? 'Send this link to your friend: ' : 'Room ', h('span', { class: 'code' }, code)),
      input,
      h('div', {}, copy, ' ', h('a', { class: 'btn', href: `/api/rooms/${code}/record?download`, download: '', 'data-action': 'record' }, 'Game record'), ' ', h('a', { class: 'btn', href: `/rules/${state.game}`, 'data-link': true, 'data-action': 'rules' }, 'Rules')));
  }

  function renderMoves() {
    const items = [];
    const shown = replayPly === null ? state.moves.length : replayPly;
    const ply = (k) => {
      if (k >= state.moves.length) return h('span', { class: 'ply' }, '');
      const classes = `ply${k === state.moves.length - 1 ? ' latest' : ''}${k === shown - 1 ? ' shown' : ''}`;
      return h('span', { class: classes, 'data-ply': String(k + 1), title: 'Show the position after this move' }, state.moves[k]);
    };
    for (let i = 0; i < state.moves.length; i += 2) {
      // A long move (an Escampe placement) gets a line of its own rather than
      // being broken in the middle.
      const wide = (state.moves[i] || '').length > 10 || (state.moves[i + 1] || '').length > 10;
      items.push(h('li', { class: wide ? 'wide' : '' }, h('span', { class: 'num' }, `${i / 2 + 1}.`), ply(i), ply(i + 1)));
    }
    const atEnd = movesBox.scrollTop + movesBox.clientHeight >= movesBox.scrollHeight - 8;
    moveList.replaceChildren(...items);
    if (atEnd) movesBox.scrollTop = movesBox.scrollHeight;
  }

  function renderReplay() {
    const count = state.moves.length;
    replayBar.hidden = !count;
    if (!count) {
      replayBar.replaceChildren();
      return;
    }
    const shown = replayPly === null ? count : replayPly;
    const step = (action, label, title, to, disabled) => h('button', {
      class: 'btn', type: 'button', 'data-action': action, title, 'aria-label': title, disabled, onclick: () => showPly(to),
    }, label);
    const items = [
      step('replay-start', '«', 'The start', 0, shown === 0),
      step('replay-back', '‹', 'One move back (←)', shown - 1, shown === 0),
      step('replay-forward', '›', 'One move forward (→)', shown + 1, shown === count),
      step('replay-live', '»', 'The game now (End)', count, shown === count),
    ];
    if (replayPly !== null) {
      items.push(
        h('span', { class: 'where' }, `After move ${replayPly} of ${count}`),
        h('button', { class: 'btn primary', type: 'button', 'data-action': 'live', onclick: () => showPly(count) }, 'Back to the game'),
        h('a', { class: 'btn', href: analysisLink(replayText), 'data-link': true, 'data-action': 'analyse-replay' }, 'Analyse'),
        h('input', { type: 'text', readonly: true, value: replayText, 'aria-label': 'This position as text', onfocus: (e) => e.target.select() }));
    }
    replayBar.replaceChildren(...items);
  }

  /** A local game carried over to a room on the server. */
  let saving = false;

  async function saveAsRoom() {
    if (saving) return;
    saving = true;
    try {
      const room = await backend.saveAsRoom();
      store.remember({ code: room.code, game: room.game, variant: room.variant || undefined, title: room.title, tokens: { [room.seat]: room.token }, opponent: 'ai', level: room.level });
      navigate(`/r/${room.code}`);
    } catch (err) {
      setHint(err.message, true);
    } finally {
      saving = false;
    }
  }

  /** The analysis board on `position` of this game. */
  function analysisLink(position) {
    const query = new URLSearchParams({ game: state.game, position });
    if (state.variant) query.set('variant', state.variant);
    return `/analysis?${query}`;
  }

  function renderHint() {
    let text = hint.text;
    if (!text && state && model && board) {
      if (canAct() && placingNow()) text = placementHint();
      else if (canAct() && board.moveHint) text = board.moveHint;
      else text = board.describe(model, state);
    }
    hintLine.textContent = text;
    hintLine.classList.toggle('bad', hint.bad && Boolean(hint.text));
  }

  /** Places, unless the engine sees the placement lose by force: then it warns first. */
  async function place(text) {
    if (risky === text) {
      risky = null;
      submit(text);
      return;
    }
    const side = state.side_to_move;
    try {
      const answer = await backend.check(tokens[side], text);
      if (answer.legal && answer.warning) {
        risky = text;
        setHint(`Careful: ${answer.warning.text}. Place anyway, or change it.`, true);
        render();
        return;
      }
    } catch (_) {
      // The check is advice: without it, the placement goes ahead.
    }
    submit(text);
  }

  function renderPlacement() {
    const show = canAct() && placingNow();
    placementBar.hidden = !(board && board.placement);
    if (!show) {
      placementBar.replaceChildren();
      return;
    }
    const side = state.side_to_move;
    const confirming = risky !== null && risky === placement.join('/');
    const buttons = board.placement.suggestions(model, side).map((layout, i) => h('button', {
      class: 'btn', type: 'button', 'data-layout': layout, title: layout,
      onclick: () => { placement = layout.split('/'); setHint(`Suggested layout ${i + 1}: ${layout}`); render(); },
    }, `Layout ${i + 1}`));
    placementBar.replaceChildren(
      ...buttons,
      h('button', { class: 'btn', type: 'button', disabled: !placement.length, onclick: () => { placement = []; setHint(''); render(); } }, 'Clear'),
      h('button', { class: `btn ${confirming ? 'danger' : 'primary'}`, type: 'button', 'data-action': 'place', disabled: placement.length !== 6, onclick: () => place(placement.join('/')) }, confirming ? 'Place anyway' : 'Place'));
  }

  // ---- start -------------------------------------------------------------

  if (backend.local) {
    connect();
  } else {
    // The state first: a room that does not exist gets its notice without an
    // event stream (whose 404 the browser would log as an error).
    backend.state().then((first) => {
      if (destroyed) return;
      accept(first);
      connect();
    }, (err) => {
      if (destroyed) return;
      if (err.status === 404) {
        store.forget(code);
        showMissing();
      } else {
        setHint(err.message, true);
        connect();
      }
    });
  }

  return {
    destroy() {
      destroyed = true;
      if (stream) stream.close();
      document.removeEventListener('visibilitychange', onVisible);
      document.removeEventListener('keydown', onKey);
      clearInterval(clockTimer);
      clearTimeout(resignArmed);
      clearTimeout(answeredTimer);
      graph.destroy();
    },
  };
}
