// The macOS sandbox cannot run here (Linux), so these read the profile and the argv it builds:
// what a reviewer of a Seatbelt profile checks — network, write and read scopes, rule order
// (SBPL: the last matching rule wins), quoting — plus the limit script, run by a POSIX shell.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreparedCommand } from '../../../src/harness/sandbox/commandSandbox';
import { limitScript, probeSeatbelt, SANDBOX_EXEC, SeatbeltSandbox, seatbeltParams, seatbeltProfile, type SeatbeltPlan, type SeatbeltSandboxOptions } from '../../../src/harness/sandbox/seatbelt';
import { resolveSandboxSettings } from '../../../src/harness/sandbox/settings';

/** Top-level forms of an SBPL text (comments dropped); throws unless parens and strings balance. */
function forms(sbpl: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < sbpl.length; i++) {
    const c = sbpl[i];
    if (c === ';' && depth === 0) i = sbpl.indexOf('\n', i) === -1 ? sbpl.length : sbpl.indexOf('\n', i);
    else if (c === '"') {
      for (i++; i < sbpl.length && sbpl[i] !== '"'; i++) if (sbpl[i] === '\\') i++;
      assert.ok(i < sbpl.length, 'unterminated string');
    } else if (c === '(') {
      if (depth++ === 0) start = i;
    } else if (c === ')') {
      assert.ok(--depth >= 0, 'unbalanced )');
      if (depth === 0) out.push(sbpl.slice(start, i + 1).replace(/\s+/g, ' '));
    } else if (depth === 0) assert.match(c, /\s/, `stray text outside a form at ${i}`);
  }
  assert.equal(depth, 0, 'unbalanced (');
  return out;
}

const idx = (fs: string[], pred: (f: string) => boolean) => fs.findIndex(pred);
const lastIdx = (fs: string[], pred: (f: string) => boolean) => fs.map(pred).lastIndexOf(true);

function plan(over: Partial<SeatbeltPlan> = {}): SeatbeltPlan {
  return { root: '/Users/me/proj', tmp: '/private/var/folders/x/T/kite-sb-1', hostHome: '/Users/me', hostTmp: '/private/var/folders/x/T', readable: [], protect: [{ path: '/Users/me/proj/.git', dir: true }], secretTargets: [], network: 'none', ...over };
}

