// The pane under the list: what the selected event says in full (as far as the webview holds it)
// and the actions it offers. Text goes in with textContent only: log text is never markup.
import type { KiteEvent } from '../../src/harness/protocol/events';
import { showControlChars } from '../../src/harness/protocol/controlChars';
import { fullLengthOf, isTrimmed } from '../../src/harness/protocol/webviewMessages';
import { ACTION_DIFF, ACTION_OUTPUT, ACTION_RAW, ACTION_REPLAY, ACTION_RESTORE, type Row } from '../model/rows';
import { formatClock, formatMs, formatUsd } from '../model/format';
import { checkExitText } from '../../src/harness/protocol/checkExit';

export type RowAction = 'openDiff' | 'openOutput' | 'openRaw' | 'replayFromHere' | 'restoreToHere';

const ACTIONS: { flag: number; action: RowAction; label: string; title: string }[] = [
  { flag: ACTION_DIFF, action: 'openDiff', label: 'Open diff', title: 'The write as proposed and as applied' },
  { flag: ACTION_OUTPUT, action: 'openOutput', label: 'Full output', title: 'The whole output of the call or check' },
  { flag: ACTION_RAW, action: 'openRaw', label: 'Raw event', title: 'The event exactly as in the log' },
  { flag: ACTION_REPLAY, action: 'replayFromHere', label: 'Replay from here', title: 'Replay the run in the debugger, stopped at this event' },
  { flag: ACTION_RESTORE, action: 'restoreToHere', label: 'Restore workspace to here', title: 'Put the files the run touched back to their content right after this event (asks first)' },
];

export class DetailsView {
  readonly el: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly body: HTMLPreElement;
  /** The reply's thinking blocks, each collapsed (a person opens one to read it). */
  private readonly thinking: HTMLElement;
  private row: Row | null = null;

  constructor(parent: HTMLElement, private readonly onAction: (action: RowAction, seq: number) => void, onClose: () => void) {
    this.el = document.createElement('section');
    this.el.className = 'details';
    this.el.id = 'details';
    this.el.hidden = true;
    this.el.setAttribute('aria-labelledby', 'details-title');
    // Escape anywhere in the pane closes it (the page then puts focus back on the row).
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape') return;
      ev.preventDefault();
      ev.stopPropagation();
      onClose();
    });
    const top = document.createElement('div');
    top.className = 'details-top';
    this.heading = document.createElement('h2');
    this.heading.id = 'details-title';
    this.actions = document.createElement('div');
    this.actions.className = 'actions';
    const close = document.createElement('button');
    close.className = 'icon-button';
    close.title = 'Close (Escape)';
    close.setAttribute('aria-label', 'Close details');
    close.textContent = '×';
    close.addEventListener('click', onClose);
    top.append(this.heading, this.actions, close);
    this.meta = document.createElement('div');
    this.meta.className = 'meta';
    this.body = document.createElement('pre');
    this.body.className = 'body';
    // A long body scrolls: focusable, so arrows and Page keys scroll it without a mouse.
    this.body.tabIndex = 0;
    this.body.setAttribute('role', 'region');
    this.body.setAttribute('aria-label', 'Event text');
    this.thinking = document.createElement('div');
    this.thinking.className = 'thinking-blocks';
    this.el.append(top, this.meta, this.thinking, this.body);
    parent.append(this.el);
  }

  /** `startedAt`: the run's wall-clock start (ms since epoch), to show when an event happened. */
  /** `event` null with a row: the page asked the extension for it (older events are not kept). */
  show(row: Row | null, event: KiteEvent | null, startedAt: number | null = null): void {
    this.row = row;
    if (!row) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.heading.textContent = showControlChars(`${row.title}${row.status ? ` — ${row.status}` : ''}`, { oneLine: true });
    this.heading.className = `l-${row.level}`;
    const buttons = ACTIONS.filter((a) => row.actions & a.flag).map((a) => {
      const b = document.createElement('vscode-button');
      b.setAttribute('secondary', '');
      b.dataset.action = a.action;
      b.title = a.title;
      b.textContent = a.label;
      b.addEventListener('click', () => this.run(a.action));
      return b;
    });
    this.actions.replaceChildren(...buttons);
    const facts: [string, string][] = [
      ['seq', String(row.seq)],
      ['time', startedAt === null ? formatClock(row.t) : `${formatClock(row.t)} (${new Date(startedAt + row.t * 1000).toLocaleTimeString('en-GB')})`],
      ['kind', row.kind],
    ];
    if (row.turn) facts.push(['turn', String(row.turn)]);
    if (row.ms !== null) facts.push(['duration', formatMs(row.ms)]);
    if (row.cost !== null) facts.push(['cost', formatUsd(row.cost)]);
    if (row.tokens) facts.push(['tokens', `in ${row.tokens.input} · cache read ${row.tokens.cacheRead} · cache write ${row.tokens.cacheWrite} · out ${row.tokens.output}`]);
    this.meta.replaceChildren(
      ...facts.map(([k, v]) => {
        const s = document.createElement('span');
        const b = document.createElement('b');
        b.textContent = k;
        s.append(b, ` ${v}`);
        return s;
      }),
    );
    this.thinking.replaceChildren(...(event ? thinkingBlocks(event) : []));
    // bidi overrides and escapes shown, not applied
    this.body.textContent = event ? showControlChars(detailText(event)) : 'Reading this event from the log…';
    this.body.setAttribute('aria-busy', String(!event));
  }

  /** The extension could not read the event back (the log was replaced or cut). */
  unavailable(): void {
    this.body.textContent = 'This event could not be read from the log (was the file replaced?).';
    this.body.setAttribute('aria-busy', 'false');
  }

  /** The seq of the row shown (null: closed). */
  get seq(): number | null {
    return this.el.hidden ? null : (this.row?.seq ?? null);
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Runs an action of the shown row (also used by the keyboard). */
  run(action: RowAction): void {
    if (this.row) this.onAction(action, this.row.seq);
  }
}

