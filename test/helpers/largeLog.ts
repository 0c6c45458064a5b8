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
  let attempt = 0;
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
    emit(strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })));
    emit(strip(ev.progress()));
    emit(strip(ev.user({ text: prose(900, 7) })));
    while (seq < nEvents - 1) {
      turn++;
      modelEvents++;
      const kind = turn % 3; // 0 read, 1 write, 2 run
      const id = `toolu_${turn.toString(36).padStart(8, '0')}`;
      const path = `src/module_${turn % 97}.ts`;
      const content = prose(1350, turn);
      if (turn % 25 === 0) {
        emit(strip(ev.model({ turn, stop: 'end_turn', content: [{ type: 'text', text: prose(300, turn) }], input_tokens: 900 + turn, output_tokens: 60, cache_read_input_tokens: 4000 })));
        attempt++;
        const passed = turn % 50 === 0;
        emit(strip(ev.gate({ attempt, passed, feedback: passed ? '' : prose(600, turn + 1) })));
        if (!passed) emit(strip(ev.user({ reason: 'gate_feedback', text: prose(600, turn + 1) })));
        continue;
      }
      const name = kind === 0 ? 'read_file' : kind === 1 ? 'write_file' : 'run';
      const args = kind === 0 ? { path } : kind === 1 ? { path, content } : { command: `npm test -- --grep case${turn}` };
      emit(strip(ev.model({ turn, stop: 'tool_use', content: [{ type: 'text', text: prose(450, turn + 3) }, { type: 'tool_use', id, name, input: args }], input_tokens: 800 + (turn % 400), output_tokens: 120 + (turn % 90), cache_read_input_tokens: 3000 + turn })));
      emit(strip(ev.proposed({ turn, id, name, args })));
      emit(strip(ev.policy({ id, name, decision: kind === 0 ? 'allow' : 'ask', rule: kind === 0 ? 'allow:reads' : kind === 1 ? 'ask:writes' : 'ask:commands' })));
      if (kind !== 0) {
        emit(strip(ev.approvalRequest({ id, name, args, effect: kind === 1 ? 'write' : 'exec', path: kind === 1 ? path : null, command: kind === 2 ? args.command ?? null : null, cwd: kind === 2 ? '/home/dev/app' : null })));
        emit(strip(ev.approval({ id })));
        emit(strip(ev.intent({ id, name, args, effect: kind === 1 ? 'write' : 'exec', path: kind === 1 ? path : null, pre_hash: null, post_hash: kind === 1 ? sha(content) : null })));
      }
      toolEvents++;
      emit(strip(ev.tool({ id, name, args, ms: 2 + (turn % 700), output: kind === 0 ? prose(outputSize(turn, 3300), turn + 5) : kind === 1 ? `Wrote ${path}.` : prose(outputSize(turn, 1500), turn + 9), ...(kind === 1 ? { path, post_hash: sha(content) } : {}), ...(kind === 2 ? { exit_code: turn % 7 === 0 ? 1 : 0 } : {}) })));
    }
    emit(strip(ev.sessionEnd({ turns: turn, status: 'gate_failed' })));
    flush();
  } finally {
    closeSync(fd);
  }
  return { events: seq, bytes, modelEvents, toolEvents };
}