describe('seatbelt sandbox (macOS), profile and argv', () => {
  let dir: string;
  const made: PreparedCommand[] = [];
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'kite-seatbelt-test-')));
  });
  afterEach(() => {
    for (const p of made.splice(0)) if (p.ok) p.cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A workspace inside a fake home, with a git folder and a nested log folder. */
  function sandbox(over: Partial<SeatbeltSandboxOptions> = {}) {
    const home = join(dir, 'home');
    const root = join(home, 'code', 'proj');
    const hostTmp = join(dir, 'T');
    for (const d of [join(root, '.git'), hostTmp]) mkdirSync(d, { recursive: true });
    const opts: SeatbeltSandboxOptions = { root, logDir: join(root, 'out', 'logs'), settings: resolveSandboxSettings({}), env: { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: hostTmp }, userProcesses: () => 300, ...over };
    return { home, root, hostTmp, sb: new SeatbeltSandbox(opts) };
  }

  async function prepare(sb: SeatbeltSandbox, command = 'npm test') {
    const p = await sb.prepare({ command, cwd: dir, timeout_s: 5 });
    made.push(p);
    assert.ok(p.ok, 'prepared');
    const params = new Map<string, string>();
    for (let i = p.args.indexOf('-D'); i !== -1; i = p.args.indexOf('-D', i + 2)) {
      const [k, ...v] = p.args[i + 1].split('=');
      params.set(k, v.join('='));
    }
    const param = (value: string) => [...params].find(([, v]) => v === value)?.[0];
    return { p, profile: p.args[1], fs: forms(p.args[1]), params, param };
  }

  it('network none: every network operation is denied except loopback and the command\'s own unix sockets; no DNS or certificate fetches by proxy', () => {
    const fs = forms(seatbeltProfile(plan()));
    assert.ok(fs.includes('(deny network*)'));
    assert.ok(!fs.some((f) => /^\(allow network\*/.test(f)), 'no blanket network allow');
    const outbound = fs.filter((f) => /^\(allow [^(]*network-outbound/.test(f));
    assert.ok(outbound.length > 0);
    const allowed = /\(remote unix-socket \(subpath \(param "(ROOT|TMP)"\)\)\)|\(remote ip "localhost:\*"\)/g;
    for (const f of outbound) assert.equal(f.replace(allowed, '').replace(/\s+\)/g, ')'), '(allow network-outbound)', `only loopback and own sockets: ${f}`);
    for (const service of ['com.apple.dnssd.service', 'com.apple.trustd.agent', 'com.apple.SecurityServer', 'com.apple.SystemConfiguration.configd']) assert.ok(!fs.some((f) => f.includes(`"${service}"`)), `${service} is not reachable`);
    assert.ok(!fs.some((f) => f.includes('mDNSResponder')), 'the resolver socket is not reachable');
  });

  it('network host: the network is allowed, but daemon unix sockets (Docker, the SSH agent) stay closed', () => {
    const fs = forms(seatbeltProfile(plan({ network: 'host' })));
    const allowAll = idx(fs, (f) => f === '(allow network*)');
    assert.ok(allowAll >= 0 && !fs.includes('(deny network*)'));
    assert.ok(fs.some((f) => f.includes('"com.apple.dnssd.service"')), 'names resolve');
    const denyUnix = idx(fs, (f) => f === '(deny network-outbound (remote unix-socket (path-regex #"^/")))');
    assert.ok(denyUnix > allowAll, 'the unix-socket deny comes after the network allow');
    assert.ok(lastIdx(fs, (f) => f.includes('(remote unix-socket (subpath (param "ROOT")))')) > denyUnix, 'the workspace sockets are re-allowed after it');
  });

  it('writes are allowed only in the workspace, the private folder and terminal devices', () => {
    const fs = forms(seatbeltProfile(plan()));
    const writes = fs.filter((f) => /^\(allow [^(]*file-write/.test(f));
    assert.equal(writes.length, 1, writes.join('\n'));
    const filters = writes[0].replace(/^\(allow file-write\* /, '').slice(0, -1);
    const rest = filters.replace(/\(subpath \(param "(ROOT|TMP)"\)\)/g, '').replace(/\((literal|subpath) "\/dev\/[a-z]+"\)|\(regex #"\^\/dev\/ttys\[0-9\]\+\$"\)/g, '').trim();
    assert.equal(rest, '', `unexpected writable places: ${rest}`);
    assert.ok(!fs.some((f) => /\(allow file\*/.test(f) || f === '(allow default)'));
  });

  it('.git, .kite, kite-progress.json, the log folder and extra protected files are denied for writes after the write allow, and their parent folders cannot be moved', async () => {
    const { root, sb } = sandbox({ protect: ['gate.sh'] });
    const { fs, param } = await prepare(sb);
    const allow = lastIdx(fs, (f) => f.startsWith('(allow file-write*'));
    const deny = lastIdx(fs, (f) => f.startsWith('(deny file-write* '));
    assert.ok(deny > allow, 'deny after allow: SBPL takes the last matching rule');
    const cases: [string, 'subpath' | 'literal'][] = [['.git', 'subpath'], ['.kite', 'subpath'], ['kite-progress.json', 'literal'], ['out/logs', 'subpath'], ['gate.sh', 'literal']];
    for (const [rel, filter] of cases) {
      const name = param(join(root, rel));
      assert.ok(name, `${rel} is a parameter`);
      assert.ok(fs[deny].includes(`(${filter} (param "${name}"))`), `${rel} is denied as ${filter}`);
    }
    // Moving out/ would carry out/logs out from under its deny; the root itself cannot be moved either.
    for (const folder of [join(root, 'out'), root]) assert.ok(fs[deny].includes(`(literal (param "${param(folder) ?? '?'}"))`), `${folder} is pinned`);
  });

  it('the home is unreadable except the workspace and toolchains on PATH; secrets are denied last, also where they link outside the home', async () => {
    const home = join(dir, 'home');
    const node = join(home, '.nvm', 'versions', 'node', 'v20');
    const keys = join(dir, 'keys');
    for (const d of [join(node, 'bin'), join(node, 'lib'), keys]) mkdirSync(d, { recursive: true });
    symlinkSync(keys, join(home, '.ssh'));
    const { root, sb } = sandbox({ env: { PATH: `${join(node, 'bin')}:/usr/bin`, HOME: home, TMPDIR: join(dir, 'T') } });
    const { fs, param, params } = await prepare(sb);
    const hide = idx(fs, (f) => f.startsWith('(deny file-read* ') && f.includes('(subpath (param "HOME"))'));
    assert.equal(params.get('HOME'), home);
    assert.ok(hide > idx(fs, (f) => f === '(allow file-read*)'), 'the home is hidden after the blanket read allow');
    const reopen = idx(fs, (f) => f.startsWith('(allow file-read* '));
    assert.ok(reopen > hide);
    for (const p of [root, node]) assert.ok(fs[reopen].includes(`(param "${param(p) ?? '?'}")`), `${p} is readable again`);
    const secrets = lastIdx(fs, (f) => f.startsWith('(deny file-read* file-write* '));
    assert.ok(secrets > lastIdx(fs, (f) => /^\(allow [^(]*file-read/.test(f)), 'secrets come after every read allow');
    for (const s of ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.netrc', '.npmrc', 'Library/Keychains', '.bash_history', '.zsh_history']) {
      assert.ok(fs[secrets].includes(`(subpath (string-append (param "HOME") "/${s}"))`), `~/${s} is denied`);
    }
    assert.ok(fs[secrets].includes(`(subpath (param "${param(keys) ?? '?'}"))`), 'the target of the ~/.ssh link is denied too');
  });

  it('a root with ", ), a newline and \\ reaches sandbox-exec as -D data and cannot add a rule', async () => {
    const weird = join(dir, 'we"ird) (allow default) (allow network*)\n;x\\y');
    mkdirSync(weird);
    const text = seatbeltProfile(plan({ root: weird }));
    assert.ok(!text.includes(weird) && !text.includes('we"ird'));
    const fs = forms(text);
    for (const f of fs) assert.match(f, /^\((version|deny|allow) /, f);
    assert.ok(!fs.includes('(allow default)') && !fs.some((f) => f.startsWith('(allow network*')));
    assert.deepEqual(seatbeltParams(plan({ root: weird }))[0], ['ROOT', weird]);
    const { p } = await prepare(sandbox({ root: weird }).sb);
    assert.ok(p.ok && !p.args[1].includes(weird));
    assert.equal(p.args[p.args.indexOf(`ROOT=${weird}`) - 1], '-D');
  });

  it('runs /bin/sh under sandbox-exec with the allowlisted environment, HOME and TMPDIR in a private folder removed afterwards', async () => {
    const { hostTmp, sb } = sandbox({ env: { PATH: '/usr/bin:/bin', HOME: join(dir, 'home'), TMPDIR: join(dir, 'T'), AWS_SECRET_ACCESS_KEY: 'x', DB_URL: 'postgres://u:p@h/db', ANTHROPIC_API_KEY: 'k', PROJECT_FLAG: 'on' }, settings: resolveSandboxSettings({ env: { pass: ['PROJECT_FLAG'] } }) });
    const { p, params } = await prepare(sb, 'echo "$PROJECT_FLAG"');
    assert.ok(p.ok);
    assert.equal(p.file, SANDBOX_EXEC);
    assert.equal(p.args[0], '-p');
    assert.deepEqual(p.args.slice(-5, -2), ['/bin/sh', '-c', p.args.at(-3)]);
    assert.match(p.args.at(-3) ?? '', /exec \/bin\/sh -c "\$1"$/);
    assert.deepEqual(p.args.slice(-2), ['kite-sh', 'echo "$PROJECT_FLAG"']);
    for (const secret of ['AWS_SECRET_ACCESS_KEY', 'DB_URL', 'ANTHROPIC_API_KEY']) assert.equal(p.env[secret], undefined, secret);
    assert.equal(p.env.PROJECT_FLAG, 'on');
    assert.equal(p.env.KITE_SANDBOX, 'seatbelt');
    const tmp = params.get('TMP') ?? '?';
    assert.ok(tmp.startsWith(`${hostTmp}/kite-sb-`), 'a fresh folder under the real TMPDIR');
    assert.equal(p.env.HOME, join(tmp, 'home'));
    assert.equal(p.env.TMPDIR, join(tmp, 'tmp'));
    assert.ok(existsSync(p.env.HOME));
    p.cleanup?.();
    assert.ok(!existsSync(tmp), 'removed after the command');
  });

  it('limits: hard ulimits in the units macOS sh uses, the process limit on top of the person\'s own processes', () => {
    const limits = resolveSandboxSettings({ limits: { address_space_mb: 8192 } }).limits;
    const script = limitScript(limits, 300);
    for (const flag of ['-n 4096', '-f 2097152', '-t 1800', `-u ${300 + 512}`]) assert.ok(script.includes(`lim ${flag};`), flag);
    for (const flag of ['-d 3145728', '-v 8388608']) assert.ok(script.includes(`ulimit -HS ${flag} 2>/dev/null;`), `${flag} is best effort`);
    assert.ok(!limitScript(limits, null).includes('-u '), 'no process count, no -u');
    // bash in POSIX mode is macOS /bin/sh; the limits must be hard ones the command cannot raise.
    const r = spawnSync('/bin/bash', ['--posix', '-c', limitScript({ ...limits, processes: null }, null), 'kite-sh', 'ulimit -H -n; ulimit -H -t; ulimit -n 5000 2>/dev/null || echo locked'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['4096', '1800', 'locked']);
  });

  it('a limit the shell cannot set refuses the command instead of running it unlimited', () => {
    const script = limitScript(resolveSandboxSettings({}).limits, 10);
    const r = spawnSync('/bin/bash', ['--posix', '-c', `ulimit() { return 1; }; ${script}`, 'kite-sh', 'echo ran'], { encoding: 'utf8' });
    assert.equal(r.status, 126);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /could not set ulimit -n 4096; the command did not run/);
  });

  it('info: seatbelt with the network and limits, and a note on what macOS does not enforce; an uncountable process table is said per command', async () => {
    const { sb } = sandbox({ userProcesses: () => null });
    assert.equal(sb.info.kind, 'seatbelt');
    assert.equal(sb.info.network, 'none');
    assert.equal(sb.info.limits?.processes, 512);
    assert.match(sb.info.note ?? '', /memory limits .* not enforce/);
    const { p } = await prepare(sb);
    assert.equal(p.info.process_limit, 'none');
    assert.ok(!(p.ok ? p.args.at(-3) : '')?.includes('-u '));
  });

  it('probeSeatbelt: unavailable off macOS or without sandbox-exec or when a profile cannot be applied, each with a reason and a fix', () => {
    const linux = probeSeatbelt({ platform: 'linux' });
    assert.ok(!linux.ok && /only on macOS/.test(linux.reason) && linux.fix.length > 0);
    assert.ok(!probeSeatbelt().ok, 'this Linux machine has no Seatbelt');
    const missing = probeSeatbelt({ platform: 'darwin', exists: () => false });
    assert.ok(!missing.ok && missing.reason.includes(SANDBOX_EXEC));
    const nested = probeSeatbelt({ platform: 'darwin', exists: () => true, tryProfile: () => 'sandbox_apply: Operation not permitted' });
    assert.ok(!nested.ok && nested.reason.includes('Operation not permitted'));
    assert.deepEqual(probeSeatbelt({ platform: 'darwin', exists: () => true, tryProfile: () => null }), { ok: true });
  });
});
