// Training in the page, as the draughts seed did: the tuner of `plateau tune`
// (evolution or SPSA, the same Rust code compiled to WebAssembly) runs in a
// Web Worker; the curve of each generation's champion against the start
// weights is drawn live with its 95% interval; every generation is kept in
// localStorage and can be played against.

import { esc, h } from './dom.js';
import { LocalEngine, EngineStopped } from './engine.js';
import { createLocalGame } from './local.js';

const KEY = 'plateau.training';
const KEEP_RUNS = 10;

/** A kept generation as the page draws it; anything else in storage is left out. */
function wellFormed(g) {
  return Boolean(g) && Number.isInteger(g.number) && Array.isArray(g.weights) && g.weights.every(Number.isFinite)
    && Boolean(g.measure) && ['score', 'low', 'high', 'wins', 'draws', 'losses'].every((k) => Number.isFinite(g.measure[k]));
}

function loadRuns() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || '[]');
    if (!Array.isArray(value)) return [];
    return value
      .filter((r) => r && typeof r.id === 'string' && typeof r.game === 'string' && Array.isArray(r.generations))
      .map((r) => ({ ...r, features: Array.isArray(r.features) ? r.features : [], generations: r.generations.filter(wellFormed) }));
  } catch (_) {
    return [];
  }
}

function saveRun(run) {
  const runs = [run, ...loadRuns().filter((r) => r.id !== run.id)].slice(0, KEEP_RUNS);
  try {
    localStorage.setItem(KEY, JSON.stringify(runs));
  } catch (_) { /* full: the run goes on, unkept */ }
}

function deleteRun(id) {
  try {
    localStorage.setItem(KEY, JSON.stringify(loadRuns().filter((r) => r.id !== id)));
  } catch (_) { /* nothing to do */ }
}

