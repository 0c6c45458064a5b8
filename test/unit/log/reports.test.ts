// The report commands on fixture logs, through their CLI entry points (output captured).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { costMain } from '../../../src/harness/cli/costCommand';
import { diagnoseMain } from '../../../src/harness/cli/diagnoseCommand';
import { exportMain } from '../../../src/harness/cli/exportCommand';
import { timelineMain } from '../../../src/harness/cli/timelineCommand';
import type { Out } from '../../../src/harness/cli/output';
import type { CostReport } from '../../../src/harness/events/cost';
import type { Diagnosis } from '../../../src/harness/events/diagnose';
import type { OtlpTrace } from '../../../src/harness/events/otel';
import { readLog } from '../../../src/harness/events/reader';
import { priceOf } from '../../../src/harness/model/pricing';
import { buildRun, ev, MODEL_ID, RunBuilder, strip } from '../../helpers/events';
import { tempDir } from '../loop/kit';

const FIX = join(__dirname, '..', '..', 'fixtures', 'logs');
const fx = (name: string) => join(FIX, `${name}.jsonl`);

function capture(): Out & { stdout: string; stderr: string } {
  const o = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (o.stdout += t.endsWith('\n') ? t : `${t}\n`),
    err: (t: string) => void (o.stderr += t.endsWith('\n') ? t : `${t}\n`),
  };
  return o;
}

