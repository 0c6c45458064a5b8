// The reducer's calls by id, cheap to copy (issue 17): a run of a million events makes ~100k
// calls, and the debugger snapshots the state every few hundred events. Calls are kept in order
// of first appearance in a ChunkedList (copies share chunks); the id -> position map is shared by
// every copy that has seen the same ids in the same order (a copy sees only its first `count`),
// and is forked only when two copies add different ids at the same position. A copy's call
// objects are shared until the reducer writes one (writable() copies it first).
import { ChunkedList } from './chunkedList';

interface IdLog {
  ids: string[];
  pos: Map<string, number>;
}

export class CallTable<C extends { recorded: object | null }> {
  private list = new ChunkedList<C>();
  private log: IdLog = { ids: [], pos: new Map() };
  /** Call objects this copy made and may change in place. */
  private own = new Set<C>();

  get size(): number {
    return this.list.length;
  }

  get(id: string): C | undefined {
    const p = this.position(id);
    return p < 0 ? undefined : this.list.at(p);
  }

  /** The call to change in place: a private copy when it is shared with another table. */
  writable(id: string): C | undefined {
    const p = this.position(id);
    if (p < 0) return undefined;
    const c = this.list.at(p);
    if (this.own.has(c)) return c;
    const mine = { ...c, recorded: c.recorded ? { ...c.recorded } : null };
    this.list.set(p, mine);
    this.own.add(mine);
    return mine;
  }

  /** Adds the call, or replaces the one with its id (keeping its place in the order). */
  set(id: string, c: C): void {
    this.own.add(c);
    const p = this.position(id);
    if (p >= 0) return this.list.set(p, c);
    const at = this.list.length;
    if (this.log.ids.length > at && this.log.ids[at] !== id) this.fork(at); // another history
    if (this.log.ids.length === at) {
      this.log.ids.push(id);
      this.log.pos.set(id, at);
    }
    this.list.push(c);
  }

  ids(): string[] {
    return this.log.ids.slice(0, this.list.length);
  }

  values(): C[] {
    return this.list.toArray();
  }

  copy(): CallTable<C> {
    const t = new CallTable<C>();
    t.list = this.list.copy();
    t.log = this.log;
    this.own = new Set();
    return t;
  }

  private position(id: string): number {
    const p = this.log.pos.get(id);
    return p !== undefined && p < this.list.length ? p : -1;
  }

  private fork(at: number): void {
    const ids = this.log.ids.slice(0, at);
    this.log = { ids, pos: new Map(ids.map((id, i) => [id, i])) };
  }
}

const tables = new WeakMap<object, CallTable<never>>();

/** The table behind a record made by callRecord. */
export function tableOf<C extends { recorded: object | null }>(record: Record<string, C>): CallTable<C> {
  const t = tables.get(record);
  if (!t) throw new TypeError('not a call record made by callRecord (RunState.calls comes from initialRunState or cloneRunState)');
  return t as unknown as CallTable<C>;
}

/** A plain-looking Record<id, call> over a table (RunState.calls keeps its type: s.calls[id],
 *  Object.values, `in`, JSON all work). Writes through the record go to the table. */
export function callRecord<C extends { recorded: object | null }>(table: CallTable<C> = new CallTable<C>()): Record<string, C> {
  const record = new Proxy({} as Record<string, C>, {
    get: (target, key, receiver) => (typeof key === 'string' ? (table.get(key) ?? Reflect.get(target, key, receiver)) : Reflect.get(target, key, receiver)),
    has: (target, key) => (typeof key === 'string' && table.get(key) !== undefined) || Reflect.has(target, key),
    set: (_target, key, value: C) => {
      if (typeof key !== 'string') return false;
      table.set(key, value);
      return true;
    },
    defineProperty: (_target, key, desc) => {
      if (typeof key !== 'string' || !('value' in desc)) return false;
      table.set(key, desc.value as C);
      return true;
    },
    deleteProperty: (_target, key) => {
      throw new TypeError(`a run's calls are never removed (tried to delete ${String(key)})`);
    },
    ownKeys: () => table.ids(),
    getOwnPropertyDescriptor: (_target, key) => {
      const c = typeof key === 'string' ? table.get(key) : undefined;
      return c === undefined ? undefined : { value: c, writable: true, enumerable: true, configurable: true };
    },
  });
  tables.set(record, table as unknown as CallTable<never>);
  return record;
}
