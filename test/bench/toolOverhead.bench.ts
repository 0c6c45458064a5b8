// Harness overhead per tool call, excluding the model and the tool's own work: validation,
// confinement, policy, write preview + hashing, repetition guard, the event lines on disk
// (proposed/policy/intent/tool/model, one appendFileSync each, redacted), and assembling the
// next request. Scripted model; tools replaced by no-ops so only the harness is measured.
// Run: npx tsx test/bench/toolOverhead.bench.ts            (prints figures; never asserts timing)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDefaults } from '../../src/harness/config/config';
import { EventWriter } from '../../src/harness/events/writer';
import { assembleLoop } from '../../src/harness/loop/assemble';
import { runLoop } from '../../src/harness/loop/session';
import { sessionStartOf } from '../../src/harness/loop/sessionStart';
import { initialRunState } from '../../src/harness/protocol/reducer';
import { LoggedGate } from '../../src/harness/events/loggedGate';
import type { Model, ModelRequest } from '../../src/harness/model/model';
import { say, ScriptedModel, use } from '../../src/harness/model/scripted';
import type { Reply } from '../../src/harness/protocol/content';
import { createToolbox } from '../../src/harness/tools/index';
import type { AnyTool, ToolContext, ToolOutcome, Toolbox } from '../../src/harness/tools/types';
import { UnattendedHost } from '../../src/harness/cli/unattendedHost';

const TURNS_PER_RUN = 50;
const RUNS = 30;

/** Marks when the model is being waited for, so its time is excluded. */
class TimedModel implements Model {
  readonly spans: [number, number][] = [];
  constructor(private readonly inner: Model) {}
  get id() {
    return this.inner.id;
  }
  async complete(r: ModelRequest): Promise<Reply> {
    const a = performance.now();
    const reply = await this.inner.complete(r);
    this.spans.push([a, performance.now()]);
    return reply;
  }
}

/** The real toolbox (validation, specs) with each tool's own work replaced by a no-op. */
class NoopToolbox implements Toolbox {
  readonly runSpans: number[] = [];
  private readonly real = createToolbox();
  specs() {
    return this.real.specs();
  }
  validate(name: string, input: unknown) {
    return this.real.validate(name, input);
  }
  run(_tool: AnyTool, _args: unknown, _ctx: ToolContext): Promise<ToolOutcome> {
    const a = performance.now();
    const o: ToolOutcome = { output: 'ok', is_error: false, error_code: null };
    this.runSpans.push(performance.now() - a);
    return Promise.resolve(o);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

async function measure(kind: 'read' | 'write' | 'run'): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const root = mkdtempSync(join(tmpdir(), 'kite-bench-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.js'), 'module.exports = 1;\n'.repeat(50));
    const replies = Array.from({ length: TURNS_PER_RUN }, (_, i) =>
      kind === 'read'
        ? use('read_file', `t${i}`, { path: 'src/a.js', start_line: i + 1 })
        : kind === 'write'
          ? use('write_file', `t${i}`, { path: `src/out${i}.js`, content: `module.exports = ${i};\n`.repeat(40) })
          : use('run', `t${i}`, { command: `npm test -- --grep case${i}` }),
    );
    const model = new TimedModel(new ScriptedModel([...replies, say('done')]));
    const toolbox = new NoopToolbox();
    const config = withDefaults({ checks: [], policy: kind === 'run' ? { rules: [], deny: [], disable: [], allow: ['npm test.*'] } : undefined });
    const writer = EventWriter.create(join(root, '.kite', 'runs'), 'bench');
    const deps = assembleLoop({
      root,
      config,
      feature: { id: 'F1', title: 't', status: 'in_progress', verify: null },
      mode: 'unattended',
      limits: { turns: null, tokens: null, usd: null, wall_s: null },
      model,
      state: initialRunState(),
      log: writer,
      host: new UnattendedHost(),
      now: () => performance.now(),
      toolbox,
    });
    deps.gate = new LoggedGate({ check: () => Promise.resolve({ passed: true, feedback: '', checks: [] }) }, deps.log);
    const feature = { id: 'F1', title: 't', status: 'in_progress' as const, verify: null };
    deps.log.append(sessionStartOf({ config, feature, mode: 'unattended', limits: deps.limits, model: model.id, root, gitHead: null, branch: null, replayOf: null, startedAt: new Date(), progressAtStart: null, deps }));
    const r = await runLoop(deps, new AbortController().signal);
    if (r.outcome !== 'done') throw new Error(`bench run ended ${r.outcome}: ${r.summary}`);
    // Between the end of model call i and the start of model call i+1 the harness handled one
    // tool call (plus the model event line and the next request); minus the no-op tool's time.
    for (let i = 0; i + 1 < model.spans.length; i++) samples.push(model.spans[i + 1][0] - model.spans[i][1] - toolbox.runSpans[i]);
    rmSync(root, { recursive: true, force: true });
  }
  return samples.slice(TURNS_PER_RUN); // the first run warms the JIT
}

async function main() {
  console.log(`Harness overhead per tool call (scripted model, no-op tools, ${RUNS - 1} runs × ${TURNS_PER_RUN} calls measured)`);
  for (const kind of ['read', 'write', 'run'] as const) {
    const s = await measure(kind);
    const label = { read: 'read_file (allow)', write: 'write_file (preview + 2 hashes + intent)', run: 'run (policy allow rule + intent)' }[kind];
    console.log(`  ${label.padEnd(42)} median ${median(s).toFixed(3)} ms   p90 ${pct(s, 0.9).toFixed(3)} ms   max ${Math.max(...s).toFixed(3)} ms   (n=${s.length})`);
  }
  console.log(`target: median < 1 ms (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores: under load the p90 and max are the machine's, not the harness's)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
