// The home page: pick a game, a variant, an opponent and a colour; the lobby
// of public games to join or watch; resume a game this browser plays; join a
// room by its code.

import { api } from './api.js';
import { h } from './dom.js';
import { colourChoices, loadCatalogue, sideName } from './games.js';
import * as store from './store.js';
import { createLocalGame, forgetLocal, localGames } from './local.js';

/** Time controls offered: minutes + seconds added per move. */
const CLOCKS = [['', 'No clock'], ['1+0', '1 min'], ['3+2', '3 min + 2 s'], ['5+3', '5 min + 3 s'], ['10+5', '10 min + 5 s'], ['15+10', '15 min + 10 s'], ['30+0', '30 min']];

export function homeView(root, { navigate, query = new URLSearchParams() }) {
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'card', 'aria-labelledby': 'new-game-title' }, h('h2', { id: 'new-game-title' }, 'New game'), h('p', {}, 'Loading the games…'));
  const recent = h('section', { class: 'card', 'aria-labelledby': 'recent-title' });
  const lobby = h('section', { class: 'card lobby', 'aria-labelledby': 'lobby-title' }, h('h2', { id: 'lobby-title' }, 'Lobby'));
  root.replaceChildren(h('div', { class: 'home' }, form, lobby, recent));
  let gone = false;
  // The lobby, live: the server streams it whenever it changes.
  let lobbyFeed = null;
  let lobbyTimer = null;
  let lastLobby = null;
  if (typeof EventSource === 'function') {
    const openFeed = () => {
      lobbyFeed = new EventSource('/api/lobby/events');
      lobbyFeed.addEventListener('lobby', (event) => {
        try { lastLobby = JSON.parse(event.data); } catch (_) { return; }
        renderLobby(lastLobby, '');
      });
      lobbyFeed.onerror = () => {
        if (gone) return;
        // A dropped connection is retried by EventSource itself; an HTTP
        // error (a rate limit, a proxy's 502) closes it for good: open a
        // new one after a pause, and say so while nothing is shown.
        if (lobbyFeed.readyState === EventSource.CLOSED) {
          lobbyFeed.close();
          lobbyTimer = setTimeout(() => { if (!gone) openFeed(); }, 5000);
        }
        renderLobby(lastLobby, lastLobby ? '' : 'the server cannot be reached; retrying');
      };
    };
    openFeed();
  } else {
    const poll = async () => {
      try { lastLobby = await api.lobby(); renderLobby(lastLobby, ''); } catch (err) { renderLobby(lastLobby, err.message); }
      if (!gone) lobbyTimer = setTimeout(poll, 4000);
    };
    poll();
  }

  // Where each of this browser's games stands, read again while the page
  // is shown.
  const STANDING_EVERY_MS = 10000;
  let standing = new Map();
  let standingTimer = null;
  renderRecent();
  const refreshStanding = async () => {
    clearTimeout(standingTimer);
    const codes = store.games().filter((g) => !g.missing).map((g) => g.code).slice(0, 30);
    if (codes.length) {
      try {
        const answer = await api.summaries(codes);
        if (gone) return;
        standing = new Map(answer.rooms.map((room) => [room.code, room]));
        for (const code of answer.missing) store.update(code, { missing: true });
        for (const room of answer.rooms) {
          store.update(room.code, { status: room.status, result: room.result });
        }
      } catch (_) { /* the list keeps what it last knew */ }
    }
    if (gone) return;
    renderRecent();
    standingTimer = setTimeout(refreshStanding, STANDING_EVERY_MS);
  };
  refreshStanding();

  loadCatalogue().then((catalogue) => buildForm(catalogue)).catch((err) => {
    form.replaceChildren(h('h2', {}, 'New game'), h('p', { class: 'error' }, `The game list could not be loaded: ${err.message}`));
  });

  function radios(name, options, checked, onchange) {
    return h('div', { class: 'choices', role: 'radiogroup' }, options.map(([value, label]) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name, value, checked: value === checked, onchange }),
      h('span', {}, label))));
  }

  let loadedGames = [];

  function buildForm(catalogue) {
    const games = catalogue.games;
    loadedGames = games;
    let game = games.find((g) => g.name === query.get('game')) || games[0];
    const desc = h('p', { class: 'game-desc' });
    const rulesLink = h('a', { 'data-link': true, 'data-action': 'rules' }, 'Rules');
    const variantSelect = h('select', { name: 'variant', id: 'variant' });
    const variantRow = h('label', { class: 'inline', for: 'variant' }, 'Variant ', variantSelect);
    const levelSelect = h('select', { name: 'level', id: 'level' }, catalogue.levels.map((l) => h('option', { value: l, selected: l === 'medium' }, l)));
    const levelRow = h('label', { class: 'inline', for: 'level' }, 'Level ', levelSelect);
    const colourBox = h('div');

    const updateGame = () => {
      game = games.find((g) => g.name === form.elements.game.value) || games[0];
      desc.replaceChildren(`${game.description} `, rulesLink);
      rulesLink.href = `/rules/${game.name}`;
      rulesLink.textContent = `Rules of ${game.title}`;
      variantSelect.replaceChildren(...game.variants.map((v) => h('option', { value: v.name, title: v.description }, `${v.name} — ${v.description}`)));
      variantRow.hidden = !game.variants.length;
      const current = form.elements.colour ? form.elements.colour.value : 'random';
      colourBox.replaceChildren(radios('colour', [...colourChoices(game.name), ['random', 'Random']], current || 'random'));
      if (form.elements.opponent) updateLimit();
    };
    const clockSelect = h('select', { name: 'clock', id: 'clock' }, CLOCKS.map(([value, label]) => h('option', { value }, label)));
    const clockRow = h('label', { class: 'inline', for: 'clock' }, 'Clock ', clockSelect);
    const limitSelect = h('select', { name: 'move_limit', id: 'move-limit' });
    const limitRow = h('label', { class: 'inline', for: 'move-limit', title: 'At the limit, whoever has pushed off more marbles wins; a draw if even' }, 'Move limit ', limitSelect);
    const updateLimit = () => {
      const limit = game.move_limit;
      const choices = limit ? [...new Set([limit.default_moves_each, 50, 150, 200])].filter((n) => n >= limit.min && n <= limit.max) : [];
      limitSelect.replaceChildren(...choices.map((n) => h('option', { value: String(n) }, `${n} moves each${n === limit.default_moves_each ? ' (then marbles decide)' : ''}`)),
        ...(limit ? [h('option', { value: '0' }, 'None')] : []));
      limitRow.hidden = !limit || form.elements.opponent.value === 'browser';
    };
    const publicRow = h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'public', id: 'public' }), ' List it in the lobby for anyone to join');
    const updateOpponent = () => {
      const opponent = form.elements.opponent.value;
      levelRow.hidden = opponent !== 'ai' && opponent !== 'browser';
      publicRow.hidden = opponent !== 'friend';
      // The browser's computer keeps no clock: it plays at its level's pace.
      clockRow.hidden = opponent === 'browser';
      browserNote.hidden = opponent !== 'browser';
      colourBox.closest('fieldset').hidden = form.elements.opponent.value === 'local';
      updateLimit();
    };

    const browserNote = h('p', { class: 'meta', hidden: true }, 'The computer thinks on this device (WebAssembly): the game keeps working without the server, and stays in this browser.');
    const start = h('button', { class: 'btn primary', type: 'submit' }, 'Start');
    form.replaceChildren(
      h('h2', { id: 'new-game-title' }, 'New game'),
      h('fieldset', {}, h('legend', {}, 'Game'), radios('game', games.map((g) => [g.name, g.title]), game.name, updateGame), desc, variantRow),
      h('fieldset', {}, h('legend', {}, 'Opponent'),
        radios('opponent', [['ai', 'Computer'], ['browser', 'Computer in this browser'], ['friend', 'A friend (share a link)'], ['local', 'Both sides on this device']], 'ai', updateOpponent),
        browserNote,
        h('p', {}, levelRow),
        h('p', {}, clockRow),
        h('p', {}, limitRow),
        h('p', {}, publicRow)),
      h('fieldset', {}, h('legend', {}, 'Your colour'), colourBox),
      start,
      error);
    form.onsubmit = async (event) => {
      event.preventDefault();
      error.textContent = '';
      start.disabled = true;
      try {
        await create();
      } catch (err) {
        error.textContent = err.message;
      } finally {
        start.disabled = false;
      }
    };
    updateGame();
    updateOpponent();
  }

  async function create() {
    const f = form.elements;
    const opponent = f.opponent.value;
    if (opponent === 'browser') {
      const variant = f.variant && !f.variant.closest('label').hidden && f.variant.value ? f.variant.value : null;
      const known = loadedGames.find((g) => g.name === f.game.value);
      const id = createLocalGame({ game: f.game.value, variant, title: known ? known.title : f.game.value, level: f.level.value, side: f.colour.value });
      navigate(`/local/${id}`);
      return;
    }
    const body = { game: f.game.value, opponent: opponent === 'ai' ? 'ai' : 'friend' };
    if (f.variant && !f.variant.closest('label').hidden && f.variant.value) body.variant = f.variant.value;
    if (opponent === 'ai') body.level = f.level.value;
    if (opponent === 'friend' && f.public.checked) body.public = true;
    if (f.clock.value) {
      const [minutes, increment] = f.clock.value.split('+').map(Number);
      body.clock = { initial_s: minutes * 60, increment_s: increment };
    }
    if (!f.move_limit.closest('label').hidden && f.move_limit.value) body.move_limit = Number(f.move_limit.value);
    body.seat = opponent === 'local' ? 'white' : f.colour.value;
    const created = await api.create(body);
    const tokens = { [created.seat]: created.token };
    if (opponent === 'local') {
      const second = await api.join(created.code);
      tokens[second.seat] = second.token;
    }
    store.remember({ code: created.code, game: body.game, variant: body.variant, tokens, opponent, level: body.level });
    navigate(`/r/${created.code}`);
  }

  /** Takes the free seat of a listed game and opens it: one click. */
  async function joinListed(room, button) {
    button.disabled = true;
    lobbyError.textContent = '';
    lobbyError.hidden = true;
    try {
      const joined = await api.join(room.code);
      store.remember({ code: room.code, game: room.game, variant: room.variant || undefined, title: room.title, tokens: { [joined.seat]: joined.token }, opponent: 'friend' });
      navigate(`/r/${room.code}`);
    } catch (err) {
      button.disabled = false;
      lobbyError.textContent = `${room.code}: ${err.message}`;
      lobbyError.hidden = false;
    }
  }

  const lobbyError = h('p', { class: 'error', role: 'alert', hidden: true });

  function renderLobby(listed, problem) {
    const title = h('h2', { id: 'lobby-title' }, 'Lobby');
    if (!listed) {
      lobby.replaceChildren(title, h('p', { class: 'meta' }, `The lobby could not be loaded: ${problem}`));
      return;
    }
    const clock = (room) => (room.clock ? ` · ${room.clock.initial_s / 60} min + ${room.clock.increment_s} s` : '');
    const name = (room) => `${room.title}${room.variant ? ` ${room.variant}` : ''}${clock(room)}`;
    const open = listed.waiting.map((room) => h('li', { 'data-code': room.code },
      h('span', {}, name(room), h('span', { class: 'meta' }, ` · ${sideName(room.game, room.creator || 'white')} waits for an opponent · ${room.code}`)),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'lobby-join', onclick: (event) => joinListed(room, event.currentTarget) }, 'Join')));
    const watch = listed.playing.map((room) => h('li', { 'data-code': room.code },
      h('span', {}, name(room), h('span', { class: 'meta' }, ` · ${room.ai ? `against the computer (${room.ai.level})` : 'two players'} · ${room.moves} moves · ${room.code}`)),
      h('a', { class: 'btn', href: `/r/${room.code}`, 'data-link': true, 'data-action': 'lobby-watch' }, 'Watch')));
    lobby.replaceChildren(
      title,
      lobbyError,
      open.length ? h('ul', { class: 'recent open-games' }, open) : h('p', { class: 'meta' }, 'No open game: start one with “A friend” and “List it in the lobby”.'),
      watch.length ? h('h3', {}, 'Games to watch') : '',
      watch.length ? h('ul', { class: 'recent live-games' }, watch) : '');
  }

  function renderRecent() {
    const games = store.games();
    const codeInput = h('input', { type: 'text', maxlength: '5', placeholder: 'ABCDE', 'aria-label': 'Room code', autocomplete: 'off' });
    const join = h('form', { class: 'join-code', onsubmit: (e) => {
      e.preventDefault();
      const code = codeInput.value.trim().toUpperCase();
      if (/^[A-Z2-9]{5}$/.test(code)) navigate(`/r/${code}`);
    } }, codeInput, h('button', { class: 'btn', type: 'submit' }, 'Open room'));
    const opponent = (g) => ({ ai: `vs computer${g.level ? ` (${g.level})` : ''}`, local: 'both sides here', friend: 'vs a friend' })[g.opponent] || '';
    const mine = (g) => Object.keys(g.tokens || {});
    /** Where the game stands for this browser, and whether it waits for us. */
    const where = (g) => {
      if (g.missing) return { text: 'no longer on the server', turn: false };
      const room = standing.get(g.code);
      const status = room ? room.status : g.status;
      const result = room ? room.result : g.result;
      if (status === 'finished') {
        const how = result && result.reason ? ` (${result.reason})` : '';
        if (!result || !result.winner) return { text: `drawn${how}`, turn: false, over: true };
        const won = mine(g).length === 1 ? (mine(g)[0] === result.winner ? 'you won' : 'you lost') : `${sideName(g.game, result.winner)} won`;
        return { text: `${won}${how}`, turn: false, over: true };
      }
      if (status === 'waiting') return { text: 'waiting for an opponent', turn: false };
      if (!room) return { text: 'in progress', turn: false };
      const ours = mine(g).includes(room.side_to_move);
      if (g.opponent === 'local') return { text: `${sideName(g.game, room.side_to_move)} to move`, turn: false };
      if (room.offer && !mine(g).includes(room.offer.by)) return { text: `${room.offer.kind} offered to you`, turn: true };
      return ours ? { text: 'your turn', turn: true } : { text: 'their turn', turn: false };
    };
    const rows = games.map((g) => ({ g, at: where(g) }));
    const waiting = rows.filter((row) => row.at.turn).length;
    document.title = waiting ? `(${waiting}) Your turn · plateau` : 'plateau';
    recent.replaceChildren(
      h('h2', { id: 'recent-title' }, 'Your games'),
      games.length ? h('ul', { class: 'recent your-games' }, rows.map(({ g, at }) => h('li', { 'data-code': g.code, 'data-turn': at.turn ? 'mine' : '', class: at.turn ? 'my-turn' : '' },
        h('span', {},
          h('a', { href: `/r/${g.code}`, 'data-link': true }, `${g.title || g.game}${g.variant ? ` ${g.variant}` : ''}`),
          h('span', { class: 'meta' }, ` · ${mine(g).map((side) => sideName(g.game, side)).join(' & ')} ${opponent(g)} · `),
          h('span', { class: at.turn ? 'turn' : 'meta', 'data-standing': true }, at.text),
          h('span', { class: 'meta' }, ` · ${g.code}`)),
        h('button', { class: 'btn', type: 'button', 'aria-label': `Forget game ${g.code}`, onclick: () => { store.forget(g.code); renderRecent(); } }, '✕'))))
        : h('p', { class: 'meta' }, 'Games you start or join appear here, so you can come back to them.'),
      ...localList(),
      h('h2', {}, 'Join a game'),
      join);
  }

  /** Games against the computer in this browser. */
  function localList() {
    const games = localGames();
    if (!games.length) return [];
    const result = (g) => {
      if (!g.result) return 'in progress';
      return g.result.winner ? `${g.result.winner} won` : 'drawn';
    };
    return [
      h('h3', {}, 'In this browser'),
      h('ul', { class: 'recent local-games' }, games.map((g) => h('li', { 'data-local': g.id },
        h('span', {},
          h('a', { href: `/local/${g.id}`, 'data-link': true }, `${g.title || g.game}${g.variant ? ` ${g.variant}` : ''}`),
          h('span', { class: 'meta' }, ` · ${g.human} vs computer (${g.opponent || g.level}) · ${g.moves.length} moves · ${result(g)}`)),
        h('button', { class: 'btn', type: 'button', 'aria-label': `Forget local game ${g.id}`, onclick: () => { forgetLocal(g.id); renderRecent(); } }, '✕')))),
    ];
  }

  return {
    destroy() {
      gone = true;
      clearTimeout(lobbyTimer);
      clearTimeout(standingTimer);
      if (lobbyFeed) lobbyFeed.close();
    },
  };
}
