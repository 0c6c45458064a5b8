// Turns plain data into DAP variables: expandable containers with stable evaluateNames (so a
// variable dragged to Watch evaluates to the same thing), paging for long arrays, and lazy
// values (computed only when a person expands them). References live until the next stop.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { formatValue } from './expressions';

export interface PathRef {
  root: string;
  steps: (string | number)[];
}

type Container =
  | { kind: 'value'; value: unknown; path: PathRef | null }
  | { kind: 'lazy'; name: string; compute: () => unknown; path: PathRef | null }
  | { kind: 'deferred'; compute: () => unknown; path: PathRef | null };

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PAGE = 100;

export function evaluateNameOf(p: PathRef): string {
  return (
    p.root +
    p.steps
      .map((s) => (typeof s === 'number' ? `[${s}]` : IDENT.test(s) && s !== 'contains' && s !== 'true' && s !== 'false' && s !== 'null' ? `.${s}` : `[${JSON.stringify(s)}]`))
      .join('')
  );
}

function extend(p: PathRef | null, step: string | number): PathRef | null {
  return p ? { root: p.root, steps: [...p.steps, step] } : null;
}

export function displayValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 4000 ? `${v.slice(0, 4000)}… (${v.length} chars)` : v);
  if (Array.isArray(v)) return `Array(${v.length})`;
  if (typeof v === 'object') {
    const keys = Object.keys(v);
    const preview = keys.slice(0, 4).map((k) => `${k}: ${short((v as Record<string, unknown>)[k])}`);
    return `{${preview.join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return String(v);
}

function short(v: unknown): string {
  if (v !== null && typeof v === 'object') return Array.isArray(v) ? `Array(${v.length})` : '{…}';
  return formatValue(typeof v === 'string' ? JSON.stringify(v) : v, 40);
}

export class VariableStore {
  private items = new Map<number, Container>();
  private next = 1;

  reset(): void {
    this.items.clear();
    this.next = 1;
  }

  /** A reference whose children are the fields of `value` (0 when there is nothing to expand). */
  ref(value: unknown, path: PathRef | null): number {
    if (value === null || typeof value !== 'object') return 0;
    const id = this.next++;
    this.items.set(id, { kind: 'value', value, path });
    return id;
  }

  /** A container whose value is computed when it is first expanded (expensive scopes). */
  deferredRef(compute: () => unknown, path: PathRef | null): number {
    const id = this.next++;
    this.items.set(id, { kind: 'deferred', compute, path });
    return id;
  }

  /** A reference computed on first expansion (for costly scopes such as messages and files). */
  lazyRef(name: string, compute: () => unknown, path: PathRef | null): number {
    const id = this.next++;
    this.items.set(id, { kind: 'lazy', name, compute, path });
    return id;
  }

  variable(name: string, value: unknown, path: PathRef | null): DebugProtocol.Variable {
    const v: DebugProtocol.Variable = { name, value: displayValue(value), variablesReference: this.ref(value, path) };
    if (Array.isArray(value)) {
      v.type = 'array';
      if (value.length > PAGE) v.indexedVariables = value.length;
    } else v.type = value === null ? 'null' : typeof value;
    if (path) v.evaluateName = evaluateNameOf(path);
    return v;
  }

  /** The value behind a plain reference (undefined for lazy or unknown ones). */
  peek(ref: number): unknown {
    const c = this.items.get(ref);
    return c?.kind === 'value' ? c.value : undefined;
  }

  children(ref: number, args: { start?: number; count?: number; filter?: 'indexed' | 'named' } = {}): DebugProtocol.Variable[] {
    const c = this.items.get(ref);
    if (!c) return [];
    if (c.kind === 'lazy') {
      // Expanding a lazy item shows its value as a single child (VS Code's `lazy` hint).
      const value = c.compute();
      return [this.variable(c.name, value, c.path)];
    }
    let value: unknown;
    if (c.kind === 'deferred') {
      value = c.compute();
      this.items.set(ref, { kind: 'value', value, path: c.path }); // compute once per stop
    } else value = c.value;
    if (Array.isArray(value)) {
      if (args.filter === 'named') return [];
      const start = args.start ?? 0;
      const end = args.count ? Math.min(value.length, start + args.count) : value.length;
      const out: DebugProtocol.Variable[] = [];
      for (let i = start; i < end; i++) out.push(this.variable(String(i), value[i], extend(c.path, i)));
      return out;
    }
    if (value && typeof value === 'object') {
      if (args.filter === 'indexed') return [];
      return Object.entries(value as Record<string, unknown>).map(([k, v]) => this.variable(k, v, extend(c.path, k)));
    }
    return [];
  }

  /** A variable whose value is only computed when the person asks for it. */
  lazyVariable(name: string, compute: () => unknown, path: PathRef | null, preview = '(load)'): DebugProtocol.Variable {
    const v: DebugProtocol.Variable = { name, value: preview, variablesReference: this.lazyRef(name, compute, path), presentationHint: { lazy: true } };
    if (path) v.evaluateName = evaluateNameOf(path);
    return v;
  }
}
