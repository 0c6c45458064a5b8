// Issue 13, items 7 and 9: secrets at the model boundary, in the notes and in the commit. Each
// test plants secrets (Kite's key in its environment, values in an ignored .env, key shapes in
// ordinary files) and lets a scripted agent try to carry them out; each asserts they did not
// leave and the run ended cleanly with a clear message. Item 7 runs the harness in-process (the
// scripted model records every request it was sent); item 9 runs the real `kite` (dist/cli.js).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedModel } from '../../../src/harness/model/scripted';
import type { Reply } from '../../../src/harness/model/model';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, tempRepo } from '../../unit/loop/kit';
import { buildOnce, events, hostileProject, identities, KEY, runKite, type Project } from './hostileKit';

/** Values with harmless names: only the value detectors can know they are secret. */
const DOTENV = {
  DATABASE_URL: 'postgres://app:Db5ecretPassw0rd@db.internal:5432/app',
  CONN_STR: 'Server=db.internal;User Id=sa;Password=Hunter2Hunter2x;',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0KITE000/B0KITE000/abcdefghijklmnopqrstuvwx',
  STRIPE_SK: 'sk_live_51KiteHostileSuiteStripeKey00',
};
const DOTENV_TEXT = `NODE_ENV=production\nPORT=3000\n${Object.entries(DOTENV)
  .map(([k, v]) => `${k}=${v}`)
  .join('\n')}\n`;
const GITHUB = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraXRlLWhvc3RpbGUifQ.c2lnbmF0dXJlLW9mLXRoZS1ob3N0aWxl';
const PEM_BODY = 'MIIEowIBAAKCAQEAkiteHostileSuitePrivateKeyBody';
const usage = { input_tokens: 10, output_tokens: 5 };
const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HARMLESS = [`sha256 ${SHA}`, 'id 123e4567-e89b-12d3-a456-426614174000', 'integrity sha512-Zk3NJdsaL9V8eJ3qKXQ2nC4mP7rT1uW5yB8vA0hG6fD2sE9jL4oI3kM7nQ1pR==', 'call toolu_01ABCdefGHIjklMNOpqrSTUvwx12', 'NODE_ENV=production'];

const read = (id: string, path: string): Reply => ({ content: [{ type: 'tool_use', id, name: 'read_file', input: { path } }], stop_reason: 'tool_use', usage });
const write = (id: string, path: string, content: string) => ({ content: [{ type: 'tool_use', id, name: 'write_file', input: { path, content } }], stop_reason: 'tool_use', usage });
const say = (text: string): Reply => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn', usage });

function project(files: Record<string, string>, config: Record<string, unknown> = {}): string {
  return tempRepo({
    'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Secrets', status: 'todo', verify: null, notes: '', expects_no_change: true }] }),
    '.kite/config.json': JSON.stringify({ checks: ['true'], ...config }),
    '.gitignore': '.env\nconfig/.env.*\n',
    '.env': DOTENV_TEXT,
    ...files,
  });
}

async function runInProcess(root: string, replies: Reply[], mode: 'attended' | 'unattended' = 'unattended', host = new CannedHost()) {
  const model = new ScriptedModel(replies);
  const summary = await runFeature({ root, mode, model: '', modelOverride: model, env: { ...process.env, ANTHROPIC_API_KEY: KEY } }, host);
  const log = readFileSync(summary.logPath, 'utf8');
  const evs = log
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);
  return { summary, model, log, evs, sent: (i: number) => JSON.stringify(model.requests[i]?.messages ?? null) };
}

function toolEvent(evs: KiteEvent[], id: string): Extract<KiteEvent, { kind: 'tool' }> {
  const e = evs.find((x): x is Extract<KiteEvent, { kind: 'tool' }> => x.kind === 'tool' && x.id === id);
  assert.ok(e, `a tool event for ${id}`);
  return e;
}

