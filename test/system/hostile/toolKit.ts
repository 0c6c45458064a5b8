// In-process hostile runs of the tools: a scripted agent makes the calls of an attack through the
// real loop (policy, approvals, toolbox) in a temp git repo; the test reads what the model got back.
import { runLoop, type LoopResult } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { KiteConfigFile } from '../../../src/harness/config/config';
import type { Host } from '../../../src/harness/host';
import type { Mode } from '../../../src/harness/protocol/events';
import { brief, makeDeps, ScriptedGate, type MemorySink } from '../../unit/loop/kit';

export type Call = [name: string, input: Record<string, unknown>];

export interface AttackRun {
  r: LoopResult;
  sink: MemorySink;
  /** What the model was told for each call, in order. */
  results: { name: string; output: string; is_error: boolean }[];
  /** Every text the model was sent back, joined: a secret must not appear in it. */
  seen: string;
}

/** Runs the calls one per turn, then "done" (the gate passes). */
export async function attack(root: string, calls: Call[], opts: { mode?: Mode; host?: Host; config?: KiteConfigFile } = {}): Promise<AttackRun> {
  const model = new ScriptedModel([...calls.map(([name, input], i) => use(name, `c${i}`, input)), say('done')]);
  const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]), mode: opts.mode ?? 'unattended', ...(opts.host ? { host: opts.host } : {}), ...(opts.config ? { config: opts.config } : {}) });
  brief(deps, 'go');
  const r = await runLoop(deps, new AbortController().signal);
  const results = sink.of('tool').map((t) => ({ name: t.name, output: t.output, is_error: t.is_error }));
  return { r, sink, results, seen: results.map((x) => x.output).join('\n') };
}
