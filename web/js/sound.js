// Sounds of the room page: a move, a capture, and low time. Off until the
// player turns them on; the choice is remembered. Made with WebAudio tones,
// so the page carries no sound files.

const KEY = 'plateau.sound';
let context = null;

export function soundOn() {
  try { return localStorage.getItem(KEY) === 'on'; } catch (_) { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch (_) { /* not remembered */ }
  if (on) tone(660, 0.05, 0.05);
}

/** Which side a board model's cell value belongs to, whatever the game. */
function sideOf(value) {
  if (!value) return null;
  if (typeof value === 'object') return value.side || null;
  if (value === 'white' || value === 'black') return value;
  // Escampe's letters: b/B are White's, n/N Black's.
  if (value === 'b' || value === 'B') return 'white';
  if (value === 'n' || value === 'N') return 'black';
  return null;
}

function count(model, side) {
  let n = 0;
  if (model && model.board) for (const value of model.board.values()) if (sideOf(value) === side) n += 1;
  return n;
}

/** The sound a move makes: a capture when the other side has fewer pieces after it. */
export function moveSound(before, after, mover) {
  if (!soundOn() || !after) return;
  const victim = mover === 'white' ? 'black' : 'white';
  if (before && count(after, victim) < count(before, victim)) {
    tone(320, 0.09, 0.09);
    tone(220, 0.12, 0.08, 0.08);
  } else {
    tone(520, 0.06, 0.06);
  }
}

/** A short double beep: the player's own time runs low. */
export function lowTimeSound() {
  if (!soundOn()) return;
  tone(880, 0.08, 0.06);
  tone(880, 0.08, 0.06, 0.15);
}

function tone(frequency, length, volume, delay = 0) {
  try {
    if (!context) context = new (window.AudioContext || window.webkitAudioContext)();
    // Made before any click (the computer moved first, a reload with sound
    // on), the context starts suspended: resume it, or every sound is silent.
    if (context.state === 'suspended' && context.resume) context.resume().catch(() => {});
    const at = context.currentTime + delay;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + length + 0.02);
  } catch (_) { /* no audio here: silence */ }
}