describe('hostile: secrets never reach the model, the notes or a commit', function () {
  this.timeout(120_000);

  describe('item 7: redaction at the model boundary (in-process run, the model records its requests)', () => {
    it('a file holding the API key, .env values (DATABASE_URL, CONN_STR, SLACK_WEBHOOK_URL, STRIPE_SK) and key shapes reaches the model redacted, with a note; hashes and ids stay', async () => {
      const settings = [`anthropic=${KEY}`, ...Object.values(DOTENV), 'sa password alone: Hunter2Hunter2x', `gh ${GITHUB}`, `jwt ${JWT}`, '-----BEGIN RSA PRIVATE KEY-----', PEM_BODY, '-----END RSA PRIVATE KEY-----', ...HARMLESS].join('\n');
      const root = project({ 'deploy/settings.txt': `${settings}\n` });
      const r = await runInProcess(root, [read('t1', 'deploy/settings.txt'), say('Done.')]);
      const sent = r.sent(1);
      for (const v of [KEY, ...Object.values(DOTENV), 'Db5ecretPassw0rd', 'Hunter2Hunter2x', GITHUB, JWT, PEM_BODY]) assert.ok(!sent.includes(v), `the model was not sent ${v.slice(0, 12)}…`);
      for (const label of ['ANTHROPIC_API_KEY', 'DATABASE_URL', 'CONN_STR', 'SLACK_WEBHOOK_URL', 'STRIPE_SK', 'github_token', 'jwt', 'private_key']) assert.ok(sent.includes(`[${label} redacted]`), `marker for ${label}`);
      assert.match(sent, /Kite redacted \d+ secret value\(s\) from this result/);
      for (const h of HARMLESS) assert.ok(sent.includes(h), `left alone: ${h}`);
      // The tool event holds exactly what the model saw, so a resume folds the same conversation.
      assert.ok(sent.includes(JSON.stringify(toolEvent(r.evs, 't1').output).slice(1, -1)));
      assert.equal(r.summary.outcome, 'done', r.summary.error ?? '');
    });

    it('per detector: a Stripe key set to "block" withholds the whole result; a JWT set to "audit" passes with a secret_audit warning that never holds it', async () => {
      const stripe = 'rk_live_51KiteBlockedRestrictedKey0';
      const root = project({ 'billing.txt': `key: ${stripe}\n`, 'auth.txt': `header\ntoken ${JWT}\n` }, { redaction: { stripe_key: 'block', jwt: 'audit' } });
      const r = await runInProcess(root, [read('t1', 'billing.txt'), read('t2', 'auth.txt'), say('Done.')]);
      assert.ok(!r.sent(1).includes(stripe) && !r.sent(2).includes(stripe), 'the blocked key never reached the model');
      const blocked = toolEvent(r.evs, 't1');
      assert.equal(blocked.is_error, true);
      assert.match(blocked.output, /Kite withheld this result: it contains a secret \(detector stripe_key, line 1 of the result of read_file t1 \(billing\.txt\)\)/);
      assert.ok(r.sent(2).includes(JWT), 'audit lets the JWT through to the model');
      const audits = r.evs.filter((e): e is Extract<KiteEvent, { kind: 'warning' }> => e.kind === 'warning' && e.code === 'secret_audit');
      assert.equal(audits.length, 1);
      assert.match(audits[0].message, /secret detector jwt matched 1 time\(s\), first at line 2 of the result of read_file t2 \(auth\.txt\)/);
      assert.ok(!audits[0].message.includes(JWT) && !audits[0].message.includes('eyJ'), 'the audit event never carries the value');
      assert.equal(r.summary.outcome, 'done', r.summary.error ?? '');
    });

    it('a value read from a secret file after approval is withheld from every later result and from the notes', async () => {
      const phrase = 'correct-horse-battery-staple-9';
      const root = project({ 'config/.env.staging': `DEPLOY_SECRET_PHRASE=${phrase}\n`, 'logs/deploy.log': `deploying with ${phrase}\n` });
      const host = new CannedHost([{ decision: 'approve' }]);
      const r = await runInProcess(root, [read('t1', 'config/.env.staging'), read('t2', 'logs/deploy.log'), say(`Done; the phrase is ${phrase}.`)], 'attended', host);
      assert.equal(host.requests[0]?.kind, 'read', 'the secret file was read only after the person approved');
      assert.ok(toolEvent(r.evs, 't1').output.includes(phrase), 'the approved read itself shows the file');
      assert.ok(!toolEvent(r.evs, 't2').output.includes(phrase));
      assert.match(toolEvent(r.evs, 't2').output, /deploying with \[DEPLOY_SECRET_PHRASE redacted\]/);
      assert.ok(!r.sent(2).slice(r.sent(1).length).includes(phrase), 'the later result sent to the model does not hold it');
      const progress = readFileSync(join(root, 'kite-progress.json'), 'utf8');
      assert.ok(!progress.includes(phrase), 'the notes do not hold it');
      assert.match(progress, /the phrase is \[DEPLOY_SECRET_PHRASE redacted\]/);
      assert.equal(r.summary.outcome, 'done', r.summary.error ?? '');
    });

    it('a check that prints .env: the gate feedback the model gets and the gate event hold none of its values', async () => {
      const root = project({}, { checks: ['cat .env; exit 1'], max_gate_failures: 2 });
      const r = await runInProcess(root, [say('Done.'), say('Done, really.')]);
      assert.equal(r.summary.outcome, 'gate_failed', r.summary.error ?? '');
      const sent = r.sent(1);
      assert.match(sent, /FAILED: `cat \.env; exit 1`/, 'the model was told the check failed');
      assert.ok(sent.includes('NODE_ENV=production'), 'the harmless part of the output is kept');
      for (const v of [...Object.values(DOTENV), 'Db5ecretPassw0rd', 'Hunter2Hunter2x']) {
        assert.ok(!sent.includes(v), `the model was not sent ${v.slice(0, 12)}…`);
        assert.ok(!r.log.includes(v), `the log does not hold ${v.slice(0, 12)}…`);
      }
    });
  });

  describe('item 9: notes and commits (real kite run)', () => {
    before(buildOnce);
    const as = identities()[0];

    function cliProject(replies: unknown[], extra: Record<string, string> = {}): Project {
      const p = hostileProject(as, 'exit 0\n', {}, { '.gitignore': '.env\n', '.env': DOTENV_TEXT, ...extra });
      writeFileSync(p.script, JSON.stringify(replies));
      return p;
    }
    const gitIn = (p: Project, ...args: string[]) => execFileSync('git', args, { cwd: p.repo, encoding: 'utf8' });

    it("the agent's final message quotes .env secrets and a key, and QUEUEs a title holding one: the notes, the new feature and the commit hold none", () => {
      const closing = `Done. The database is ${DOTENV.DATABASE_URL}, Stripe uses ${DOTENV.STRIPE_SK}, my token is ${GITHUB}.\nQUEUE: rotate ${DOTENV.STRIPE_SK} before launch`;
      const p = cliProject([write('toolu_w', 'attack.sh', 'exit 0\n'), say(closing)]);
      const r = runKite(as, p);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const progress = readFileSync(join(p.repo, 'kite-progress.json'), 'utf8');
      const committed = gitIn(p, 'show', 'HEAD');
      for (const v of [DOTENV.DATABASE_URL, 'Db5ecretPassw0rd', DOTENV.STRIPE_SK, GITHUB]) {
        assert.ok(!progress.includes(v), `progress file free of ${v.slice(0, 12)}…`);
        assert.ok(!committed.includes(v), `commit free of ${v.slice(0, 12)}…`);
      }
      assert.match(progress, /The database is \[DATABASE_URL redacted\], Stripe uses \[STRIPE_SK redacted\], my token is \[github_token redacted\]/);
      assert.match(progress, /"title": "rotate \[STRIPE_SK redacted\] before launch"/);
      assert.equal(events(p).at(-1)?.kind, 'session_end');
    });

    it('a binary fixture holding the API key and a text fixture holding .env values are not committed: the error names each file and detector', () => {
      // NUL bytes make git call it binary: a diff then shows no line of it, only "Binary files differ".
      const p = cliProject([write('toolu_w', 'attack.sh', 'exit 0\n'), write('toolu_b', 'fixture.bin', `\u0000\u0001PNG${KEY}\u0000`), write('toolu_t', 'fixtures/db.txt', `conn=${DOTENV.CONN_STR}\nurl=${DOTENV.DATABASE_URL}\n`), say('Done.')]);
      const head = gitIn(p, 'rev-parse', 'HEAD');
      const r = runKite(as, p);
      const said = r.stdout + r.stderr;
      assert.equal(r.status, 1, said);
      assert.equal(gitIn(p, 'rev-parse', 'HEAD'), head, 'nothing was committed');
      assert.match(said, /fixture\.bin holds the value of ANTHROPIC_API_KEY/);
      assert.match(said, /fixtures\/db\.txt holds the value of (CONN_STR|DATABASE_URL)/);
      for (const v of [KEY, DOTENV.CONN_STR, 'Hunter2Hunter2x', DOTENV.DATABASE_URL]) assert.ok(!said.includes(v), 'the message never holds the value');
      assert.ok(readFileSync(join(p.repo, 'fixture.bin')).includes(Buffer.from(KEY)), 'the work stays in the tree for the person');
      const end = events(p).at(-1);
      assert.ok(end?.kind === 'session_end' && end.status === 'error');
    });
  });
});
