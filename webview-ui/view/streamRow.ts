// The turn being generated: a row under the list that fills with the model's text as it streams,
// its thinking collapsed below it. The `model` event of that turn replaces it (the list then shows
// the finished reply). Redrawn once per animation frame at most, however fast deltas come.
import { showControlChars } from '../../src/harness/protocol/controlChars';

/** Characters of streamed text kept on screen (the whole reply is in the model event). */
const SHOWN_CHARS = 4000;

export class StreamRow {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly text: HTMLElement;
  private readonly thinking: HTMLDetailsElement;
  private readonly thinkingSummary: HTMLElement;
  private readonly thinkingBody: HTMLPreElement;
  private turn = 0;
  private said = '';
  private thought = '';
  private frame = 0;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('section');
    this.el.className = 'stream-row';
    this.el.id = 'stream-row';
    this.el.hidden = true;
    this.el.setAttribute('aria-labelledby', 'stream-title');
    this.el.setAttribute('aria-busy', 'true');
    this.title = document.createElement('div');
    this.title.id = 'stream-title';
    this.title.className = 'stream-title';
    this.text = document.createElement('div');
    this.text.className = 'stream-text';
    this.thinking = document.createElement('details');
    this.thinking.className = 'thinking';
    this.thinking.hidden = true;
    this.thinkingSummary = document.createElement('summary');
    this.thinkingBody = document.createElement('pre');
    this.thinking.append(this.thinkingSummary, this.thinkingBody);
    this.el.append(this.title, this.thinking, this.text);
    parent.append(this.el);
  }

  get streamingTurn(): number | null {
    return this.el.hidden ? null : this.turn;
  }

  add(turn: number, text: string, thinking: string): void {
    if (turn < this.turn) return; // a late delta of a finished turn
    if (turn !== this.turn) {
      this.turn = turn;
      this.said = '';
      this.thought = '';
    }
    this.said += text;
    this.thought += thinking;
    this.frame ||= requestAnimationFrame(() => this.render());
  }

  /** A new snapshot (maybe of another run): no turn is known to be finished any more. */
  reset(): void {
    this.end(null);
    this.turn = 0;
  }

  /** The reply of `turn` is complete (its model event arrived), or the run ended. */
  end(turn: number | null): void {
    if (turn !== null && turn < this.turn) return;
    if (turn !== null) this.turn = turn + 1; // later deltas of that turn are stale
    this.said = '';
    this.thought = '';
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.el.hidden) this.el.hidden = true; // at every model event: no attribute write when nothing changes
  }

  private render(): void {
    this.frame = 0;
    if (!this.said && !this.thought) return;
    this.el.hidden = false;
    this.title.textContent = `Turn ${this.turn} · generating…`;
    const shown = this.said.length > SHOWN_CHARS ? `…${this.said.slice(-SHOWN_CHARS)}` : this.said;
    this.text.textContent = showControlChars(shown);
    this.thinking.hidden = !this.thought;
    this.thinkingSummary.textContent = `Thinking · ${this.thought.length.toLocaleString('en-US')} characters`;
    this.thinkingBody.textContent = showControlChars(this.thought.length > SHOWN_CHARS ? `…${this.thought.slice(-SHOWN_CHARS)}` : this.thought);
  }
}
