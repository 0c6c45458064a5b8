// A real run to restore from: a git repository, the scripted model, runFeature (the loop, the
// tools, the log writer), and the `kite` CLI under tsx.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Host } from '../../../src/harness/host';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { readLog } from '../../../src/harness/events/reader';
import { runFeature } from '../../../src/harness/run';
import { tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'harness', 'cli.ts');
const TSX = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

export const A0 = 'module.exports = () => 0;\n';
export const A1 = 'module.exports = () => 1;\n';
export const A2 = 'module.exports = () => 2; // edited\n';
export const NEW = 'exports.created = true;\n';

const approveAll: Host = { approve: () => Promise.resolve({ decision: 'approve' }) };

export interface RunFixture {
  repo: string;
  log: string;
  events: KiteEvent[];
  /** seq of the tool event of each write, in order: a.js = A1, a.js = A2 (edit), lib/new.js created. */
  writes: number[];
}

/** A run that writes src/a.js, edits it, creates lib/new.js; it ends unverified (no check), so nothing is committed. */
export async function runThatWrites(): Promise<RunFixture> {
  const repo = tempRepo({
    'src/a.js': A0,
    'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Change a', status: 'todo', verify: null, notes: '' }] }, null, 2) + '\n',
    '.kite/config.json': JSON.stringify({ checks: [] }),
  });
  const model = new ScriptedModel([
    use('write_file', 'w1', { path: 'src/a.js', content: A1 }),
    use('edit_file', 'w2', { path: 'src/a.js', old_string: '1;', new_string: '2; // edited' }),
    use('write_file', 'w3', { path: 'lib/new.js', content: NEW }),
    say('Done.'),
  ]);
  const s = await runFeature({ root: repo, mode: 'attended', model: '', modelOverride: model }, approveAll);
  const events = (await readLog(s.logPath)).events;
  const writes = events.filter((e) => e.kind === 'tool' && !e.is_error).map((e) => e.seq);
  assert.equal(writes.length, 3, 'the three writes ran');
  assert.equal(readFileSync(join(repo, 'src/a.js'), 'utf8'), A2);
  return { repo, log: s.logPath, events, writes };
}

export function kite(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const text = (repo: string, rel: string): string | null => (existsSync(join(repo, rel)) ? readFileSync(join(repo, rel), 'utf8') : null);
