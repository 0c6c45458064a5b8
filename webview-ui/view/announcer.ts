// The page's one polite live region. Only what a person must hear without looking goes through it
// (how the run ended, unreadable log lines, the banner, a chart value read by keyboard), never
// the event count: a live run appends many events a second.
export class Announcer {
  readonly el: HTMLElement;
  private last = '';

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.id = 'announcer';
    this.el.className = 'sr-only';
    this.el.setAttribute('role', 'status');
    this.el.setAttribute('aria-live', 'polite');
    this.el.setAttribute('aria-atomic', 'true');
    parent.append(this.el);
  }

  /** Says `text` (a changed text is what screen readers announce; the same text again is not). */
  say(text: string): void {
    if (!text || text === this.last) return;
    this.last = text;
    this.el.textContent = text;
  }
}
