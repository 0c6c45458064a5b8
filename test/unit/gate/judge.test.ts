// Judged checks: the schema and its errors, the strict verdict, fail-closed answers, the evidence
// (diff, named files, bound, no secrets), and the judge's usage counted in the run's totals.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../../src/harness/config/config';
import { Gate } from '../../../src/harness/gate/gate';
import { Judge, type JudgeDeps } from '../../../src/harness/gate/judge';
import { buildEvidence } from '../../../src/harness/gate/judgeEvidence';
import { parseVerdict } from '../../../src/harness/gate/judgeVerdict';
import { reply, say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { parseProgress, ProgressError } from '../../../src/harness/progress/progressFile';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { costOfRun } from '../../../src/harness/events/cost';
import { LoggedGate } from '../../../src/harness/events/loggedGate';
import { createRunner } from '../../../src/harness/sandbox/runner';
import { hostSandbox } from '../../helpers/sandbox';
import { git, MemorySink, tempRepo } from '../loop/kit';

const RUBRIC = 'README.md documents the --since flag with an example';
const usage = { input_tokens: 900, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function deps(model: ScriptedModel, over: Partial<JudgeDeps> = {}): JudgeDeps {
  return {
    modelFor: () => model,
    defaultSpec: 'script:judge.json',
    evidence: () => ({ text: 'diff here', truncated: false, files: [] }),
    redact: (t) => t,
    price: () => ({ input: 1, output: 5 }),
    maxTokens: 1024,
    nowMs: () => 0,
    ...over,
  };
}

describe('judged checks', () => {
  describe('declared in checks and in a feature', () => {
    it('a config check may be a rubric; the commands and the judges are kept apart, in order', () => {
      const c = parseConfig(JSON.stringify({ checks: ['npm test', { judge: RUBRIC, model: 'script:j.json', pass: 'yes' }, 'npm run lint'] }));
      assert.deepEqual(c.checks, ['npm test', 'npm run lint']);
      assert.deepEqual(c.judges, [{ judge: RUBRIC, model: 'script:j.json', pass: 'yes' }]);
    });

    it('a bad rubric is an error naming the file and the entry', () => {
      const bad = (checks: unknown) => assert.throws(() => parseConfig(JSON.stringify({ checks }), '/w/.kite/config.json'), (e: unknown) => e instanceof ConfigError && e.code === 'invalid_config' && /^\/w\/\.kite\/config\.json:\d+:\d+: /.test(e.message) && /\$\.checks\[1\]/.test(e.message));
      bad(['npm test', { judge: RUBRIC, pass: 'maybe' }]);
      bad(['npm test', { judge: '   ' }]);
      bad(['npm test', { jugde: RUBRIC }]);
      assert.throws(() => parseConfig(JSON.stringify({ checks: ['x', { judge: RUBRIC, pass: 'maybe' }] }), 'c.json'), /\$\.checks\[1\]\.pass: expected one of "yes"\|"no", got "maybe"/);
      assert.throws(() => parseConfig(JSON.stringify({ checks: ['x', { jugde: RUBRIC }] }), 'c.json'), /\$\.checks\[1\]: unknown key "jugde"/);
      assert.throws(() => parseConfig(JSON.stringify({ checks: ['x', { judge: '' }] }), 'c.json'), /\$\.checks\[1\]\.judge: the rubric is empty/);
    });

    it("a feature's judges are checked too, the error naming the feature", () => {
      const text = JSON.stringify({ goal: 'g', features: [{ id: 'F1', title: 't', status: 'todo', judges: [{ judge: RUBRIC, pass: 'nope' }] }] });
      assert.throws(() => parseProgress(text, 'kite-progress.json'), (e: unknown) => e instanceof ProgressError && /\$\.features\[0\]\.judges\[0\]\.pass \(feature F1\)/.test(e.message));
    });
  });

  describe('the verdict', () => {
    it('is a call of the verdict tool, or exactly its JSON as text', () => {
      assert.deepEqual(parseVerdict(use('verdict', 't1', { verdict: 'no', reasons: 'no example' }).content), { ok: true, verdict: 'no', reasons: 'no example' });
      assert.deepEqual(parseVerdict(say('```json\n{"verdict": "yes", "reasons": "shown in the usage section"}\n```').content), { ok: true, verdict: 'yes', reasons: 'shown in the usage section' });
    });

    it('anything else is garbage, and says what was wrong', () => {
      const bad = (content: Parameters<typeof parseVerdict>[0], re: RegExp) => {
        const v = parseVerdict(content);
        assert.ok(!v.ok && re.test(v.problem), JSON.stringify(v));
      };
      bad(say('Yes, it looks fine to me.').content, /answered in prose/);
      bad(use('write_file', 't', { path: 'x' }).content, /called "write_file", not "verdict"/);
      bad(use('verdict', 't', { verdict: 'probably', reasons: 'x' }).content, /verdict/);
      bad(use('verdict', 't', { verdict: 'yes', reasons: '' }).content, /reasons are empty/);
      bad(reply([], 'end_turn').content, /no verdict/);
    });
  });

  describe('the call', () => {
    it('is separate from the agent: its own system prompt, one user message with the rubric and the evidence, the verdict tool only', async () => {
      const model = new ScriptedModel([use('verdict', 'j1', { verdict: 'yes', reasons: 'the example is in Usage' }, usage)]);
      const r = await new Judge(deps(model)).run({ judge: RUBRIC });
      assert.equal(r.exit_code, 0);
      assert.equal(r.source, 'judge');
      assert.equal(r.judge?.verdict, 'yes');
      const req = model.requests[0];
      assert.match(req.system, /judge of a verification gate/);
      assert.deepEqual(req.tools.map((t) => t.name), ['verdict']);
      assert.equal(req.messages.length, 1);
      assert.match(JSON.stringify(req.messages[0]), /Rubric: README.md documents the --since flag with an example[\s\S]*diff here/);
      assert.equal(r.judge?.cost_usd, (900 * 1 + 40 * 5) / 1e6);
    });

    it('"pass": "no" passes on a no', async () => {
      const r = await new Judge(deps(new ScriptedModel([use('verdict', 'j', { verdict: 'no', reasons: 'no secrets printed' })]))).run({ judge: 'The diff prints a secret', pass: 'no' });
      assert.equal(r.exit_code, 0);
    });

    it('garbage, an error or no model fail the check closed, and say so', async () => {
      const garbage = await new Judge(deps(new ScriptedModel([say('I think so!')]))).run({ judge: RUBRIC });
      assert.equal(garbage.exit_code, 1);
      assert.equal(garbage.judge?.verdict, null);
      assert.match(garbage.output_tail, /the judge answered garbage: it answered in prose.*fails closed/);
      const exhausted = await new Judge(deps(new ScriptedModel([]))).run({ judge: RUBRIC });
      assert.equal(exhausted.exit_code, 1);
      assert.match(exhausted.output_tail, /could not answer: the script ran out of replies/);
      const noModel = await new Judge(deps(new ScriptedModel([]), { modelFor: () => { throw new Error('no API key'); } })).run({ judge: RUBRIC });
      assert.match(noModel.output_tail, /could not answer: no API key; the check fails closed/);
    });

    it('redacts the evidence before it is sent', async () => {
      const model = new ScriptedModel([use('verdict', 'j', { verdict: 'yes', reasons: 'ok' })]);
      await new Judge(deps(model, { evidence: () => ({ text: 'token=SECRET123', truncated: false, files: [] }), redact: (t) => t.replace('SECRET123', '[redacted]') })).run({ judge: RUBRIC });
      assert.doesNotMatch(JSON.stringify(model.requests), /SECRET123/);
    });
  });

  describe('the evidence', () => {
    it('is the diff from the starting commit with new files, the files the rubric names, never .env or .kite; bounded with a note', () => {
      const root = tempRepo({ 'README.md': '# tool\n', 'src/a.js': 'a\n', '.gitignore': '' });
      const base = git(root, 'rev-parse', 'HEAD');
      writeFileSync(join(root, 'src/a.js'), 'a changed\n');
      writeFileSync(join(root, 'docs.md'), 'new doc\n');
      writeFileSync(join(root, '.env'), 'API_TOKEN=abc\n');
      const e = buildEvidence({ root, logDir: join(root, '.kite', 'runs'), base, rubric: 'README.md and .env mention the tool' });
      assert.match(e.text, /\+a changed/);
      assert.match(e.text, /new file docs\.md:\nnew doc/);
      assert.match(e.text, /<file path="README.md">\n# tool/);
      assert.deepEqual(e.files, ['README.md']);
      assert.doesNotMatch(e.text, /API_TOKEN/);
      assert.equal(e.truncated, false);
      writeFileSync(join(root, 'big.txt'), 'x'.repeat(5000));
      const cut = buildEvidence({ root, logDir: join(root, '.kite', 'runs'), base, rubric: 'r', maxChars: 1000 });
      assert.equal(cut.truncated, true);
      assert.match(cut.text, /Kite cut \d+ of \d+ characters here/);
      assert.ok(cut.text.length < 1300);
    });
  });

  describe('in the gate', () => {
    const runner = createRunner({ sandbox: hostSandbox() });

    it('runs after the commands pass; its reasons are the feedback on failure; its usage counts in the totals and in kite cost', async () => {
      const root = tempRepo({ 'a.txt': 'a\n' });
      const model = new ScriptedModel([use('verdict', 'j1', { verdict: 'no', reasons: 'README.md has no example of --since' }, usage)]);
      const sink = new MemorySink();
      const gate = new LoggedGate(new Gate({ root, checks: ['true'], verify: null, timeoutS: 10, runner, judges: [{ judge: RUBRIC }], judge: new Judge(deps(model)) }), sink);
      const v = await gate.check({ attempt: 1, maxAttempts: 3 });
      assert.equal(v.passed, false);
      assert.match(v.feedback, /FAILED: a judged check: "README.md documents the --since flag with an example"\. The judge answered "no" \(it passes on "yes"\)\. Its reasons:\n```\nREADME.md has no example of --since\n```/);
      assert.match(v.feedback, /Passed: `true`/);
      const events = sink.events;
      const s = foldEvents(events);
      assert.equal(s.tokens.total, 940);
      assert.equal(s.cost_usd, (900 + 200) / 1e6);
      const cost = costOfRun([...events], 'r.jsonl');
      assert.equal(cost.tokens.total, 940);
      assert.equal(cost.judge_calls, 1);
    });

    it('is not asked while a command fails (a paid call about work already refused)', async () => {
      const root = tempRepo({ 'a.txt': 'a\n' });
      const model = new ScriptedModel([use('verdict', 'j1', { verdict: 'yes', reasons: 'fine' })]);
      const v = await new Gate({ root, checks: ['false'], verify: null, timeoutS: 10, runner, judges: [{ judge: RUBRIC }], judge: new Judge(deps(model)) }).check({ attempt: 1, maxAttempts: 3 });
      assert.equal(v.passed, false);
      assert.equal(model.requests.length, 0);
      assert.match(v.feedback, /The judged check \("README.md documents the --since flag with an example"\) was not asked: judges run once every command passes\./);
    });

    it('a gate of judges only is not "unverified": the judge decides', async () => {
      const root = tempRepo({ 'a.txt': 'a\n' });
      const v = await new Gate({ root, checks: [], verify: null, timeoutS: 10, runner, judges: [{ judge: RUBRIC }], judge: new Judge(deps(new ScriptedModel([use('verdict', 'j', { verdict: 'yes', reasons: 'ok' })]))) }).check({ attempt: 1, maxAttempts: 3 });
      assert.equal(v.passed, true);
      assert.equal(v.unverified, undefined);
    });
  });
});
