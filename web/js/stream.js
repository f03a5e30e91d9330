// Server-Sent Events read with fetch(), not EventSource: EventSource cannot send
// the Authorization header that marks a seat connected. Reconnects by itself,
// with Last-Event-ID so the server replays exactly what was missed.

const SILENCE_LIMIT_MS = 45000; // the server sends a keep-alive every 15 s
const MAX_BACKOFF_MS = 8000;

/**
 * Opens the event stream of room `code`.
 * `onEvent(kind, data, id)` receives every event; `onConnection(status)` gets
 * 'open', 'lost' or 'gone' (the room no longer exists).
 */
export function openStream({ code, token, lastId, onEvent, onConnection }) {
  let stopped = false;
  let controller = null;
  let last = lastId ?? null;
  let wake = null;

  const sleep = (ms) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });

  async function once() {
    controller = new AbortController();
    const headers = { Accept: 'text/event-stream' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (last !== null) headers['Last-Event-ID'] = String(last);
    const response = await fetch(`/api/rooms/${encodeURIComponent(code)}/events`, {
      headers, signal: controller.signal, cache: 'no-store',
    });
    if (response.status === 404) return 'gone';
    if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
    onConnection('open');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let watchdog = null;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => controller.abort(), SILENCE_LIMIT_MS);
    };
    arm();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'closed';
        arm();
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          dispatch(block);
        }
      }
    } finally {
      clearTimeout(watchdog);
    }
  }

  function dispatch(block) {
    let id = null;
    let kind = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') id = value;
      else if (field === 'event') kind = value;
      else if (field === 'data') data.push(value);
    }
    if (id !== null && /^\d+$/.test(id)) last = Math.max(last ?? 0, Number(id));
    if (!data.length) return;
    let parsed;
    try { parsed = JSON.parse(data.join('\n')); } catch (_) { return; }
    onEvent(kind, parsed, id === null ? null : Number(id));
  }

  (async () => {
    let failures = 0;
    while (!stopped) {
      let ending;
      try {
        ending = await once();
        failures = 0;
      } catch (_) {
        ending = 'error';
      }
      if (stopped) return;
      if (ending === 'gone') {
        onConnection('gone');
        return;
      }
      onConnection('lost');
      failures += 1;
      // Half to one and a half times the backoff: when a server instance
      // dies, its pages come back spread over a second, not all at once.
      const backoff = Math.min(500 * 2 ** Math.min(failures, 5), MAX_BACKOFF_MS);
      await sleep(backoff * (0.5 + Math.random()));
    }
  })();

  const reconnect = () => { if (wake) wake(); };
  window.addEventListener('online', reconnect);

  return {
    /** The newest version the page has (from a POST answer, say). */
    seen(version) { if (typeof version === 'number') last = Math.max(last ?? 0, version); },
    /** Retries at once after a drop (the page came back to the foreground). */
    reconnect,
    close() {
      stopped = true;
      window.removeEventListener('online', reconnect);
      if (controller) controller.abort();
      if (wake) wake();
    },
  };
}
