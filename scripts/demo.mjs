// `npm run demo`: the bundled sample project (a small Node ledger with a rounding bug) copied to a
// temporary folder, put under git, and worked on by `kite run` with a scripted model. Shows the
// harness earning its keep: the gate refuses a "done" without a test, policy denies `git push`,
// and the finished feature lands as one commit. No API key needed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const script = join(root, 'test', 'fixtures', 'scripts', 'demo.json');
const sample = join(root, 'test', 'fixtures', 'sample');
if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `node esbuild.mjs` first (npm run demo does).');
  process.exit(2);
}

// Commands run in bubblewrap: install it where we can, else say exactly what is missing.
const setup = spawnSync('bash', [join(root, 'scripts', 'setup-sandbox.sh')], { stdio: 'inherit' });
if (setup.status !== 0) {
  console.error('The demo runs its commands in Kite\'s sandbox; install what is named above, then run `npm run demo` again.');
  process.exit(1);
}

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);

const work = join(mkdtempSync(join(tmpdir(), 'kite-demo-')), 'ledger');
cpSync(sample, work, { recursive: true });
const git = (...args) => {
  const r = spawnSync('git', args, { cwd: work, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`git ${args.join(' ')} failed: ${r.stderr}`);
    process.exit(2);
  }
  return r.stdout.trim();
};
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Kite Demo');
git('config', 'user.email', 'demo@kite.invalid');
git('config', 'commit.gpgsign', 'false');
git('add', '-A');
git('commit', '-q', '-m', 'Ledger: initial import');

console.log(bold('Kite demo') + ' — a scripted agent fixes a rounding bug in a small Node ledger.');
console.log(dim(`project: ${work}`));
console.log(dim('feature F1 "Fees round half-up": addFee(133.75, 2) returns 2.67; it must be 2.68.'));
console.log(dim('gate: `npm test` (project check) + `node --test test/fees.test.js` (the feature\'s verify)'));
console.log();
console.log(bold(`$ kite run --unattended --model script:test/fixtures/scripts/demo.json`));

const r = spawnSync(process.execPath, [cli, 'run', '--unattended', '--model', `script:${script}`], { cwd: work, stdio: 'inherit' });
const code = r.status ?? 1;

console.log();
console.log(bold('What happened'));
console.log(dim('$ git log --oneline'));
console.log(git('log', '--oneline'));
const progress = JSON.parse(readFileSync(join(work, 'kite-progress.json'), 'utf8'));
console.log(dim('$ kite-progress.json features'));
for (const f of progress.features) console.log(`${f.id.padEnd(4)} ${f.status.padEnd(12)} ${f.title}`);
const runs = join(work, '.kite', 'runs');
const logs = existsSync(runs) ? readdirSync(runs).filter((f) => f.endsWith('.jsonl')) : [];
if (logs.length) {
  const events = readFileSync(join(runs, logs[0]), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const start = events.find((e) => e.kind === 'session_start');
  const sb = start?.sandbox;
  if (sb) {
    console.log();
    console.log(
      sb.kind === 'none'
        ? `Commands ran WITHOUT a sandbox (${sb.note}).`
        : `Every command (the agent's and the gate's) ran in the sandbox (${sb.kind}): ${sb.network === 'none' ? 'no network' : 'host network'}, a private empty HOME and /tmp, the system, .git/, .kite/ and kite-progress.json read-only, at most ${sb.limits?.processes ?? 'unlimited'} processes.`,
    );
  }
  const feedback = events.find((e) => e.kind === 'user' && e.reason === 'gate_feedback');
  if (feedback) {
    console.log();
    console.log(dim('What the gate told the agent after its first "done":'));
    console.log(feedback.text.split('\n').map((l) => `  │ ${l}`).join('\n'));
  }
  const deny = events.find((e) => e.kind === 'policy' && e.decision === 'deny');
  const denied = deny && events.find((e) => e.kind === 'tool' && e.id === deny.id);
  if (denied) {
    console.log();
    console.log(dim('What policy told the agent about its push:'));
    console.log(`  │ ${denied.output}`);
  }
}
console.log();
console.log(dim(`Look around: cd ${work} — the run's event log is in .kite/runs/ (never committed). There:`));
const kite = `node ${cli}`;
const log = logs.length ? `.kite/runs/${logs[0]}` : '.kite/runs/<run>.jsonl';
console.log(dim(`  ${kite} timeline ${log}   the same rows, from the log`));
console.log(dim(`  ${kite} cost                 tokens and dollars (cache reads are cheap)`));
console.log(dim(`  ${kite} run --replay ${log} --worktree   the model's recorded replies, tools and gate live`));
process.exit(code);
