// Parsing one log line into a KiteEvent (browser-safe: the webview and the debug adapter use it
// too). Every problem names its line and what is wrong. Lines of the original Python Kite (no
// envelope; kinds session_start/model/tool/gate/session_end) are normalized into current events.
import type { z } from 'zod';
import { EVENT_KINDS, EventSchema, LOG_VERSION, OutcomeSchema, type EventKind, type KiteEvent } from './events';
import { compileShapeCheck, type ShapeCheck } from './shapeCheck';

/** `chain`: the line breaks the log's hash chain (events/chain.ts), a sign of an edited log. */
export type LogProblem = { line: number; message: string; chain?: true };
export type LogFormat = 'kite' | 'python-kite';

export type ParseResult =
  | { ok: true; event: KiteEvent; format: LogFormat }
  | { ok: false; problem: LogProblem; /** set when the line is from a newer Kite: reading must stop */ unsupportedVersion?: number };

const KINDS = new Set<string>(EVENT_KINDS);
const PYTHON_KINDS = new Set(['session_start', 'model', 'tool', 'gate', 'session_end']);

/**
 * `full`: every line through the zod schema (anything that acts on a log: run, resume, replay).
 * `structural`: JSON types and keys only (protocol/shapeCheck.ts), zod only for a line that fails
 * it — for views and reports, which read big logs once and act on nothing. The events are the same
 * for any valid log; an invalid one gets zod's exact message either way.
 */
export type Validation = 'full' | 'structural';

let eventShape: ShapeCheck | null = null;

/** Parse one line on its own. Python-Kite lines get a best-effort envelope (see LogLineParser for files). */
export function parseEventLine(text: string, line: number): ParseResult {
  return new LogLineParser('').parse(text, line);
}

/**
 * Stateful parser for the lines of one file, in order. Keeps what Python-Kite normalization needs
 * (position, the run's model, tool_use ids of the last model reply, gate attempts).
 */
export class LogLineParser {
  private position = 0;
  private pyModel = 'unknown';
  private pyToolUses: { id: string; name: string }[] = [];
  private pyGates = 0;

  constructor(
    private readonly run: string,
    private readonly validation: Validation = 'full',
  ) {}

  parse(raw: string, line: number): ParseResult {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return fail(line, `invalid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return fail(line, `not an event: expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
    }
    const obj = value as Record<string, unknown>;
    const kind = obj.kind;
    if (typeof kind !== 'string') return fail(line, 'not an event: no "kind" field');
    if (!('v' in obj)) {
      if (PYTHON_KINDS.has(kind) && typeof obj.t === 'number') return this.python(obj, kind, line);
      return fail(line, `${kind}: missing envelope field "v" (log version)`);
    }
    const v = obj.v;
    if (typeof v === 'number' && Number.isInteger(v) && v > LOG_VERSION) {
      return { ok: false, problem: { line, message: `line ${line}: log version ${v} is newer than this Kite reads (version ${LOG_VERSION}); update Kite to read this log` }, unsupportedVersion: v };
    }
    if (v !== LOG_VERSION) return fail(line, `${kind}.v: unknown log version ${JSON.stringify(v)} (expected ${LOG_VERSION})`);
    if (!KINDS.has(kind)) return fail(line, `unknown event kind "${kind}"`);
    if (this.validation === 'structural' && (eventShape ??= compileShapeCheck(EventSchema))(obj)) {
      this.position++;
      return { ok: true, event: obj as KiteEvent, format: 'kite' };
    }
    const r = EventSchema.safeParse(obj);
    if (!r.success) return fail(line, describeIssues(kind, r.error.issues));
    this.position++;
    return { ok: true, event: r.data, format: 'kite' };
  }

  private python(obj: Record<string, unknown>, kind: string, line: number): ParseResult {
    const env = { v: LOG_VERSION, seq: this.position, run: this.run, t: obj.t };
    let candidate: Record<string, unknown>;
    switch (kind) {
      case 'session_start': {
        const model = typeof obj.model === 'string' ? obj.model : 'unknown';
        this.pyModel = model;
        const feature = typeof obj.feature === 'string' ? obj.feature : '';
        candidate = {
          ...env,
          kind,
          feature,
          title: feature,
          model: model.includes(':') ? model : `anthropic:${model}`,
          mode: 'attended',
          limits: { turns: null, tokens: null, usd: null, wall_s: null },
          max_gate_failures: 3,
          max_tokens: 8192,
          checks: [],
          verify: null,
          command_timeout_s: 120,
          git_head: null,
          root: '',
          branch: null,
          replay_of: typeof obj.replay === 'string' && obj.replay !== '' ? obj.replay : null,
          started_at: '',
          system: '',
          tools: [],
          features: [],
        };
        break;
      }
      case 'model': {
        const content = Array.isArray(obj.content) ? (obj.content as unknown[]) : [];
        this.pyToolUses = content.flatMap((b) => {
          const block = b as { type?: unknown; id?: unknown; name?: unknown };
          return block && block.type === 'tool_use' && typeof block.id === 'string' ? [{ id: block.id, name: String(block.name) }] : [];
        });
        candidate = { ...env, ...obj, ...env, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: this.pyModel, retries: 0 };
        break;
      }
      case 'tool': {
        // Python logged results in tool_use order without ids: take the next unanswered id.
        const i = this.pyToolUses.findIndex((u) => u.name === obj.name);
        const id = i >= 0 ? this.pyToolUses.splice(i, 1)[0].id : `py-line-${line}`;
        candidate = { ...env, ...obj, ...env, id, error_code: obj.is_error === true ? 'failed' : null };
        break;
      }
      case 'gate':
        this.pyGates++;
        candidate = { ...env, ...obj, ...env, attempt: this.pyGates, checks: [] };
        break;
      case 'session_end': {
        const status = OutcomeSchema.safeParse(obj.status);
        candidate = { ...env, ...obj, ...env, status: status.success ? status.data : obj.status, cost_usd: 0, commit: null, summary: '', error: null };
        break;
      }
      default:
        return fail(line, `unknown event kind "${kind}"`);
    }
    const r = EventSchema.safeParse(candidate);
    if (!r.success) return fail(line, describeIssues(kind, r.error.issues));
    this.position++;
    return { ok: true, event: r.data, format: 'python-kite' };
  }
}

function fail(line: number, what: string): ParseResult {
  return { ok: false, problem: { line, message: `line ${line}: ${what}` } };
}

/** "model.turn: expected number, received string" — at most three issues, field paths first. */
export function describeIssues(kind: string, issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = [kind as EventKind, ...issue.path.map(String)].join('.');
    let msg = issue.message.replace(/^Invalid input: /, '');
    if (/received undefined$/.test(msg)) msg = `missing (${msg.replace(/, received undefined$/, '')})`;
    return `${path}: ${msg}`;
  });
  if (issues.length > 3) parts.push(`(+${issues.length - 3} more)`);
  return parts.join('; ');
}
