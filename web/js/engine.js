// The engine in this browser: a Web Worker running the same Rust rules,
// search and tuner as the server, compiled to WebAssembly (web/engine/).
// Nothing here needs the server once the page and the module are loaded.

export class EngineStopped extends Error {
  constructor() {
    super('stopped');
    this.stopped = true;
  }
}

export class LocalEngine {
  constructor() {
    this.next = 1;
    this.pending = new Map();
    this.spawn();
  }

  spawn() {
    this.worker = new Worker('/engine/worker.js');
    this.loaded = new Promise((resolve, reject) => {
      this.onLoaded = resolve;
      this.onFailed = reject;
    });
    this.loaded.catch(() => {});
    this.worker.onmessage = (event) => this.receive(event.data || {});
    this.failed = false;
    this.worker.onerror = (event) => {
      const error = new Error(`the engine's worker failed: ${event.message || 'its script could not be loaded'}`);
      this.failed = true;
      this.onFailed(error);
      this.rejectAll(error);
    };
  }

  receive(message) {
    if (message.ready) {
      this.onLoaded();
      return;
    }
    if (message.failed) {
      const error = new Error(message.failed);
      this.failed = true;
      this.onFailed(error);
      this.rejectAll(error);
      return;
    }
    const job = this.pending.get(message.id);
    if (!job) return;
    if ('report' in message) {
      if (job.onReport) job.onReport(message.report);
      return;
    }
    this.pending.delete(message.id);
    const answer = message.answer || {};
    if (answer.error) job.reject(new Error(answer.error));
    else job.resolve(answer);
  }

  /** One request (crates/wasm/src/ops.rs); `onReport` hears its progress. */
  request(request, onReport) {
    // A worker that could not start (the server away, with no copy of the
    // engine kept): try a fresh one rather than wait for it forever.
    if (this.failed) {
      this.worker.terminate();
      this.spawn();
    }
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onReport });
      this.worker.postMessage({ id, request });
    });
  }

  /** Fails every request under way with `error`. */
  rejectAll(error) {
    for (const [, job] of this.pending) job.reject(error);
    this.pending.clear();
  }

  /** Whether a request is under way. */
  busy() {
    return this.pending.size > 0;
  }

  /**
   * Stops whatever runs now: the worker is ended and a fresh one started
   * (a WebAssembly call cannot be interrupted); waiting requests fail with
   * EngineStopped.
   */
  stop() {
    if (!this.pending.size) return;
    this.worker.terminate();
    this.rejectAll(new EngineStopped());
    this.spawn();
  }

  close() {
    this.worker.terminate();
    this.rejectAll(new EngineStopped());
  }
}

let shared = null;

/** The engine local games share (analysis and training start their own). */
export function sharedEngine() {
  if (!shared) shared = new LocalEngine();
  return shared;
}
