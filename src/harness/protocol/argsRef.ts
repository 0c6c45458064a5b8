// A tool call's arguments are stored once (issue 13: 61 MB of writes made a 240 MB log). The
// `model` event holds each call's arguments exactly as the model sent them (its tool_use input).
// The call's `proposed`, `approval_request`, `intent` and `tool` events carry them again only when
// they differ; otherwise, instead of "args", they hold
//   "args_ref": {"call": "<tool_use id>", "in": "model" | "approval", "sha256": "<hex>"}
// - in "model": the input of tool_use <call> in the latest `model` event before this line;
// - in "approval": the `edited_args` of call <call>'s `approval` (the person's edit of a write,
//   which no model event holds; stored once there), after that model event;
// - sha256: of canonicalJson(that value) exactly as stored (after redaction).
// An event holds "args" or "args_ref", never both. Logs written before this rule (args on every
// event) read unchanged. resolveArgsRef is the one rule readers apply: it puts the referenced value
// in `args`; a reference that names nothing or whose hash differs is a reported problem of the
// line (the log was edited), and its `args` stay unknown — never a guess.
import { z } from 'zod';
import type { EventOf, KiteEvent } from './events';
import type { LogProblem } from './parse';

export const ArgsRefSchema = z.strictObject({
  call: z.string(),
  in: z.enum(['model', 'approval']),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest'),
});
export type ArgsRef = z.infer<typeof ArgsRefSchema>;

export type RefEvent = EventOf<'proposed' | 'approval_request' | 'intent' | 'tool'>;
export type RefEventKind = RefEvent['kind'];

export function isRefEvent(e: KiteEvent): e is RefEvent {
  return e.kind === 'proposed' || e.kind === 'approval_request' || e.kind === 'intent' || e.kind === 'tool';
}

/** A referenced value as stored, its hash, and the line it is stored on (for messages). */
export interface Referenced {
  value: unknown;
  sha256: string;
  line: number;
}

export type ArgsRefLookup = (ref: ArgsRef) => Referenced | null;

/** Hex sha256 of a string as UTF-8 (node's crypto in the harness; injected: protocol has no builtins). */
export type HashText = (text: string) => string;

/** JSON with object keys sorted at every level: the same value always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // Loops that append, not map/join: every call's arguments of every log read pass here (issue 17).
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  let out = '{';
  for (const k of Object.keys(obj).sort()) {
    if (obj[k] !== undefined) out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + canonicalJson(obj[k]);
  }
  return `${out}}`;
}

/**
 * THE rule for a reference: puts the referenced arguments into `e.args` (and drops `args_ref`), or
 * returns the problem of line `line`. Events without a reference are left as they are.
 */
export function resolveArgsRef(e: RefEvent, line: number, lookup: ArgsRefLookup): LogProblem | null {
  const ref = e.args_ref;
  if (ref === undefined) return null;
  const at = `${e.kind}.args_ref`;
  if (e.args !== undefined) return refProblem(line, `${at}: the event holds both "args" and "args_ref" (a Kite log holds one of them)`);
  if (ref.call !== e.id) return refProblem(line, `${at}: names call ${ref.call}, but the event is about call ${e.id}`);
  const target = lookup(ref);
  if (!target) {
    const where = ref.in === 'model' ? `the model event before this line has no tool call ${ref.call}` : `call ${ref.call} has no edited approval since its model event`;
    return refProblem(line, `${at}: ${where}, so its arguments are unknown (a line was edited, removed or inserted)`);
  }
  if (target.sha256 !== ref.sha256) {
    return refProblem(
      line,
      `${at}: the arguments of call ${ref.call} in the ${ref.in} event on line ${target.line} hash to ${target.sha256.slice(0, 12)}…, but this line refers to ${ref.sha256.slice(0, 12)}… (one of the two lines was edited)`,
    );
  }
  e.args = target.value;
  delete e.args_ref;
  return null;
}

/** Marked as a chain problem: like a broken hash chain, it means the log was changed by something other than Kite. */
function refProblem(line: number, what: string): LogProblem {
  return { line, message: `line ${line}: ${what}`, chain: true };
}

/**
 * Resolves references while a log streams by, in file order. Holds only what a reference may
 * name: the tool_use inputs of the latest model event and the person's edits since (memory of
 * one event, never the run's).
 */
export class ArgsRefResolver {
  private inputs = new Map<string, unknown>();
  private modelLine = 0;
  private edits = new Map<string, { value: unknown; line: number }>();
  private hashes = new Map<string, string>();

  constructor(private readonly hash: HashText) {}

  /** Feed every event in log order; a reference in it is resolved in place. The problem, or null. */
  event(e: KiteEvent, line: number): LogProblem | null {
    if (e.kind === 'model') {
      this.inputs = new Map();
      for (const b of e.content) if (b.type === 'tool_use') this.inputs.set(b.id, b.input);
      this.modelLine = line;
      this.edits = new Map();
      this.hashes = new Map();
    } else if (e.kind === 'approval' && e.decision === 'edit' && e.edited_args !== undefined) {
      this.edits.set(e.id, { value: e.edited_args, line });
      this.hashes.delete(`approval:${e.id}`);
    } else if (isRefEvent(e)) {
      try {
        return resolveArgsRef(e, line, (ref) => this.target(ref.call, ref.in));
      } catch (err) {
        // canonicalJson recurses: a value nested deeper than the stack (a hostile log) cannot be checked.
        return refProblem(line, `${e.kind}.args_ref: the referenced arguments cannot be checked (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    return null;
  }

  /** What a reference to call `call` in `where` would name now (the writer builds its references from it). */
  target(call: string, where: ArgsRef['in']): Referenced | null {
    const found = where === 'model' ? (this.inputs.has(call) ? { value: this.inputs.get(call), line: this.modelLine } : null) : (this.edits.get(call) ?? null);
    if (!found) return null;
    const key = `${where}:${call}`;
    let sha256 = this.hashes.get(key);
    if (sha256 === undefined) this.hashes.set(key, (sha256 = this.hash(canonicalJson(found.value))));
    return { value: found.value, sha256, line: found.line };
  }
}