export function trainView(root, { navigate }) {
  let engine = null;
  let catalogue = null;
  let run = loadRuns()[0] || null;
  let running = false;
  let stage = '';
  let destroyed = false;
  let problem = '';

  const form = h('form', { class: 'card train-form' }, h('p', {}, 'Loading the engine…'));
  const status = h('p', { class: 'status', 'aria-live': 'polite' });
  const curve = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  curve.setAttribute('class', 'curve');
  curve.setAttribute('role', 'img');
  const generations = h('ol', { class: 'generations', start: '0' });
  const runs = h('div', { class: 'runs' });
  const section = h('section', { class: 'train', 'data-generations': '0', 'data-running': 'false' },
    h('div', { class: 'card' },
      h('h1', {}, 'Training'),
      h('p', { class: 'meta local-note', 'data-local': 'true' }, 'The tuner of plateau tune runs in this browser. Each generation’s champion plays the start weights: the curve shows its score with a 95% interval. Every generation is kept here and can be played.'),
      form, status),
    h('div', { class: 'card' }, h('h2', {}, 'Curve'), curve, h('h2', {}, 'Generations'), generations, runs));
  root.replaceChildren(section);

  const number = (name, label, value, min, max) => h('label', { class: 'inline' }, `${label} `,
    h('input', { type: 'number', name, value: String(value), min: String(min), max: String(max), required: true }));

  function buildForm() {
    const select = h('select', { name: 'game', 'aria-label': 'Game' }, catalogue.games.map((g) => h('option', { value: g.name }, g.title)));
    const method = h('select', { name: 'method', 'aria-label': 'Method' }, [['evolution', 'Evolution (the seed’s)'], ['spsa', 'SPSA']].map(([v, l]) => h('option', { value: v }, l)));
    form.replaceChildren(
      h('div', { class: 'choices' }, select, method),
      h('div', { class: 'choices' },
        number('generations', 'Generations', 10, 1, 200),
        number('population', 'Population', 8, 2, 64),
        number('games', 'Games each', 2, 2, 64),
        number('depth', 'Depth', 2, 1, 6),
        number('measure_games', 'Measure games', 8, 2, 200)),
      h('div', { class: 'actions' },
        h('button', { class: 'btn primary', type: 'submit', 'data-action': 'train' }, 'Start training'),
        h('button', { class: 'btn', type: 'button', 'data-action': 'stop-training', onclick: stop }, 'Stop')));
    form.onsubmit = (event) => {
      event.preventDefault();
      start();
    };
    render();
  }

  async function start() {
    if (running) return;
    const f = form.elements;
    const settings = {
      op: 'tune', game: f.game.value, method: f.method.value,
      generations: Number(f.generations.value), population: Number(f.population.value),
      games: Number(f.games.value) + (Number(f.games.value) % 2), depth: Number(f.depth.value),
      measure_games: Number(f.measure_games.value) + (Number(f.measure_games.value) % 2),
      seed: crypto.getRandomValues(new Uint32Array(1))[0],
    };
    const known = catalogue.games.find((g) => g.name === settings.game);
    run = {
      id: `${Date.now().toString(36)}`,
      game: settings.game,
      title: known ? known.title : settings.game,
      method: settings.method,
      settings,
      features: known ? known.features : [],
      created: Date.now(),
      generations: [],
      finished: false,
    };
    running = true;
    problem = '';
    stage = 'starting';
    render();
    try {
      const answer = await engine.request(settings, (report) => {
        if (destroyed || !report) return;
        if (report.stage) stage = `${report.stage.name}${report.stage.games ? `: ${report.stage.games} games` : ''}`;
        if (report.generation) {
          run.generations.push(report.generation);
          saveRun(run);
        }
        render();
      });
      run.start = answer.start;
      run.finished = true;
      saveRun(run);
      stage = `done: ${answer.generations} generations in ${(answer.time_ms / 1000).toFixed(1)} s`;
    } catch (err) {
      stage = err instanceof EngineStopped ? `stopped after ${run.generations.length} generations` : '';
      if (!(err instanceof EngineStopped)) problem = err.message;
    }
    running = false;
    render();
  }

  function stop() {
    if (!running) return;
    engine.stop();
  }

  function play(generation) {
    const level = section.querySelector('select[name="opponent-level"]');
    const id = createLocalGame({
      game: run.game, title: run.title, level: level ? level.value : 'medium', side: 'random',
      weights: generation.weights,
      opponent: `generation ${generation.number} of training ${run.id}`,
    });
    navigate(`/local/${id}`);
  }

  function drawCurve() {
    const points = run ? run.generations : [];
    const width = 600;
    const height = 240;
    const pad = 36;
    const count = Math.max(points.length, 2);
    const x = (n) => pad + ((n - 1) / Math.max(count - 1, 1)) * (width - 2 * pad);
    const y = (score) => height - pad - score * (height - 2 * pad);
    const parts = [
      `<rect class="curve-frame" x="${pad}" y="${pad}" width="${width - 2 * pad}" height="${height - 2 * pad}"/>`,
      `<line class="curve-even" x1="${pad}" x2="${width - pad}" y1="${y(0.5)}" y2="${y(0.5)}"/>`,
      `<text class="curve-label" x="4" y="${y(1) + 4}">100%</text><text class="curve-label" x="4" y="${y(0.5) + 4}">50%</text><text class="curve-label" x="4" y="${y(0) + 4}">0%</text>`,
      `<text class="curve-label" x="${width / 2}" y="${height - 6}" text-anchor="middle">generation</text>`,
    ];
    const path = [];
    for (const kept of points) {
      // Numbers only into the markup, whatever localStorage holds.
      const p = { number: Number(kept.number) };
      const m = { ...kept.measure };
      for (const key of ['score', 'low', 'high', 'wins', 'draws', 'losses']) m[key] = Number(m[key]);
      parts.push(`<line class="curve-error" x1="${x(p.number)}" x2="${x(p.number)}" y1="${y(m.low)}" y2="${y(m.high)}"/>`);
      parts.push(`<circle class="curve-point" data-generation="${p.number}" cx="${x(p.number)}" cy="${y(m.score)}" r="4"><title>generation ${p.number}: ${(100 * m.score).toFixed(1)}% (+${m.wins} =${m.draws} -${m.losses}), ${esc(m.elo)}</title></circle>`);
      path.push(`${path.length ? 'L' : 'M'}${x(p.number)} ${y(m.score)}`);
      parts.push(`<text class="curve-label" x="${x(p.number)}" y="${height - pad + 14}" text-anchor="middle">${p.number}</text>`);
    }
    if (path.length > 1) parts.splice(2, 0, `<path class="curve-line" d="${path.join(' ')}"/>`);
    curve.setAttribute('viewBox', `0 0 ${width} ${height}`);
    curve.setAttribute('aria-label', points.length ? `Score of each generation's champion against the start weights, ${points.length} generations` : 'No generation yet');
    curve.innerHTML = parts.join('');
  }

  function render() {
    if (destroyed) return;
    section.dataset.generations = String(run ? run.generations.length : 0);
    section.dataset.running = String(running);
    status.textContent = problem || (running ? `Training: ${stage}…` : stage);
    status.classList.toggle('bad', Boolean(problem));
    const train = form.querySelector('[data-action="train"]');
    if (train) train.disabled = running;
    const halt = form.querySelector('[data-action="stop-training"]');
    if (halt) halt.disabled = !running;
    drawCurve();
    const levels = (catalogue && catalogue.levels) || ['medium'];
    const levelSelect = h('select', { name: 'opponent-level', 'aria-label': 'Level of a generation as opponent' }, levels.map((l) => h('option', { value: l, selected: l === 'medium' }, l)));
    const rows = run ? run.generations.map((g) => h('li', { value: String(g.number), 'data-generation': String(g.number) },
      h('span', {}, `Generation ${g.number}: ${(100 * g.measure.score).toFixed(1)}% against the start weights (+${g.measure.wins} =${g.measure.draws} -${g.measure.losses}) `),
      h('button', { class: 'btn', type: 'button', 'data-action': 'play-generation', onclick: () => play(g) }, 'Play it'),
      h('details', {}, h('summary', {}, 'Weights'), h('code', {}, g.weights.map((w, i) => `${run.features[i] || i}=${Number(w.toFixed(3))}`).join(' '))))) : [];
    generations.replaceChildren(...rows);
    const earlier = loadRuns().filter((r) => !run || r.id !== run.id);
    runs.replaceChildren(
      h('label', { class: 'inline' }, 'Play generations at level ', levelSelect),
      earlier.length ? h('h3', {}, 'Earlier runs') : '',
      ...earlier.map((r) => h('p', { 'data-run': r.id },
        `${r.title}, ${r.method}, ${r.generations.length} generations `,
        h('button', { class: 'btn', type: 'button', onclick: () => { if (!running) { run = r; render(); } } }, 'Show'),
        ' ',
        h('button', { class: 'btn', type: 'button', 'aria-label': `Delete run ${r.id}`, onclick: () => { deleteRun(r.id); render(); } }, '✕'))));
  }

  engine = new LocalEngine();
  engine.request({ op: 'games' }).then((answer) => {
    if (destroyed) return;
    catalogue = answer;
    buildForm();
  }, (err) => {
    form.replaceChildren(h('p', { class: 'error' }, err.message));
  });
  render();

  return {
    destroy() {
      destroyed = true;
      engine.close();
    },
  };
}
