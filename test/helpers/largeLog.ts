// Writes a large, valid, realistic log for benchmarks and stress tests: the event mix of a long
// run (model turns with text and tool_use, proposed/policy/approval/intent/tool per call, gates),
// about 1 KB per event on average, so 100,000 events ≈ 100 MB (1M events ≈ 1 GB: see
// test/bench/genLog.ts). Tool outputs vary in size (a few hundred bytes to ~10 KB) like real ones;
// lines carry the hash chain (`prev`) as Kite writes it, so readers pay for checking it. Written in
// batches, never held whole in memory. A call's arguments are on every event of the call (the
// original Kite's layout, which its reader needs) unless `argsStoredOnce`: then as Kite writes them
// today, once in the model event and referenced after (protocol/argsRef.ts).
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { StoredArgs } from '../../src/harness/events/storedArgs';
import { LOG_VERSION, type EventBody, type KiteEvent } from '../../src/harness/protocol/events';
import { ev, strip, sha } from './events';

const WORDS = 'the fee invoice ledger rounds half up decimal paisa total rate test module function returns value because overdue reminder export'.split(' ');

/** Deterministic pseudo-text of about n characters. */
function prose(n: number, seed: number): string {
  let s = '';
  let x = seed;
  while (s.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += WORDS[x % WORDS.length] + (x % 11 === 0 ? '.\n' : ' ');
  }
  return s.slice(0, n);
}

/** A varied output size around `mean` (from ~mean/8 to ~3×mean), deterministic in the turn. */
function outputSize(turn: number, mean: number): number {
  const x = ((turn * 2654435761) >>> 0) / 2 ** 32; // uniform in [0, 1)
  return Math.round(mean * (0.12 + 2.9 * x * x));
}

export interface LargeLogInfo {
  events: number;
  bytes: number;
  modelEvents: number;
  toolEvents: number;
}

/** One turn of the run: its events in order, and whether it made a tool call. */
export interface LargeRunTurn {
  turn: number;
  bodies: EventBody[];
  toolCall: boolean;
}

/** The run's opening events (session_start, progress, the briefing). */
export function largeRunOpening(): EventBody[] {
  return [strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })), strip(ev.progress()), strip(ev.user({ text: prose(900, 7) }))];
}

/** The run's turns, endlessly: every 25th turn ends with a gate (every other one failing, with its
 *  feedback), the others call read_file, write_file or run (approvals for writes and commands). The
 *  log writer and the streaming run of the load test (test/helpers/streamLog.ts) share this mix. */
export function* largeRunTurns(): Generator<LargeRunTurn> {
  let attempt = 0;
  for (let turn = 1; ; turn++) {
    const bodies: EventBody[] = [];
    const kind = turn % 3; // 0 read, 1 write, 2 run
    const id = `toolu_${turn.toString(36).padStart(8, '0')}`;
    const path = `src/module_${turn % 97}.ts`;
    const content = prose(1350, turn);
    if (turn % 25 === 0) {
      bodies.push(strip(ev.model({ turn, stop: 'end_turn', content: [{ type: 'text', text: prose(300, turn) }], input_tokens: 900 + turn, output_tokens: 60, cache_read_input_tokens: 4000 })));
      attempt++;
      const passed = turn % 50 === 0;
      bodies.push(strip(ev.gate({ attempt, passed, feedback: passed ? '' : prose(600, turn + 1) })));
      if (!passed) bodies.push(strip(ev.user({ reason: 'gate_feedback', text: prose(600, turn + 1) })));
      yield { turn, bodies, toolCall: false };
      continue;
    }
    const name = kind === 0 ? 'read_file' : kind === 1 ? 'write_file' : 'run';
    const args = kind === 0 ? { path } : kind === 1 ? { path, content } : { command: `npm test -- --grep case${turn}` };
    bodies.push(strip(ev.model({ turn, stop: 'tool_use', content: [{ type: 'text', text: prose(450, turn + 3) }, { type: 'tool_use', id, name, input: args }], input_tokens: 800 + (turn % 400), output_tokens: 120 + (turn % 90), cache_read_input_tokens: 3000 + turn })));
    bodies.push(strip(ev.proposed({ turn, id, name, args })));
    bodies.push(strip(ev.policy({ id, name, decision: kind === 0 ? 'allow' : 'ask', rule: kind === 0 ? 'allow:reads' : kind === 1 ? 'ask:writes' : 'ask:commands' })));
    if (kind !== 0) {
      bodies.push(strip(ev.approvalRequest({ id, name, args, effect: kind === 1 ? 'write' : 'exec', path: kind === 1 ? path : null, command: kind === 2 ? args.command ?? null : null, cwd: kind === 2 ? '/home/dev/app' : null })));
      bodies.push(strip(ev.approval({ id })));
      bodies.push(strip(ev.intent({ id, name, args, effect: kind === 1 ? 'write' : 'exec', path: kind === 1 ? path : null, pre_hash: null, post_hash: kind === 1 ? sha(content) : null })));
    }
    bodies.push(strip(ev.tool({ id, name, args, ms: 2 + (turn % 700), output: kind === 0 ? prose(outputSize(turn, 3300), turn + 5) : kind === 1 ? `Wrote ${path}.` : prose(outputSize(turn, 1500), turn + 9), ...(kind === 1 ? { path, post_hash: sha(content) } : {}), ...(kind === 2 ? { exit_code: turn % 7 === 0 ? 1 : 0 } : {}) })));
    yield { turn, bodies, toolCall: true };
  }
}

export function writeLargeLog(path: string, nEvents: number, opts: { argsStoredOnce?: boolean } = {}): LargeLogInfo {
  const stored = opts.argsStoredOnce ? new StoredArgs() : null;
  const run = basename(path).replace(/\.jsonl$/, '');
  const fd = openSync(path, 'w');
  let seq = 0;
  let t = 0;
  let bytes = 0;
  let batch: string[] = [];
  let turn = 0;
  let modelEvents = 0;
  let toolEvents = 0;
  let prev: string | null = null;
  const emit = (body: EventBody): void => {
    if (seq >= nEvents) return;
    t += 0.37;
    const event = { v: LOG_VERSION, seq, run, t: Math.round(t * 100) / 100, prev, ...(stored ? stored.compact(body) : body) } as KiteEvent;
    const text = JSON.stringify(event);
    stored?.stored(body, event, false);
    prev = createHash('sha256').update(text).digest('hex');
    const line = text + '\n';
    seq++;
    bytes += Buffer.byteLength(line);
    batch.push(line);
    if (batch.length >= 2000) flush();
  };
  const flush = (): void => {
    if (batch.length) writeSync(fd, batch.join(''));
    batch = [];
  };
  try {
    for (const body of largeRunOpening()) emit(body);
    const turns = largeRunTurns();
    while (seq < nEvents - 1) {
      const next = turns.next().value as LargeRunTurn;
      turn = next.turn;
      modelEvents++;
      if (next.toolCall) toolEvents++;
      for (const body of next.bodies) emit(body);
    }
    emit(strip(ev.sessionEnd({ turns: turn, status: 'gate_failed' })));
    flush();
  } finally {
    closeSync(fd);
  }
  return { events: seq, bytes, modelEvents, toolEvents };
}
