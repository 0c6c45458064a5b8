// Rebuilds the content of a file around one write of a run, from the log alone (plus the file's
// state before the run): before the write, after it as the model proposed it, and after it as it
// was applied (with the person's edit, if any). Earlier writes to the same path are replayed in
// order from the last whole write (or the file before the run), and hashes recorded in the intent
// events are checked. No 'vscode' here.
import type { KiteEvent } from '../protocol/events';
import type { WriteFact } from '../protocol/timelineFeedMessages';
import { applyEdit, type EditArgs } from '../tools/editText';
import { sha256 } from '../tools/hash';

export interface WriteCall {
  id: string;
  name: 'write_file' | 'edit_file';
  path: string;
  proposed?: number;
  intent?: number;
  tool?: number;
  approval?: number;
}

export interface WriteVersions {
  path: string;
  /** null when the content before cannot be rebuilt (say why in `notes`). */
  before: string | null;
  proposed: string | null;
  applied: string | null;
  /** The person edited the proposal before it was applied. */
  edited: boolean;
  notes: string[];
}

export interface WriteSources {
  /** The full event with this seq, read back from the log. */
  event(seq: number): Promise<KiteEvent | null>;
  /**
   * The file before the run touched it, or null when unknown. `preHash` is the sha256 the log
   * recorded for it (null: the file did not exist; undefined: the log does not say).
   */
  base(path: string, preHash: string | null | undefined): Promise<string | null>;
}

export function isWriteName(name: string): name is WriteCall['name'] {
  return name === 'write_file' || name === 'edit_file';
}

/** Collects the write calls of a log as its events stream by (O(1) per event). It lives as long as
 *  a timeline is open: a path or tool name is kept once, not as the copy each parsed event carries
 *  (~54,000 "write_file" strings at 1M events). */
export class WriteIndex {
  private readonly calls = new Map<string, WriteCall>();
  private readonly byPath = new Map<string, string[]>();
  private readonly paths = new Map<string, string>();

  add(e: KiteEvent): void {
    const fact = writeFactOf(e);
    if (fact) this.addFact(fact);
  }

  /** What writeFactOf found in an event (the timeline's reader sends only these across threads). */
  addFact(f: WriteFact): void {
    if (f.kind === 'approval') {
      const call = this.calls.get(f.id);
      if (call) call.approval = f.seq;
      return;
    }
    let call = this.calls.get(f.id);
    if (!call) {
      if (f.path === null) return;
      let kept = this.paths.get(f.path);
      if (kept === undefined) this.paths.set(f.path, (kept = f.path));
      call = { id: f.id, name: f.name === 'write_file' ? 'write_file' : 'edit_file', path: kept };
      this.calls.set(f.id, call);
    }
    call[f.kind] = f.seq;
    if (f.kind === 'tool' && f.applied) {
      const list = this.byPath.get(call.path) ?? [];
      list.push(f.id);
      this.byPath.set(call.path, list);
    }
  }

  /** The write call an event belongs to (by tool_use id), if it is one. */
  callOf(e: KiteEvent): WriteCall | null {
    return 'id' in e && typeof e.id === 'string' ? (this.calls.get(e.id) ?? null) : null;
  }

  /** Applied writes to `path` before call `id`, oldest first. */
  earlier(path: string, id: string): string[] {
    const list = this.byPath.get(path) ?? [];
    const i = list.indexOf(id);
    return i < 0 ? list.slice() : list.slice(0, i);
  }

  get(id: string): WriteCall | undefined {
    return this.calls.get(id);
  }
}

