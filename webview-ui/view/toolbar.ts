// Filters, search and the collapse buttons, built from @vscode-elements controls so they look like
// the rest of VS Code in every theme.
import { KIND_FILTERS, KIND_FILTER_LABELS, type Filter, type KindFilter } from '../model/filters';
import { setText } from './domWrites';
import { thousands } from '../../src/harness/protocol/thousands';

export interface ToolbarHandlers {
  filter(f: Filter): void;
  collapseAll(collapsed: boolean): void;
  toggleCharts(): void;
  /** Escape or Enter in the search box: back to the list. */
  leaveSearch(): void;
}

interface ValueElement extends HTMLElement {
  value: string;
}
interface CheckElement extends HTMLElement {
  checked: boolean;
}

export class Toolbar {
  readonly el: HTMLElement;
  readonly search: ValueElement;
  private readonly errors: CheckElement;
  private readonly kind: ValueElement;
  private readonly tool: ValueElement;
  private readonly count: HTMLSpanElement;
  private state: Filter;
  private searchTimer = 0;

  constructor(parent: HTMLElement, initial: Filter, private readonly on: ToolbarHandlers) {
    this.state = initial;
    this.el = document.createElement('div');
    this.el.className = 'toolbar';
    this.el.setAttribute('role', 'toolbar');

    this.search = document.createElement('vscode-textfield') as ValueElement;
    this.search.id = 'search';
    this.search.setAttribute('placeholder', 'Search events (/)');
    // `label` (a property here, not an attribute) is what the control puts on its inner <input>:
    // an aria-label on the outer element does not reach it.
    (this.search as ValueElement & { label: string }).label = 'Search events';
    this.search.value = initial.text;
    this.search.addEventListener('input', () => {
      window.clearTimeout(this.searchTimer);
      // A short pause so typing a word does not filter 100,000 rows per keystroke.
      this.searchTimer = window.setTimeout(() => this.set({ text: this.search.value }), 120);
    });
    this.search.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        // The typed text goes too, and a pending keystroke's filter must not bring it back.
        window.clearTimeout(this.searchTimer);
        this.clearSearchText();
        this.set({ text: '' });
        this.on.leaveSearch();
        ev.preventDefault();
      } else if (ev.key === 'Enter' || ev.key === 'ArrowDown') {
        window.clearTimeout(this.searchTimer);
        this.set({ text: this.search.value });
        this.on.leaveSearch();
        ev.preventDefault();
      }
    });

    this.errors = document.createElement('vscode-checkbox') as CheckElement;
    this.errors.id = 'errors-only';
    this.errors.setAttribute('label', 'Errors only');
    this.errors.checked = initial.errorsOnly;
    this.errors.addEventListener('change', () => this.set({ errorsOnly: this.errors.checked }));

    this.kind = document.createElement('vscode-single-select') as ValueElement;
    this.kind.id = 'kind';
    this.kind.setAttribute('label', 'Kind of event'); // named on the inner combobox, see search
    for (const k of KIND_FILTERS) this.kind.append(option(k, KIND_FILTER_LABELS[k], k === initial.kind));
    this.kind.addEventListener('change', () => this.set({ kind: (KIND_FILTERS as readonly string[]).includes(this.kind.value) ? (this.kind.value as KindFilter) : 'all' }));

    this.tool = document.createElement('vscode-single-select') as ValueElement;
    this.tool.id = 'tool';
    this.tool.setAttribute('label', 'Tool');
    this.tool.append(option('', 'All tools', initial.tool === null));
    this.tool.addEventListener('change', () => this.set({ tool: this.tool.value === '' ? null : this.tool.value }));

    const collapse = button('collapse-all', 'Collapse turns', () => this.on.collapseAll(true));
    const expand = button('expand-all', 'Expand turns', () => this.on.collapseAll(false));
    const charts = button('toggle-charts', 'Charts', () => this.on.toggleCharts());
    this.count = document.createElement('span');
    this.count.className = 'count';
    this.count.id = 'count';
    // Not a live region: a live run would announce it on every appended event.
    this.el.append(this.search, this.errors, this.kind, this.tool, collapse, expand, charts, this.count);
    parent.append(this.el);
  }

  get filter(): Filter {
    return this.state;
  }

  /** Shows `f` in the controls (when the page changed the filter itself, e.g. to reveal a row). */
  show(f: Filter): void {
    this.state = f;
    this.search.value = f.text;
    this.errors.checked = f.errorsOnly;
    this.kind.value = f.kind;
    this.tool.value = f.tool ?? '';
  }

  /** Empties the box as shown, not only its value: after typing, setting the control's value to ''
   *  left the text in its inner <input> (seen in Chromium; the keyboard test checks the input). */
  private clearSearchText(): void {
    this.search.value = '';
    const inner = this.search.shadowRoot?.querySelector('input');
    if (inner) inner.value = '';
  }

  /** Another log: its tools replace the choices (the chosen tool stays chosen). */
  clearTools(): void {
    for (const o of [...this.tool.querySelectorAll('vscode-option')]) if (o.getAttribute('value') !== '') o.remove();
  }

  /** New tool names seen in the log become choices. */
  addTools(names: readonly string[]): void {
    for (const n of names) this.tool.append(option(n, n, this.state.tool === n));
  }

  setCount(matching: number, total: number): void {
    setText(this.count, matching === total ? `${thousands(total)} events` : `${thousands(matching)} of ${thousands(total)} events`);
  }

  private set(change: Partial<Filter>): void {
    this.state = { ...this.state, ...change };
    this.on.filter(this.state);
  }
}

function option(value: string, label: string, selected: boolean): HTMLElement {
  const o = document.createElement('vscode-option');
  o.setAttribute('value', value);
  if (selected) o.setAttribute('selected', '');
  o.textContent = label;
  return o;
}

function button(id: string, label: string, onClick: () => void): HTMLElement {
  const b = document.createElement('vscode-button');
  b.id = id;
  b.setAttribute('secondary', '');
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}
