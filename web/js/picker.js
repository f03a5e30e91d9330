// Turning clicks into moves, the same way for every game whose moves are a
// sequence of cells: each legal move lists the click sequences that enter it
// (`B1`,`D1` for Escampe's B1-D1; the shortcut start-end and the full landing
// path of a draughts capture; the target alone or a stone then the target of
// an Ataxx clone). The picker offers, after the clicks so far, the cells that
// continue some sequence; a move is played when the clicks complete exactly one.

export class SequencePicker {
  /** `entries`: [{move, seqs: [[cell, ...], ...]}]; entries with no sequence are buttons. */
  constructor(entries) {
    this.entries = entries.filter((e) => e.seqs.length);
    this.buttons = entries.filter((e) => !e.seqs.length).map((e) => e.move);
    this.clicks = [];
    this.pending = null; // a move completed but shared with longer ones
    const first = this.next([]);
    const steps = [...first.entries()].filter(([, kind]) => kind === 'step');
    // A single playable piece is selected from the start.
    if (first.size === 1 && steps.length === 1) this.clicks = [steps[0][0]];
  }

  static starts(seq, prefix) {
    if (seq.length < prefix.length) return false;
    for (let i = 0; i < prefix.length; i += 1) if (seq[i] !== prefix[i]) return false;
    return true;
  }

  /** Cells continuing `prefix` -> 'final' (ends a move) or 'step' (a waypoint or a piece). */
  next(prefix) {
    const out = new Map();
    for (const entry of this.entries) {
      for (const seq of entry.seqs) {
        if (seq.length <= prefix.length || !SequencePicker.starts(seq, prefix)) continue;
        const cell = seq[prefix.length];
        const kind = seq.length === prefix.length + 1 ? 'final' : 'step';
        if (out.get(cell) !== 'step') out.set(cell, kind);
      }
    }
    return out;
  }

  completes(clicks) {
    const done = new Set();
    for (const entry of this.entries) {
      if (entry.seqs.some((s) => s.length === clicks.length && SequencePicker.starts(s, clicks))) done.add(entry.move);
    }
    return done;
  }

  extends(clicks, except) {
    return this.entries.some((e) => e.move !== except && e.seqs.some((s) => s.length > clicks.length && SequencePicker.starts(s, clicks)));
  }

  /** What the board shows. */
  view() {
    const first = this.next([]);
    const playable = new Set([...first].filter(([, k]) => k === 'step').map(([c]) => c));
    const targets = this.clicks.length ? this.next(this.clicks) : new Map([...first].filter(([, k]) => k === 'final'));
    if (this.pending) targets.set(this.clicks[this.clicks.length - 1], 'final');
    return { playable, selected: new Set(this.clicks), targets, hasSelection: this.clicks.length > 0 };
  }

  /** A click on `cell`: returns {move} to play, {changed} to redraw, or {ignored}. */
  click(cell) {
    const last = this.clicks[this.clicks.length - 1];
    if (this.clicks.length === 1 && cell === last && !this.pending && !this.next(this.clicks).has(cell)) {
      // A second click on the selected piece puts it down.
      this.clicks = [];
      return { changed: true };
    }
    if (this.pending && cell === last) {
      const move = this.pending;
      this.pending = null;
      return { move };
    }
    const tryFrom = (prefix) => {
      if (!this.next(prefix).has(cell)) return null;
      const clicks = [...prefix, cell];
      const done = this.completes(clicks);
      if (done.size === 1) {
        const [move] = done;
        if (!this.extends(clicks, move)) {
          this.clicks = [];
          this.pending = null;
          return { move };
        }
        this.pending = move;
      } else {
        this.pending = null;
      }
      this.clicks = clicks;
      return { changed: true };
    };
    const result = (this.clicks.length && tryFrom(this.clicks)) || tryFrom([]);
    if (result) return result;
    if (this.clicks.length) {
      this.clicks = [];
      this.pending = null;
      return { changed: true };
    }
    return { ignored: true };
  }
}
