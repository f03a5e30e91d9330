// Games against the computer in this browser: the rules and the engine run in
// a Web Worker (engine.js), the game lives in localStorage, and nothing
// reaches the server. A local game speaks the same interface as a server
// room (server.js), so the room view (game.js) draws both.

import { ApiError, api } from './api.js';
import { EngineStopped, sharedEngine } from './engine.js';

const KEY = 'plateau.local';
/** As the server: longer move lists (an Escampe placement) are not listed, and the page enters such moves its own way. */
export const MAX_LISTED_MOVES = 1000;
const KEEP = 30;
const other = (side) => (side === 'white' ? 'black' : 'white');

function loadAll() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(value) ? value.filter((g) => g && typeof g.id === 'string' && Array.isArray(g.moves)) : [];
  } catch (_) {
    return [];
  }
}

function saveAll(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, KEEP)));
  } catch (_) { /* full or private: the game plays on, unremembered */ }
}

/** Every local game kept, the most recent first. */
export function localGames() {
  return loadAll().sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

export function localGame(id) {
  return loadAll().find((g) => g.id === id) || null;
}

function keep(record) {
  record.updated = Date.now();
  saveAll([record, ...loadAll().filter((g) => g.id !== record.id)]);
}

export function forgetLocal(id) {
  saveAll(loadAll().filter((g) => g.id !== id));
}

function newId() {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => letters[b % letters.length]).join('');
}

/**
 * Starts a local game: `side` is the person's ('white', 'black' or
 * 'random'), `weights` an optional trained generation to play
 * (`opponent` names it).
 */
export function createLocalGame({ game, variant, title, level, side, start, weights, opponent }) {
  const human = side === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : side;
  const record = {
    id: newId(), game, variant: variant || null, title: title || game, level: level || 'medium',
    human, start: start || null, moves: [], by: [], result: null, weights: weights || null,
    opponent: opponent || null, version: 1, created: Date.now(),
  };
  keep(record);
  return record.id;
}

/**
 * A kept game with `by`, who played each move ('human' or 'computer'):
 * takebacks go back to the person's last move.
 */
function withMovers(record) {
  if (!record || (Array.isArray(record.by) && record.by.length === record.moves.length)) return record;
  return { ...record, by: record.moves.map(() => 'unknown') };
}

/** The result of a game the rules ended. */
const resultOf = (outcome) => ({ winner: outcome.winner, reason: outcome.reason });

