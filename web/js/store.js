// Games this browser plays, kept in localStorage so a reload, or a visit days
// later, finds its seats again. Only this browser ever sees the tokens.

const KEY = 'plateau.games';
const KEEP = 30;

function load() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(value) ? value.filter((g) => g && typeof g.code === 'string') : [];
  } catch (_) {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, KEEP)));
  } catch (_) { /* private mode or full: the game still plays, it is just not remembered */ }
}

/** Every remembered game, the most recent first. */
export function games() {
  return load().sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

export function get(code) {
  return load().find((g) => g.code === code) || null;
}

/** Adds or updates a game (fields merged, tokens merged). */
export function remember(entry) {
  const list = load();
  const old = list.find((g) => g.code === entry.code);
  const merged = { ...(old || {}), ...entry, tokens: { ...((old && old.tokens) || {}), ...(entry.tokens || {}) }, updated: Date.now() };
  save([merged, ...list.filter((g) => g.code !== entry.code)]);
  return merged;
}

export function forget(code) {
  save(load().filter((g) => g.code !== code));
}

/** Sets fields of a remembered game without making it the most recent. */
export function update(code, fields) {
  const list = load();
  const old = list.find((g) => g.code === code);
  if (!old) return;
  Object.assign(old, fields);
  save(list);
}
