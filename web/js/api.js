// The server's JSON API (docs/api.md). Tokens travel in the Authorization
// header, never in a URL.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (err) {
    throw new ApiError(0, 'the server cannot be reached; check the connection');
  }
  const text = await response.text();
  let value = null;
  try { value = text ? JSON.parse(text) : null; } catch (_) { value = null; }
  if (!response.ok) {
    const message = value && typeof value.error === 'string' ? value.error : `the server answered ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return value;
}

export const api = {
  games: () => request('GET', '/api/games'),
  lobby: () => request('GET', '/api/lobby'),
  /** Where each of these rooms stands (one request for a player's list). */
  summaries: (codes) => request('GET', `/api/rooms?codes=${codes.map(encodeURIComponent).join(',')}`),
  create: (body) => request('POST', '/api/rooms', { body }),
  state: (code) => request('GET', `/api/rooms/${encodeURIComponent(code)}`),
  join: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/join`, { body: {}, token }),
  play: (code, token, version, move) => request('POST', `/api/rooms/${encodeURIComponent(code)}/moves`, { body: { version, move }, token }),
  /** The board is shown: a first move against the AI is timed from now. */
  ready: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/ready`, { body: {}, token }),
  resign: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/resign`, { body: {}, token }),
  rematch: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/rematch`, { body: {}, token }),
  /** Whether `move` is legal now, and a warning if it loses by force. */
  check: (code, token, move) => request('POST', `/api/rooms/${encodeURIComponent(code)}/check`, { body: { move }, token }),
  positions: (code) => request('GET', `/api/rooms/${encodeURIComponent(code)}/positions`),
  /** `what`: draw or takeback; `action`: offer, accept or decline. */
  offer: (code, token, what, action) => request('POST', `/api/rooms/${encodeURIComponent(code)}/${what}`, { body: { action }, token }),
};