/** The room interface (server.js) for local game `id`. */
export function localBackend(id) {
  const engine = sharedEngine();
  let record = withMovers(localGame(id));
  let info = null;
  let thinking = false;
  let lastInfo = null;
  let moveNowAsked = false;
  let listener = null;
  const token = 'local';

  const request = (extra) => ({ game: record.game, variant: record.variant, start: record.start, moves: record.moves, ...extra });

  function status() {
    return record.result ? 'finished' : 'playing';
  }

  function view() {
    const playing = status() === 'playing';
    const computer = other(record.human);
    const seat = (side) => ({ taken: true, connected: true, ai: side === computer });
    return {
      code: record.id,
      local: true,
      game: info ? info.game.split('/')[0] : record.game,
      variant: record.variant,
      title: record.title,
      version: record.version,
      start: info ? info.start : '',
      position: info ? info.position : '',
      moves: record.moves,
      side_to_move: info ? info.side_to_move : 'white',
      legal_moves: !playing || !info ? [] : info.legal_moves.length <= MAX_LISTED_MOVES ? info.legal_moves : null,
      legal_move_count: playing && info ? info.legal_moves.length : 0,
      seats: { white: seat('white'), black: seat('black') },
      status: status(),
      result: record.result,
      ai: { seat: computer, level: record.opponent || record.level, thinking, queue: 0, local: true, info: lastInfo },
      rematch: null,
      offer: null,
      draw_by_agreement: false,
      can_take_back: { [record.human]: playing && record.by.includes('human'), [computer]: false },
      log: [],
      public: false,
      clock: null,
      record: info ? info.record : '',
    };
  }

  function emit() {
    if (listener) listener.onEvent('state', view());
  }

  function save() {
    record.version += 1;
    keep(record);
  }

  async function compute() {
    const asked = record.moves.join(' ');
    const answer = await engine.request({ op: 'state', ...request() });
    // Another tab or a takeback moved the game on meanwhile: its own compute follows.
    if (record.moves.join(' ') !== asked) return;
    info = answer;
    if (info.outcome && !record.result) {
      record.result = resultOf(info.outcome);
      keep(record);
    }
  }

  async function computerMoves() {
    if (thinking || !info || status() !== 'playing' || info.side_to_move === record.human) return;
    // Only on the position the game is at.
    if (info.moves.join(' ') !== record.moves.join(' ')) return;
    thinking = true;
    lastInfo = null;
    moveNowAsked = false;
    emit();
    // The exact line searched: a takeback, a resignation or another tab's
    // move while it thought makes the answer old news.
    const asked = record.moves.join(' ');
    let move = null;
    try {
      const thought = await engine.request({
        op: 'think', ...request(), level: record.level, weights: record.weights,
        seed: crypto.getRandomValues(new Uint32Array(1))[0],
      }, (report) => {
        if (report && report.info) {
          lastInfo = report.info;
          emit();
        }
      });
      move = thought.best;
    } catch (err) {
      if (err instanceof EngineStopped) {
        // "Move now": the best move of the deepest finished iteration.
        if (moveNowAsked && lastInfo && lastInfo.pv.length) move = lastInfo.pv[0];
      } else {
        thinking = false;
        emit();
        throw err;
      }
    }
    thinking = false;
    if (move && record.moves.join(' ') === asked && status() === 'playing') {
      record.moves = [...record.moves, move];
      record.by = [...record.by, 'computer'];
      save();
      await compute();
      emit();
      // Its turn again (Escampe: White places, then moves first).
      wake();
      return;
    }
    emit();
  }

  function wake() {
    computerMoves().catch((err) => {
      if (listener && listener.onError) listener.onError(err);
    });
  }

  const ready = (async () => {
    if (!record) throw new ApiError(404, `there is no game ${id} in this browser`);
    await compute();
  })();

  const checked = (given) => {
    if (given !== token) throw new ApiError(403, 'this seat is not yours');
  };

  return {
    local: true,
    tokens: record ? { [record.human]: token } : {},
    path: (code) => `/local/${code}`,

    async state() {
      await ready;
      wake();
      return view();
    },

    async play(given, version, move) {
      await ready;
      checked(given);
      if (status() !== 'playing') throw new ApiError(409, 'the game is over');
      if (version !== record.version) throw new ApiError(409, 'the game changed meanwhile (another tab?): try again');
      if (info.side_to_move !== record.human || thinking) throw new ApiError(409, 'it is not your move');
      const line = record.moves.join(' ');
      let next;
      try {
        next = await engine.request({ op: 'state', ...request({ moves: [...record.moves, move] }) });
      } catch (err) {
        throw new ApiError(400, err.message.replace(/^move \d+ /, 'move '));
      }
      if (record.moves.join(' ') !== line || status() !== 'playing') throw new ApiError(409, 'the game changed meanwhile: try again');
      record.moves = next.moves;
      record.by = [...record.by, 'human'];
      info = next;
      if (info.outcome) record.result = resultOf(info.outcome);
      save();
      wake();
      return view();
    },

    async resign(given) {
      await ready;
      checked(given);
      if (status() !== 'playing') throw new ApiError(409, 'the game is over');
      if (thinking) engine.stop();
      record.result = { winner: other(record.human), reason: 'resignation' };
      save();
      return view();
    },

    /** A takeback is granted at once: back to before the person's last move. */
    async offer(given, what) {
      await ready;
      checked(given);
      if (what !== 'takeback') throw new ApiError(400, 'the computer plays on: no draw offers here');
      const last = record.by.lastIndexOf('human');
      if (status() !== 'playing' || last < 0) throw new ApiError(409, 'there is no move of yours to take back');
      if (thinking) engine.stop();
      const moves = record.moves.slice(0, last);
      // The position first: the game changes only once it is known.
      const before = await engine.request({ op: 'state', ...request({ moves }) });
      if (status() !== 'playing') throw new ApiError(409, 'the game is over');
      record.moves = moves;
      record.by = record.by.slice(0, last);
      info = before;
      save();
      emit();
      wake();
      return view();
    },

    async rematch() {
      await ready;
      const code = createLocalGame({ ...record, side: other(record.human) });
      return { code };
    },

    async positions() {
      await ready;
      return engine.request({ op: 'positions', ...request() });
    },

    async check() {
      return { legal: true };
    },

    async join() {
      throw new ApiError(409, 'both seats of a local game are taken');
    },

    /** Whether the server could go on with this game (its levels, not a trained generation's weights). */
    canSave() {
      return Boolean(record) && !record.weights && status() === 'playing' && record.moves.length > 0 && !record.start;
    },

    /** Carries the game over to a room on the server, against its computer at the same level. */
    async saveAsRoom() {
      await ready;
      if (!this.canSave()) throw new ApiError(409, 'this game cannot be carried over to the server');
      // The computer here thinks on until the server has the game: if it
      // cannot be reached, nothing changes.
      const answer = await api.create({
        game: record.game, variant: record.variant || undefined, opponent: 'ai', level: record.level,
        seat: record.human, moves: record.moves,
      });
      if (thinking) engine.stop();
      // The game now lives on the server: one copy, not two diverging ones.
      const carried = { ...answer, game: record.game, variant: record.variant, title: record.title, level: record.level };
      record.result = { winner: null, reason: `continued on the server in room ${answer.code}` };
      forgetLocal(record.id);
      return carried;
    },

    /** Ends the computer's search now: it plays the best move of its deepest finished iteration. */
    moveNow() {
      if (!thinking || !lastInfo) return;
      moveNowAsked = true;
      engine.stop();
    },

    openStream({ onEvent, onConnection, onError }) {
      listener = { onEvent, onError };
      onConnection('open');
      // The same game moved on in another tab: follow it.
      const onStorage = (event) => {
        if (event.key !== KEY) return;
        const newer = localGame(id);
        if (!newer || newer.version <= record.version) return;
        if (thinking) engine.stop();
        record = withMovers(newer);
        compute().then(() => { emit(); wake(); }, (err) => { if (onError) onError(err); });
      };
      window.addEventListener('storage', onStorage);
      ready.then(() => { emit(); wake(); }, (err) => {
        onConnection('gone');
        if (onError) onError(err);
      });
      return {
        close() {
          listener = null;
          window.removeEventListener('storage', onStorage);
        },
        reconnect() {},
        seen() {},
      };
    },
  };
}