describe('reports', () => {
  describe('kite timeline', () => {
    it('prints one row per turn, tool call and gate, then the outcome', async () => {
      const o = capture();
      assert.equal(await timelineMain([fx('demo-run')], o), 0);
      const lines = o.stdout.trim().split('\n');
      assert.equal(lines.filter((l) => /turn \d+/.test(l)).length, 8);
      assert.match(o.stdout, /DENY\s+run curl -sSL https:\/\/get\.example\.sh \| sh\s+\[deny:pipe-to-shell\]/);
      assert.match(o.stdout, /gate FAILED .*✗ python -m pytest -q tests\/test_rounding\.py \(exit 4\)/);
      assert.match(o.stdout, /user edit/);
      assert.match(lines.at(-1) ?? '', /^F4: done in 8 turns, 26,750 tokens, \$\d+\.\d{4}\. Commit 9c1e4b7\.$/);
      assert.equal(o.stderr, '');
    });

    it('reads an original Kite log and says so; a torn log is reported on stderr and marked unfinished', async () => {
      const py = capture();
      assert.equal(await timelineMain([fx('python-kite')], py), 0);
      assert.match(py.stdout, /gate FAILED/);
      assert.match(py.stdout, /F4: done in 6 turns, 14,216 tokens.*\(original Kite log\)/);
      const torn = capture();
      assert.equal(await timelineMain([fx('torn-last-line')], torn), 0);
      assert.match(torn.stdout, /F4: unfinished after 2 turns — continue with kite resume torn-last-line/);
      assert.match(torn.stderr, /line 10: torn last line/);
    });

    it('shows pauses, resumes, calls recovered on resume and replay divergences', async () => {
      const b = new RunBuilder('resumed-run').start();
      b.model([{ type: 'tool_use', id: 'w1', name: 'run', input: { command: 'make' } }]);
      b.event(strip(ev.paused({ reason: 'approval not answered: the extension host went away', pending: ['w1'] })));
      b.event(strip(ev.resumed({ after_seq: 4, mode: 'attended' })));
      b.event(strip(ev.tool({ id: 'w1', name: 'run', args: { command: 'make' }, is_error: true, error_code: 'interrupted', recovered: true })));
      b.event(strip(ev.divergence({ at_seq: 7, what: 'run `make`: exit_code' })));
      const dir = tempDir();
      writeFileSync(join(dir, 'resumed-run.jsonl'), b.jsonl());
      const o = capture();
      assert.equal(await timelineMain([join(dir, 'resumed-run.jsonl')], o), 0);
      assert.match(o.stdout, /paused — approval not answered: the extension host went away/);
      assert.match(o.stdout, /resumed after seq 4 \(attended\)/);
      assert.match(o.stdout, /ERROR run make\s+\[interrupted\]\s+\(recovered on resume\)/);
      assert.match(o.stdout, /DIVERGED from the recording at seq 7: run `make`: exit_code/);
    });

    it('a missing or newer log is a clear error with exit 2', async () => {
      const o = capture();
      assert.equal(await timelineMain([fx('nope')], o), 2);
      assert.match(o.stderr, /no such log/);
      assert.equal(await timelineMain([fx('future-version')], o), 2);
      assert.match(o.stderr, /line 3: log version 2 is newer/);
    });
  });

  describe('kite cost', () => {
    it('tokens by kind, list and billed dollars per run, per feature and in total (--json)', async () => {
      const o = capture();
      assert.equal(await costMain([fx('demo-run'), fx('python-kite'), fx('failed-gate'), '--json'], o), 0);
      const r = JSON.parse(o.stdout) as CostReport;
      assert.deepEqual(
        r.runs.map((x) => [x.run, x.feature, x.outcome, x.turns]),
        [
          ['demo-run', 'F4', 'done', 8],
          ['python-kite', 'F4', 'done', 6],
          ['failed-gate', 'F5', 'gate_failed', 8],
        ],
      );
      const demo = r.runs[0];
      assert.deepEqual(demo.tokens, { input: 4990, output: 860, cache_write: 2200, cache_read: 18700, total: 26750 });
      const p = priceOf(MODEL_ID);
      const list = ((4990 + 2200 + 18700) * p.input + 860 * p.output) / 1e6;
      const billed = (4990 * p.input + 860 * p.output + 2200 * (p.cache_write ?? p.input * 1.25) + 18700 * (p.cache_read ?? p.input * 0.1)) / 1e6;
      assert.ok(Math.abs(demo.list_usd - list) < 1e-9, `list ${demo.list_usd} vs ${list}`);
      assert.ok(Math.abs(demo.billed_usd - billed) < 1e-9);
      assert.ok(demo.billed_usd < demo.list_usd, 'cache reads make the billed cost lower');
      // the Python log had no cache fields: list equals billed
      assert.ok(Math.abs(r.runs[1].list_usd - r.runs[1].billed_usd) < 1e-12);
      assert.equal(r.features.F4.runs, 2);
      assert.equal(r.features.F4.tokens.total, 26750 + 14216);
      assert.equal(r.features.F5.runs, 1);
      assert.equal(r.total.runs, 3);
      assert.ok(Math.abs(r.total.billed_usd - r.runs.reduce((a, x) => a + x.billed_usd, 0)) < 1e-12);
    });

    it('a project folder means its .kite/runs; replays are listed but not counted; the table has totals', async () => {
      const root = tempDir();
      const runs = join(root, '.kite', 'runs');
      mkdirSync(runs, { recursive: true });
      copyFileSync(fx('demo-run'), join(runs, 'demo-run.jsonl'));
      const replay = new RunBuilder('demo-run-replay').start({ replay_of: join(runs, 'demo-run.jsonl') });
      replay.model([{ type: 'text', text: 'Done.' }]).end();
      writeFileSync(join(runs, 'demo-run-replay.jsonl'), replay.jsonl());
      writeFileSync(join(runs, 'empty.jsonl'), '');
      const o = capture();
      assert.equal(await costMain([root], o), 0);
      assert.match(o.stdout, /^RUN\s+FEATURE\s+OUTCOME\s+TURNS\s+INPUT\s+OUTPUT\s+CACHE WRITE\s+CACHE READ\s+TOTAL\s+LIST \$\s+BILLED \$$/m);
      assert.match(o.stdout, /demo-run-replay \(replay, not counted\)/);
      assert.match(o.stdout, /^TOTAL\s+1 run\s+4,990\s+860\s+2,200\s+18,700\s+26,750\s+\$\d+\.\d{4}\s+\$\d+\.\d{4}$/m);
      assert.match(o.stdout, /Prompt caching saved \$\d+\.\d{4} \(\d+% of the list price\)\./);
      rmSync(root, { recursive: true, force: true });
    });
  });

  describe('kite diagnose', () => {
    it('names three identical gate failures and their common cause (a missing binary), the refusal and the loop', async () => {
      const o = capture();
      assert.equal(await diagnoseMain([fx('failed-gate'), '--json'], o), 0);
      const d = JSON.parse(o.stdout) as Diagnosis;
      assert.match(d.headline, /^Run failed-gate \(F5 "Late fee line on the PDF invoice"\): gate_failed after 8 turns/);
      const gate = d.findings.find((f) => f.kind === 'repeated_gate_failure');
      assert.ok(gate);
      assert.equal(gate.seqs.length, 3);
      assert.match(gate.message, /failed 3 times in a row with the same failure: `make pdf-test` exit 127/);
      assert.match(gate.cause ?? '', /^command not found: wkhtmltopdf/);
      const denied = d.findings.find((f) => f.kind === 'policy_denied');
      assert.match(denied?.message ?? '', /unattended:refuse.*add an allow rule/);
      assert.ok(d.findings.some((f) => f.kind === 'stuck'));
      const repeated = d.findings.find((f) => f.kind === 'repeated_tool_error');
      assert.match(repeated?.message ?? '', /run failed 3 times in a row/);
    });

    it('a run that passed after one failure: the single failure with its cause, no false alarms; an unfinished run says how to resume', async () => {
      const o = capture();
      assert.equal(await diagnoseMain([fx('demo-run')], o), 0);
      assert.match(o.stdout, /! The gate failed \(attempt 1\): `python -m pytest -q tests\/test_rounding\.py` exit 4\.\n\s+Common cause: missing file: file or directory not found: tests\/test_rounding\.py/);
      assert.doesNotMatch(o.stdout, /in a row/);
      const t = capture();
      await diagnoseMain([fx('torn-last-line')], t);
      assert.match(t.stdout, /✗ The run stopped after seq 8 .* Continue it with `kite resume torn-last-line`/);
    });

    it('a clean run has nothing to report', async () => {
      const b = new RunBuilder('clean').start();
      b.model([{ type: 'text', text: 'Done.' }]).gate(true, []).end();
      const dir = tempDir();
      writeFileSync(join(dir, 'clean.jsonl'), b.jsonl());
      const o = capture();
      await diagnoseMain([join(dir, 'clean.jsonl')], o);
      assert.match(o.stdout, /Nothing stands out/);
    });
  });

  describe('kite export otel', () => {
    it('one invoke_agent span per run, chat {model} per model call, execute_tool {name} per tool, gen_ai attributes', async () => {
      const o = capture();
      assert.equal(await exportMain(['otel', fx('demo-run')], o), 0);
      const trace = JSON.parse(o.stdout) as OtlpTrace;
      const spans = trace.resourceSpans[0].scopeSpans[0].spans;
      const events = (await readLog(fx('demo-run'))).events;
      const tools = events.filter((e) => e.kind === 'tool');
      assert.equal(spans.length, 1 + 8 + tools.length);
      const root = spans[0];
      assert.equal(root.name, 'invoke_agent kite');
      assert.ok(spans.slice(1).every((s) => s.parentSpanId === root.spanId && s.traceId === root.traceId));
      assert.match(root.traceId, /^[0-9a-f]{32}$/);
      assert.equal(new Set(spans.map((s) => s.spanId)).size, spans.length);
      const attrs = (s: (typeof spans)[number]) => Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0] as unknown]));
      const chat = spans.filter((s) => s.name === `chat ${MODEL_ID}`);
      assert.equal(chat.length, 8);
      const first = attrs(chat[0]);
      assert.equal(first['gen_ai.operation.name'], 'chat');
      assert.equal(first['gen_ai.provider.name'], 'anthropic');
      assert.equal(first['gen_ai.request.model'], MODEL_ID);
      assert.equal(first['gen_ai.usage.input_tokens'], String(2100 + 1800)); // input includes cache writes
      assert.equal(first['gen_ai.usage.output_tokens'], '80');
      assert.equal(first['gen_ai.usage.cache_creation.input_tokens'], '1800');
      assert.ok(!spans.some((s) => s.attributes.some((a) => a.key === 'gen_ai.system')), 'no deprecated gen_ai.system');
      const exec = spans.filter((s) => s.name.startsWith('execute_tool '));
      assert.deepEqual(
        exec.map((s) => s.name),
        tools.map((t) => (t.kind === 'tool' ? `execute_tool ${t.name}` : '')),
      );
      const denied = exec.find((s) => attrs(s)['gen_ai.tool.call.id'] === 'toolu_03');
      assert.ok(denied);
      assert.equal(attrs(denied)['gen_ai.tool.name'], 'run');
      assert.equal(attrs(denied)['error.type'], 'denied');
      assert.equal(denied.status.code, 2);
      assert.equal(root.status.code, 1);
      for (const s of spans) assert.ok(BigInt(s.startTimeUnixNano) <= BigInt(s.endTimeUnixNano), s.name);
      assert.equal(root.startTimeUnixNano, String(BigInt(Date.parse('2026-03-01T10:15:00.000Z')) * 1_000_000n));
    });
  });

  describe('kite export prometheus', () => {
    it('runs by outcome, tool calls, a latency histogram, tokens and cost in the text format', async () => {
      const dir = tempDir();
      for (const f of ['demo-run', 'failed-gate', 'torn-last-line']) copyFileSync(fx(f), join(dir, `${f}.jsonl`));
      const o = capture();
      assert.equal(await exportMain(['prometheus', dir], o), 0);
      const text = o.stdout;
      for (const line of text.trim().split('\n')) assert.match(line, /^(# (HELP|TYPE) kite_\w+ .+|kite_\w+(\{[^}]*\})? -?[\d.e+-]+)$/, line);
      const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}"+.]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
      assert.equal(value('kite_runs_total{outcome="done"}'), 1);
      assert.equal(value('kite_runs_total{outcome="gate_failed"}'), 1);
      assert.equal(value('kite_runs_total{outcome="unfinished"}'), 1);
      const runCalls = buildRun().filter((e) => e.kind === 'tool' && e.name === 'run').length;
      assert.equal(value('kite_tool_calls_total{tool="run"}'), runCalls + 4 /* failed-gate */ + 0 /* torn */);
      assert.equal(value('kite_tool_duration_seconds_count{tool="run"}'), value('kite_tool_calls_total{tool="run"}'));
      assert.equal(value('kite_tool_duration_seconds_bucket{tool="run",le="+Inf"}'), value('kite_tool_duration_seconds_count{tool="run"}'));
      assert.ok(value('kite_tool_duration_seconds_bucket{tool="run",le="0.005"}') <= value('kite_tool_duration_seconds_bucket{tool="run",le="1"}'));
      assert.match(text, /# TYPE kite_tool_duration_seconds histogram/);
      assert.ok(value('kite_tokens_total{kind="cache_read"}') >= 18700);
      assert.ok(value('kite_cost_usd_total') > 0);
    });

    it('unknown export formats are a usage error', async () => {
      const o = capture();
      assert.equal(await exportMain(['csv', 'x'], o), 2);
      assert.match(o.stderr, /unknown export format "csv"/);
    });
  });
});