/** One collapsed <details> per thinking block of a reply (none for other events). */
function thinkingBlocks(e: KiteEvent): HTMLElement[] {
  if (e.kind !== 'model') return [];
  const blocks = e.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
  return blocks.map((text, i) => {
    const d = document.createElement('details');
    d.className = 'thinking';
    const s = document.createElement('summary');
    s.textContent = `Thinking${blocks.length > 1 ? ` ${i + 1}` : ''} · ${fullLengthOf(text).toLocaleString('en-US')} characters`;
    const pre = document.createElement('pre');
    pre.textContent = showControlChars(text);
    d.append(s, pre);
    return d;
  });
}

/** The readable body of an event: its main text first, then its other fields as JSON. */
export function detailText(e: KiteEvent): string {
  const note = (s: string) => (isTrimmed(s) ? `${s}\n(preview — "Full output" or "Raw event" shows everything)` : s);
  switch (e.kind) {
    case 'model': {
      const parts = e.content.map((b) => {
        if (b.type === 'text') return note(b.text);
        if (b.type === 'tool_use') return `→ ${b.name} ${JSON.stringify(b.input, null, 2)}`;
        if (b.type === 'thinking') return null; // shown collapsed above the body
        return '(redacted thinking)';
      });
      return parts.filter((p) => p !== null).join('\n\n');
    }
    case 'tool':
      return `${JSON.stringify(e.args, null, 2)}\n\n${e.is_error ? `error ${e.error_code ?? ''}\n` : ''}${note(e.output)}`;
    case 'user':
      return note(e.text);
    case 'gate':
      return [e.feedback ? note(e.feedback) : 'All checks passed.', ...e.checks.map((c) => `$ ${c.command}  → ${checkExitText(c)} (${formatMs(c.ms)}, ${c.source})${c.output_tail ? `\n${c.output_tail}` : ''}`)].join('\n\n');
    case 'approval':
      return [e.reason ? `Reason: ${e.reason}` : '', e.diff ?? '', e.edited_args !== undefined ? JSON.stringify(e.edited_args, null, 2) : ''].filter(Boolean).join('\n\n') || `${e.decision}${e.always ? ' (always allow)' : ''}`;
    case 'session_end':
      return [e.summary, e.error ? `Error: ${e.error}` : '', e.commit ? `Commit ${e.commit}` : ''].filter(Boolean).join('\n\n');
    case 'compaction':
      // What was cut, and what the model now reads instead.
      return [
        e.note,
        ...e.stubbed.map((s) => `${s.name} ${s.id}: ${s.chars} characters → ${s.stub}`),
        e.summary ? `Summary of turns ${e.summary.turns[0]}–${e.summary.turns[1]}:\n${note(e.summary.text)}` : '',
        ...(e.summary?.kept ?? []).map((k) => `Kept verbatim:\n${note(k)}`),
      ]
        .filter(Boolean)
        .join('\n\n');
    case 'approval_request':
    case 'budget_stop':
    case 'divergence':
    case 'intent':
    case 'model_retry':
    case 'paused':
    case 'policy':
    case 'progress':
    case 'proposed':
    case 'resumed':
    case 'session_start':
    case 'warning':
    case 'hook':
    case 'person_edit':
    case 'restore':
    default: {
      const { v: _v, run: _r, seq: _s, t: _t, kind: _k, ...rest } = e;
      return JSON.stringify(rest, null, 2);
    }
  }
}
