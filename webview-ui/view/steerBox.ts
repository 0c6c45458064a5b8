// "Tell the agent": a labelled text box under the list. Enter sends (Shift+Enter starts a new line);
// the extension delivers the message to the running agent at its next turn and the outcome is
// shown and announced in the box's own status line.
export class SteerBox {
  readonly el: HTMLFormElement;
  readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly status: HTMLElement;
  private waiting = false;

  constructor(
    parent: HTMLElement,
    private readonly onSend: (text: string) => void,
  ) {
    this.el = document.createElement('form');
    this.el.className = 'steer';
    this.el.id = 'steer';
    this.el.setAttribute('aria-label', 'Tell the agent');
    const label = document.createElement('label');
    label.htmlFor = 'steer-input';
    label.textContent = 'Tell the agent';
    this.input = document.createElement('textarea');
    this.input.id = 'steer-input';
    this.input.rows = 1;
    this.input.maxLength = 20_000;
    this.input.placeholder = 'A message for the agent';
    this.input.setAttribute('aria-describedby', 'steer-hint');
    const hint = document.createElement('span');
    hint.id = 'steer-hint';
    hint.className = 'sr-only';
    hint.textContent = 'Enter sends, Shift+Enter starts a new line. With no run going, Kite offers to make it a new feature.';
    this.send = document.createElement('button');
    this.send.type = 'submit';
    this.send.className = 'steer-send';
    this.send.textContent = 'Send';
    this.status = document.createElement('div');
    this.status.id = 'steer-status';
    this.status.className = 'steer-status';
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    const row = document.createElement('div');
    row.className = 'steer-row';
    row.append(this.input, this.send);
    this.el.append(label, row, hint, this.status);
    this.el.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
    this.input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        this.submit();
      }
    });
    parent.append(this.el);
  }

  /** The extension's answer: the status line says it (and the text is kept when nothing was sent). */
  result(ok: boolean, message: string): void {
    this.waiting = false;
    this.send.disabled = false;
    if (ok) this.input.value = '';
    this.say(message, ok ? 'ok' : 'error');
  }

  private submit(): void {
    const text = this.input.value;
    if (this.waiting) return;
    if (!text.trim()) {
      this.say('Type a message for the agent first.', 'error');
      return;
    }
    this.waiting = true;
    this.send.disabled = true;
    this.say('Sending…', '');
    this.onSend(text);
  }

  private say(message: string, level: string): void {
    this.status.className = `steer-status ${level}`;
    // The same words twice must be heard twice: empty the region, then fill it.
    this.status.textContent = '';
    requestAnimationFrame(() => (this.status.textContent = message));
  }
}
