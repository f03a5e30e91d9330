// A room on the server, behind the interface the room view (game.js) uses;
// local.js gives a game in this browser the same interface.

import { api } from './api.js';
import { openStream } from './stream.js';

export function serverBackend(code) {
  return {
    local: false,
    tokens: null,
    path: (room) => `/r/${room}`,
    state: () => api.state(code),
    play: (token, version, move) => api.play(code, token, version, move),
    resign: (token) => api.resign(code, token),
    ready: (token) => api.ready(code, token),
    offer: (token, what, action) => api.offer(code, token, what, action),
    rematch: (token) => api.rematch(code, token),
    positions: () => api.positions(code),
    check: (token, move) => api.check(code, token, move),
    join: () => api.join(code),
    moveNow() {},
    canSave: () => false,
    saveAsRoom: async () => { throw new Error('already on the server'); },
    openStream: (options) => openStream({ code, ...options }),
  };
}
