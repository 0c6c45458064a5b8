// Secrets in Kite's environment (the model key, any *_TOKEN) never reach a command the agent
// runs, the event log, the progress file or a commit — checked on a real `kite run` process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventSchema } from '../../../src/harness/protocol/events';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'harness', 'cli.ts');
const TSX = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

const KEY = 'sk-ant-test-Zq8secretKEYvalue0123456789';
const FOO = 'foo-token-Wv3-very-secret';

describe('secrets on a real kite run (env printed, key written to a file)', function () {
  this.timeout(60_000);
  let repo: string;
  let head: string;
  let code: number | null;
  let stdout: string;
  let log: string;

  before(() => {
    repo = tempRepo({
      'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Config', status: 'todo', verify: null, notes: '' }] }),
      '.kite/config.json': JSON.stringify({ checks: ['true'], policy: { rules: [{ decision: 'allow', tool: 'run', command: 'env' }] } }),
    });
    head = git(repo, 'rev-parse', 'HEAD');
    const usage = { input_tokens: 10, output_tokens: 5 };
    const script = join(tempDir(), 'script.json');
    writeFileSync(
      script,
      JSON.stringify([
        { content: [{ type: 'tool_use', id: 't1', name: 'run', input: { command: 'env' } }], stop_reason: 'tool_use', usage },
        { content: [{ type: 'tool_use', id: 't2', name: 'write_file', input: { path: 'config.txt', content: `key=${KEY}\nfoo=${FOO}\n` } }], stop_reason: 'tool_use', usage },
        { content: [{ type: 'text', text: `Configured with ${KEY}.` }], stop_reason: 'end_turn', usage },
      ]),
    );
    const r = spawnSync(process.execPath, ['--import', TSX, CLI, 'run', '--model', `script:${script}`], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, ANTHROPIC_API_KEY: KEY, FOO_TOKEN: FOO },
    });
    code = r.status;
    stdout = r.stdout + r.stderr;
    const runs = join(repo, '.kite', 'runs');
    log = readFileSync(join(runs, readdirSync(runs).find((f) => f.endsWith('.jsonl')) ?? 'missing'), 'utf8');
  });

  it('the command the agent ran saw neither secret (nor their names)', () => {
    const env = log
      .split('\n')
      .filter(Boolean)
      .map((l) => EventSchema.parse(JSON.parse(l)))
      .find((e) => e.kind === 'tool' && e.name === 'run');
    assert.ok(env?.kind === 'tool' && !env.is_error);
    assert.match(env.output, /PATH=/); // it did print the environment
    assert.doesNotMatch(env.output, /ANTHROPIC_API_KEY|FOO_TOKEN/);
  });

  it('the log holds neither secret anywhere (tool args, model content, notes)', () => {
    assert.ok(log.length > 0);
    assert.equal(log.includes(KEY), false);
    assert.equal(log.includes(FOO), false);
    assert.match(log, /\[REDACTED\]/);
  });

  it('the file with the key is not committed: outcome error says which file holds which variable; the work stays', () => {
    assert.equal(code, 1);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
    assert.match(stdout, /end {2}error — .*config\.txt holds the value of (ANTHROPIC_API_KEY|FOO_TOKEN)/);
    assert.equal(readFileSync(join(repo, 'config.txt'), 'utf8').includes(KEY), true);
    assert.equal(stdout.includes(KEY), false);
  });

  it('the progress file never holds the key (the closing words are redacted)', () => {
    const progress = readFileSync(join(repo, 'kite-progress.json'), 'utf8');
    assert.equal(progress.includes(KEY), false);
    assert.match(progress, /Configured with \[ANTHROPIC_API_KEY redacted\]/);
  });
});
