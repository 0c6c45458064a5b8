// Log size and reader memory for a run that writes N MB (issue 13 item 13: a write's content is
// stored once). A real `kite run` (scripted model, unattended) writes N files of 1 MB each; the
// bench prints the log's size against the bytes written, then the peak RSS of the real CLI
// reading that log (`kite timeline`), replaying it (`kite run --replay`) and resuming it (a second
// run of the same script killed after its last write, then `kite resume`); then, in a fresh
// process each, the peak RSS and retained heap of the harness's own reading of that log: streamed
// and folded (reports, the runs tree), folded with the conversation (what resume rebuilds), and
// read whole (replay, kite timeline, the debugger).
//   node --expose-gc --import tsx test/bench/writeLog.bench.ts [MB]        (default 16)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readLog, streamLog } from '../../src/harness/events/reader';
import { say, use } from '../../src/harness/model/scripted';
import type { Reply } from '../../src/harness/protocol/content';
import { applyEvent, initialRunState } from '../../src/harness/protocol/reducer';
import { buildCli, onlyLog } from '../system/resume/kit';
import { git, tempDir, tempRepo } from '../unit/loop/kit';

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const FILE_BYTES = 1_000_000;

/** 1 MB of ordinary text (low entropy: the secret detectors must not mistake it for a key). */
function content(i: number): string {
  const line = (n: number) => `file ${i} line ${n}: the quick brown fox jumps over the lazy dog\n`;
  let s = '';
  for (let n = 0; s.length < FILE_BYTES; n++) s += line(n);
  return s.slice(0, FILE_BYTES);
}

function project(files: number): { repo: string; script: string } {
  const repo = tempRepo({
    'README.md': 'bench\n',
    'kite-progress.json': JSON.stringify({ goal: 'bench', log: [], features: [{ id: 'F1', title: 'Write big files', status: 'todo', notes: '' }] }, null, 2),
    // A real check: with none, the gate cannot verify the work and the run ends `unverified` (exit 1).
    // A window that 16 MB of writes does not fill: compaction would spend a scripted reply on its summary.
    '.kite/config.json': JSON.stringify({ checks: [`test -s out/big${files - 1}.txt`], budget: { turns: files + 10 }, context: { window: 1_000_000_000 } }),
  });
  const replies: Reply[] = [];
  for (let i = 0; i < files; i++) replies.push(use('write_file', `w${i}`, { path: `out/big${i}.txt`, content: content(i) }));
  replies.push(say('Done.'));
  const script = join(dirname(repo), 'script.json');
  writeFileSync(script, JSON.stringify(replies));
  return { repo, script };
}

/** Runs the CLI in a child that reports its own peak RSS (getrusage) when it exits. */
function kiteMeasured(cli: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; maxRss: number; stdout: string; stderr: string } {
  const probe = join(tempDir('kite-probe-'), 'probe.cjs');
  writeFileSync(probe, "process.on('exit', () => require('fs').writeSync(2, '\\nKITE_BENCH_MAXRSS=' + process.resourceUsage().maxRSS + '\\n'));\nprocess.argv.splice(1, 1);\nrequire(process.argv[1]);\n");
  const clean = { ...process.env };
  delete clean.KITE_TEST_CRASH_AFTER_SEQ;
  const r = spawnSync(process.execPath, [probe, cli, ...args], { cwd, encoding: 'utf8', env: { ...clean, ...env }, maxBuffer: 1 << 28 });
  const m = /KITE_BENCH_MAXRSS=(\d+)/.exec(r.stderr);
  return { status: r.status, maxRss: m ? Number(m[1]) * 1024 : NaN, stdout: r.stdout, stderr: r.stderr };
}

function expectStatus(what: string, r: { status: number | null; stdout: string; stderr: string }, want: number[]): void {
  if (r.status === null || !want.includes(r.status)) throw new Error(`${what} exited ${r.status}: ${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`);
}

