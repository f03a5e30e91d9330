// The in-browser engine's Web Worker: loads plateau.wasm (the games, the
// search and the tuner, built from crates/wasm) and answers the page's
// requests one at a time, so thinking never freezes the page.
//
// Messages in: {id, request} (a JSON request, crates/wasm/src/ops.rs).
// Messages out: {id, report} while a request runs (search iterations, tuning
// generations), then {id, answer}; {ready: true} once the module is loaded.
// A search is stopped by terminating the worker (the page does that and
// starts another): a WebAssembly call cannot be interrupted from outside.

'use strict';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
let exports = null;
let current = null;
// The message of a panic, reported just before the module traps.
let panic = null;

function text(ptr, len) {
  return decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len));
}

const imports = {
  plateau: {
    now_ms: () => performance.now(),
    report: (ptr, len) => {
      let value;
      try { value = JSON.parse(text(ptr, len)); } catch (_) { return; }
      if (value && typeof value.panic === 'string') {
        panic = value.panic;
        return;
      }
      postMessage({ id: current, report: value });
    },
  },
};

async function load() {
  const url = new URL('plateau.wasm', self.location.href);
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(url), imports));
  } catch (_) {
    // A server without the WebAssembly content type: compile from bytes.
    const bytes = await (await fetch(url)).arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, imports));
  }
  exports = instance.exports;
}

let ready = load().then(() => postMessage({ ready: true }), (err) => {
  postMessage({ failed: `the engine could not be loaded: ${err.message}` });
  throw err;
});

function call(request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = exports.plateau_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    const len = exports.plateau_call(ptr, bytes.length);
    return JSON.parse(text(exports.plateau_answer(), len));
  } finally {
    exports.plateau_free(ptr, bytes.length);
  }
}

self.onmessage = async (event) => {
  const { id, request } = event.data || {};
  try {
    await ready;
  } catch (err) {
    postMessage({ id, answer: { error: `the engine could not be loaded: ${err.message}` } });
    return;
  }
  current = id;
  panic = null;
  let answer;
  try {
    answer = call(request);
  } catch (err) {
    // A trap (a bug in the engine) leaves the module unusable: load a fresh one.
    answer = { error: `the engine failed: ${panic || err.message}` };
    // The module is unusable after a trap: the page starts a fresh worker.
    current = null;
    postMessage({ id, answer });
    postMessage({ failed: answer.error });
    self.close();
    return;
  }
  current = null;
  postMessage({ id, answer });
};
