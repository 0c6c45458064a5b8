// The hostile suite's kit: a throw-away project whose gate check runs a script the agent wrote,
// run by the real `kite` (dist/cli.js) with a scripted model, as root or as an unprivileged user
// (people are not root; unprivileged bubblewrap needs user namespaces). Each attack writes what
// it saw into out/ in the workspace; the tests read it and look at the host.
import { execFileSync, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';

export const ROOT = join(__dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const TEST_USER = 'kite-sandbox-test';
/** A value the attacks hunt for: present in Kite's environment, never in a command's. */
export const KEY = 'sk-ant-api03-hostile-suite-secret-0000000000';

export interface As {
  label: string;
  user: string | null; // null: the current user
  uid: number;
  gid: number;
  home: string;
}

function passwd(user: string): { uid: number; gid: number; home: string } | null {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${user}:`));
  if (!line) return null;
  const f = line.split(':');
  return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] };
}

/** Root runs everything twice: as root and as a user it creates; anyone else runs as themselves. */
export function identities(): As[] {
  const uid = process.getuid?.() ?? 0;
  const me: As = { label: uid === 0 ? 'root' : 'the current user', user: null, uid, gid: process.getgid?.() ?? 0, home: process.env.HOME ?? '/' };
  if (uid !== 0) return [me];
  if (!passwd(TEST_USER)) execFileSync('useradd', ['--create-home', '--shell', '/bin/sh', TEST_USER], { stdio: 'ignore' });
  const p = passwd(TEST_USER);
  if (!p) throw new Error(`could not create the test user ${TEST_USER}`);
  return [me, { label: `unprivileged user ${TEST_USER}`, user: TEST_USER, ...p }];
}

const made: string[] = [];
process.once('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function chownTree(dir: string, as: As): void {
  if (as.user === null) return;
  execFileSync('chown', ['-R', `${as.uid}:${as.gid}`, dir]);
}

export interface Project {
  base: string; // a folder holding the repo (and room "outside" it)
  repo: string;
  script: string;
}

/** A git repo where feature F1's gate runs `sh attack.sh`, which the scripted agent writes first. */
export function hostileProject(as: As, attack: string, config: Record<string, unknown> = {}, extraFiles: Record<string, string> = {}): Project {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'kite-hostile-')));
  made.push(base);
  chmodSync(base, 0o755);
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.kite'), { recursive: true });
  mkdirSync(join(repo, 'out'));
  writeFileSync(join(repo, 'out', '.keep'), '');
  writeFileSync(join(repo, 'kite-progress.json'), JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Attack', status: 'todo', verify: null, notes: '', expects_no_change: true }] }, null, 2) + '\n');
  writeFileSync(join(repo, '.kite', 'config.json'), JSON.stringify({ checks: ['sh attack.sh'], command_timeout: 30, ...config }, null, 2) + '\n');
  for (const [rel, text] of Object.entries(extraFiles)) writeFileSync(join(repo, rel), text);
  const script = join(base, 'script.json');
  writeFileSync(
    script,
    JSON.stringify([
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: 'attack.sh', content: attack } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } },
      { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } },
      { content: [{ type: 'text', text: 'Done again.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } },
      { content: [{ type: 'text', text: 'Done once more.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } },
    ]),
  );
  const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.name', 'Hostile Test');
  g('config', 'user.email', 'hostile@kite.invalid');
  g('config', 'commit.gpgsign', 'false');
  g('add', '-A');
  g('commit', '-q', '-m', 'initial');
  chownTree(base, as);
  return { base, repo, script };
}

let userCli: string | null = null;
/** The bundled CLI where another user can read it (the checkout may sit in a private folder such as /root). */
function cliFor(as: As): string {
  if (as.user === null) return CLI;
  if (userCli === null) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kite-hostile-cli-')));
    made.push(dir);
    chmodSync(dir, 0o755);
    userCli = join(dir, 'cli.js');
    // dist/cli.js is the launcher: the program (cliMain.js) goes next to it.
    for (const name of ['cli.js', 'cliMain.js']) {
      writeFileSync(join(dir, name), readFileSync(join(dirname(CLI), name)));
      chmodSync(join(dir, name), 0o644);
    }
  }
  return userCli;
}

/** argv (and env) that run `node dist/cli.js …` as `as`. */
function command(as: As, args: string[], env: Record<string, string>): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const full = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: as.home, ANTHROPIC_API_KEY: KEY, ...env };
  if (as.user === null) return { file: process.execPath, args: [CLI, ...args], env: full };
  return { file: '/usr/sbin/runuser', args: ['-u', as.user, '--', 'env', '-i', ...Object.entries(full).map(([k, v]) => `${k}=${v}`), process.execPath, cliFor(as), ...args], env: {} };
}

export function runKite(as: As, p: Project, env: Record<string, string> = {}, extra: string[] = []): SpawnSyncReturns<string> {
  const c = command(as, ['run', '--unattended', '--model', `script:${p.script}`, ...extra], env);
  return spawnSync(c.file, c.args, { cwd: p.repo, env: c.env, encoding: 'utf8', timeout: 120_000 });
}

/** Starts kite without waiting (for kill -9). */
export function startKite(as: As, p: Project) {
  const c = command(as, ['run', '--unattended', '--model', `script:${p.script}`], {});
  return spawn(c.file, c.args, { cwd: p.repo, env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function events(p: Project): KiteEvent[] {
  const runs = join(p.repo, '.kite', 'runs');
  const log = readdirSync(runs).find((f) => f.endsWith('.jsonl') && !f.includes('replay'));
  if (!log) throw new Error('no log was written');
  return readFileSync(join(runs, log), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => EventSchema.parse(JSON.parse(l)));
}

export function outcome(p: Project): string {
  const end = events(p).at(-1);
  return end?.kind === 'session_end' ? end.status : `no session_end (last: ${end?.kind})`;
}

export function out(p: Project, name: string): string {
  const f = join(p.repo, 'out', name);
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
}

/** Host pids whose command line contains `token`, zombies excluded. */
export function hostProcessesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${name}/status`, 'utf8'))) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(token)) found.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return found;
}

export async function eventually(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function buildOnce(): void {
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

/** runKite without blocking this process (a test's own server must keep accepting). */
export function runKiteAsync(as: As, p: Project, env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const c = command(as, ['run', '--unattended', '--model', `script:${p.script}`], env);
  const child = spawn(c.file, c.args, { cwd: p.repo, env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/** A home for Kite's process with things worth stealing in it, owned by `as`. */
export function fakeHome(p: Project, as: As): string {
  const home = join(p.base, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY}\n`);
  writeFileSync(join(home, '.bashrc'), '# the person\'s bashrc\n');
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${KEY}\n`);
  chownTree(home, as);
  return home;
}