/** Seq of the last `tool` event of a log (the resume run is killed right after it). */
function lastToolSeq(log: string): number {
  let seq = -1;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (!line.includes('"kind":"tool"')) continue;
    const e = JSON.parse(line) as { seq: number; kind: string };
    if (e.kind === 'tool') seq = e.seq;
  }
  return seq;
}

const READS = { stream: 'streamed + folded (no conversation)', conversation: 'streamed + folded with the conversation (resume)', whole: 'read whole + folded (replay, timeline, debugger)' } as const;
type ReadMode = keyof typeof READS;

/** One way of reading the log, in this (fresh) process: peak RSS over the baseline and heap kept after GC. */
async function measureRead(log: string, mode: ReadMode): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const state = initialRunState({ conversation: mode !== 'stream' });
  let kept: unknown[] = []; // read whole: the events stay held while the heap is measured
  if (mode === 'whole') {
    const r = await readLog(log);
    for (const e of r.events) applyEvent(state, e);
    kept = r.events;
  } else await streamLog(log, (e) => applyEvent(state, e));
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (state.turns === 0) throw new Error('the fold saw no turns');
  gc?.();
  const heap = process.memoryUsage().heapUsed;
  console.log(`${READS[mode]}: peak RSS +${MB(peak - base)} over a ${MB(base)} baseline${gc ? `, heap kept after GC ${MB(heap)}` : ''}${kept.length ? ` (${kept.length} events held)` : ''}`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--read') return measureRead(process.argv[3], process.argv[4] as ReadMode);
  const files = Number(process.argv[2] ?? 16);
  const cli = await buildCli();
  const written = files * FILE_BYTES;

  const a = project(files);
  const run = kiteMeasured(cli, a.repo, ['run', '--unattended', '--model', `script:${a.script}`]);
  expectStatus('kite run', run, [0]);
  const log = onlyLog(a.repo);
  const size = statSync(log).size;
  console.log(`log of a run writing ${MB(written)} (${files} × 1 MB write_file): ${MB(size)}, ${(size / written).toFixed(2)} × the bytes written`);
  console.log(`kite run (writing the log): peak RSS ${MB(run.maxRss)}`);

  const timeline = kiteMeasured(cli, a.repo, ['timeline', log]);
  expectStatus('kite timeline', timeline, [0]);
  console.log(`kite timeline (read + fold): peak RSS ${MB(timeline.maxRss)}`);

  const replayDir = join(tempDir('kite-replay-'), 'tree');
  mkdirSync(replayDir);
  git(a.repo, 'worktree', 'add', '-q', '--detach', replayDir, 'HEAD~1');
  const replay = kiteMeasured(cli, replayDir, ['run', '--replay', log, replayDir]);
  expectStatus('kite run --replay', replay, [0]);
  console.log(`kite run --replay: peak RSS ${MB(replay.maxRss)}`);
  for (const mode of Object.keys(READS)) {
    const r = spawnSync(process.execPath, [...process.execArgv, __filename, '--read', log, mode], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`measuring ${mode} failed (${r.status ?? r.signal})`);
  }

  // The same run killed right after its last write, then resumed (folds the whole log).
  const b = project(files);
  const crash = kiteMeasured(cli, b.repo, ['run', '--unattended', '--model', `script:${b.script}`], { KITE_TEST_CRASH_AFTER_SEQ: String(lastToolSeq(log)) });
  if (crash.status !== null) throw new Error(`the run to resume was expected to be killed, it exited ${crash.status}: ${crash.stderr.slice(-1000)}`);
  const resume = kiteMeasured(cli, b.repo, ['resume', onlyLog(b.repo)]);
  expectStatus('kite resume', resume, [0]);
  console.log(`kite resume (after a kill following the last write): peak RSS ${MB(resume.maxRss)}`);
  console.log('target: log ≈ 1 × the bytes written; reader memory well below the log size');
  for (const r of [a.repo, b.repo]) rmSync(dirname(r), { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