/** Of an event, what WriteIndex keeps: a step of a write call, or an approval (null: neither). */
export function writeFactOf(e: KiteEvent): WriteFact | null {
  switch (e.kind) {
    case 'proposed':
    case 'intent':
    case 'tool': {
      if (!isWriteName(e.name)) return null;
      const args = e.args as { path?: unknown } | null;
      const path = typeof args?.path === 'string' ? args.path : null;
      return { kind: e.kind, id: e.id, name: e.name, path, seq: e.seq, applied: e.kind === 'tool' && !e.is_error };
    }
    case 'approval':
      return { kind: 'approval', id: e.id, seq: e.seq };
    case 'approval_request':
    case 'budget_stop':
    case 'divergence':
    case 'gate':
    case 'model_retry':
    case 'model':
    case 'paused':
    case 'policy':
    case 'progress':
    case 'resumed':
    case 'session_end':
    case 'session_start':
    case 'user':
    case 'warning':
    case 'hook':
    case 'person_edit':
    case 'restore':
    case 'compaction':
    default:
      return null;
  }
}

export async function resolveWrite(index: WriteIndex, call: WriteCall, src: WriteSources): Promise<WriteVersions> {
  const notes: string[] = [];
  const argsOf = async (seq: number | undefined): Promise<Record<string, unknown> | null> => {
    if (seq === undefined) return null;
    const e = await src.event(seq);
    return e && 'args' in e && typeof e.args === 'object' && e.args !== null ? (e.args as Record<string, unknown>) : null;
  };
  const after = (name: WriteCall['name'], before: string | null, args: Record<string, unknown> | null): string | null => {
    if (!args) return null;
    // A whole content wins whatever the tool's name: a person's edit of an edit_file proposal
    // runs as {path, content} (their version of the whole file), not as old/new strings.
    if (typeof args.content === 'string') return args.content;
    if (name === 'write_file') return null;
    if (before === null) return null;
    const r = applyEdit(before, args as unknown as EditArgs, call.path);
    if (!r.ok) notes.push(`the edit does not apply to the rebuilt content: ${r.message}`);
    return r.ok ? r.content : null;
  };

  // Replay the earlier writes to the same path from the last whole one (its content does not depend
  // on what came before), else from the file as it was before the run (a git blob): deep in a long
  // run that is a few events read, not every write of the file since the start.
  const chain: { c: WriteCall; args: Record<string, unknown> | null }[] = [];
  const earlier = index.earlier(call.path, call.id);
  for (let k = earlier.length - 1; k >= 0; k--) {
    const c = index.get(earlier[k]);
    if (!c) continue;
    const args = await argsOf(c.tool ?? c.intent);
    chain.push({ c, args });
    if (typeof args?.content === 'string') break;
  }
  chain.reverse();
  const whole = chain.length > 0 && typeof chain[0].args?.content === 'string';
  let content = whole ? null : await src.base(call.path, await firstIntentOf(index, call, src));
  for (const { c, args } of chain) content = after(c.name, content, args);
  const before = content;
  if (before === null) notes.push(`the content of ${call.path} before this write is not known (no git commit or file matching the logged hash)`);
  const intent = call.intent !== undefined ? await src.event(call.intent) : null;
  if (intent?.kind === 'intent' && before !== null) {
    const want = intent.pre_hash;
    const have = sha256(before);
    if (want !== null && want !== have) notes.push('the rebuilt content before the write does not match the hash recorded in the log; the file was changed outside the run');
  }
  const proposedArgs = await argsOf(call.proposed);
  const appliedArgs = await argsOf(call.tool ?? call.intent);
  const proposed = after(call.name, before, proposedArgs);
  const applied = appliedArgs ? after(call.name, before, appliedArgs) : null;
  if (!appliedArgs) notes.push('the write was not applied');
  const approval = call.approval !== undefined ? await src.event(call.approval) : null;
  const edited = approval?.kind === 'approval' && approval.decision === 'edit';
  return { path: call.path, before, proposed, applied, edited, notes };
}

/** pre_hash of the first write to the path in the log: what the file was before the run. */
async function firstIntentOf(index: WriteIndex, call: WriteCall, src: WriteSources): Promise<string | null | undefined> {
  const first = index.earlier(call.path, call.id)[0] ?? call.id;
  const c = index.get(first);
  if (c?.intent === undefined) return undefined;
  const e = await src.event(c.intent);
  return e?.kind === 'intent' ? e.pre_hash : undefined;
}
