// The bubblewrap command line as text: what a security reviewer reads to trust the sandbox.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../../src/harness/config/config';
import { bwrapArgs, type BwrapPlan } from '../../../src/harness/sandbox/bwrap';
import { protectedPaths, toolchainMounts } from '../../../src/harness/sandbox/bwrapSandbox';
import { commandEnv } from '../../../src/harness/sandbox/environment';
import { DEFAULT_LIMITS } from '../../../src/harness/sandbox/settings';
import { tempDir } from '../loop/kit';

function plan(root: string, over: Partial<BwrapPlan> = {}): BwrapPlan {
  return { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', root, cwd: root, protect: protectedPaths(root, join(root, '.kite', 'runs')), hostHome: '/home/alice', home: '/home/alice', readOnly: [], network: 'none', env: { PATH: '/usr/bin' }, limits: DEFAULT_LIMITS, asRoot: false, command: 'npm test', ...over };
}

/** The index of a flag followed by its operands, or -1. */
function at(args: string[], ...seq: string[]): number {
  return args.findIndex((_, i) => seq.every((s, k) => args[i + k] === s));
}

describe('bwrap command line', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir();
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'kite-progress.json'), '{}');
  });

  it('unshares every namespace incl. the network, dies with Kite, gets its own session, a fresh /proc and private /tmp', () => {
    const a = bwrapArgs(plan(root));
    for (const f of ['--unshare-all', '--die-with-parent', '--new-session', '--clearenv']) assert.ok(a.includes(f), f);
    assert.ok(!a.includes('--share-net'));
    assert.ok(at(a, '--proc', '/proc') >= 0 && at(a, '--dev', '/dev') >= 0 && at(a, '--tmpfs', '/tmp') >= 0);
    assert.ok(at(a, '--tmpfs', '/home/alice') >= 0, 'the home is an empty tmpfs');
    assert.ok(at(bwrapArgs(plan(root, { network: 'host' })), '--share-net') >= 0);
  });

  it('binds the workspace read-write, then Kite\'s files read-only on top (a missing .kite becomes a read-only tmpfs)', () => {
    const a = bwrapArgs(plan(root));
    const rw = at(a, '--bind', root, root);
    assert.ok(rw >= 0);
    assert.ok(at(a, '--ro-bind', join(root, '.git'), join(root, '.git')) > rw);
    assert.ok(at(a, '--ro-bind', join(root, 'kite-progress.json'), join(root, 'kite-progress.json')) > rw);
    assert.ok(at(a, '--tmpfs', join(root, '.kite'), '--remount-ro', join(root, '.kite')) > rw);
    assert.equal(at(a, '--tmpfs', join(root, '.kite', 'runs')), -1, 'the log folder is covered by .kite already');
  });

  it('drops every capability when Kite runs as root, and ends with prlimit and /bin/sh -c the command', () => {
    const a = bwrapArgs(plan(root, { asRoot: true }));
    assert.ok(at(a, '--cap-drop', 'ALL') >= 0);
    const dash = a.lastIndexOf('--', a.length - 4);
    assert.deepEqual(a.slice(a.indexOf('/usr/bin/prlimit')), ['/usr/bin/prlimit', '--nproc=512', `--data=${3072 * 1024 * 1024}`, `--fsize=${1024 * 1024 * 1024}`, '--nofile=4096', '--cpu=1800', '--', '/bin/sh', '-c', 'npm test']);
    assert.ok(dash > 0);
  });

  it('covers secrets in /etc even though the system is visible', () => {
    const a = bwrapArgs(plan(root));
    assert.ok(at(a, '--ro-bind', '/dev/null', '/etc/shadow') >= 0);
  });

  it('keeps toolchains on PATH visible: an nvm-style prefix comes whole (npm lives in lib/), ~/.local/bin alone', () => {
    const home = tempDir();
    const nvm = join(home, '.nvm', 'versions', 'node', 'v20', 'bin');
    mkdirSync(nvm, { recursive: true });
    mkdirSync(join(home, '.nvm', 'versions', 'node', 'v20', 'lib'));
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    mkdirSync(join(home, '.local', 'lib'));
    const mounts = toolchainMounts(`${nvm}:${join(home, '.local', 'bin')}:/usr/bin:relative/bin`, root, home);
    assert.deepEqual(mounts, [join(home, '.nvm', 'versions', 'node', 'v20'), join(home, '.local', 'bin')]);
  });
});

describe('sandbox settings and environment', () => {
  it("a config that passes Kite's own key to commands is an error naming sandbox.env.pass", () => {
    assert.throws(() => parseConfig(JSON.stringify({ sandbox: { env: { pass: ['ANTHROPIC_API_KEY'] } } })), /sandbox\.env\.pass.*Kite's own credential/s);
    assert.throws(() => parseConfig(JSON.stringify({ sandbox: { network: 'internet' } })), /sandbox\.network/);
    assert.throws(() => parseConfig(JSON.stringify({ sandbox: { mounts: { read_only: ['opt/x'] } } })), /absolute path/);
  });

  it('defaults: sandbox on, no network, limits set; "off" is off and says who turned it off', () => {
    const on = parseConfig('{}');
    assert.equal(on.sandbox.enabled, true);
    assert.equal(on.sandbox.network, 'none');
    assert.equal(on.sandbox.limits.processes, 512);
    const off = parseConfig('{"sandbox": "off"}');
    assert.equal(off.sandbox.enabled, false);
    assert.equal(off.sandbox_off_by, 'sandbox: off in .kite/config.json');
  });

  it('the environment is an allowlist; a passed name comes through, Kite\'s own key never does', () => {
    const env = commandEnv({ base: { PATH: '/bin', LC_ALL: 'C', TERM: 'xterm', STRIPE_SK: 'x', ANTHROPIC_API_KEY: 'k', DATABASE_URL: 'd' }, home: '/h', tmp: '/tmp', pass: ['DATABASE_URL', 'ANTHROPIC_API_KEY'], sandbox: 'bwrap' });
    assert.deepEqual(Object.keys(env).sort(), ['DATABASE_URL', 'GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'HOME', 'KITE_AGENT', 'KITE_SANDBOX', 'LC_ALL', 'PAGER', 'PATH', 'TERM', 'TMPDIR']);
  });
});
