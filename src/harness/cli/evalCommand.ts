// `kite eval [SUITE] [--model SPEC …] [--jobs N] [--json] [--junit FILE] [--markdown FILE]` runs
// a suite of cases (evals/); `kite eval add LOG [--name N] [--suite DIR]` writes a case from a run.
// Exit 0 only when every case met its expectations, 1 when any did not, 2 for usage and suite errors.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { resolveRunLog } from '../events/logFiles';
import { LogReadError } from '../events/reader';
import { addCase, DEFAULT_SUITE } from '../evals/addCase';
import { loadSuite, SuiteError } from '../evals/evalCase';
import { counts, formatSuite, suiteJson, suiteJunit, suiteMarkdown } from '../evals/report';
import { defaultJobs, runSuite, type SuiteOptions } from '../evals/runSuite';
import { newEvalLogDir, writeSuiteResults } from '../evals/suiteResults';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';

const FLAGS: FlagSpec[] = [
  { name: 'model', type: 'string', value: 'SPEC', help: "run every case with this model instead of the case's own; repeat for a cases × models matrix. A relative script:FILE is each case's own file when its folder has one" },
  { name: 'jobs', type: 'int', value: 'N', help: `cases at a time, each in its own scratch worktree (default: cores - 1, here ${defaultJobs()})` },
  { name: 'json', type: 'bool', help: 'print the results as JSON instead of the table' },
  { name: 'junit', type: 'string', value: 'FILE', help: 'also write JUnit XML (one testcase per case) for CI' },
  { name: 'markdown', type: 'string', value: 'FILE', help: 'also write the table as Markdown (a PR comment, a job summary)' },
  { name: 'logs', type: 'string', value: 'DIR', help: "where each case's run log is kept (default: .kite/runs/eval-<time> here)" },
];

const ADD_FLAGS: FlagSpec[] = [
  { name: 'name', type: 'string', value: 'N', help: 'the case folder name (default: <feature>-<outcome>)' },
  { name: 'suite', type: 'string', value: 'DIR', help: `the suite to add it to (default: ${DEFAULT_SUITE})` },
];

const USAGE = [
  'usage: kite eval [SUITE] [options]',
  '       kite eval add LOG [--name N] [--suite DIR]',
  '',
  `Runs every case of SUITE (default: ${DEFAULT_SUITE}), a folder of <name>/case.json, each as a real`,
  'unattended run in a scratch git worktree (never your work tree), and prints one row per case.',
  '',
  formatFlags(FLAGS),
  '',
  '`kite eval add LOG` writes a case from a run log: its starting commit, feature, checks and the',
  "model's recorded replies, expecting the run to end done. Edit the expectation, then commit it.",
  '',
  formatFlags(ADD_FLAGS),
  '',
  'Exit status: 0 every case met its expectations, 1 some did not (each named with the unmet',
  'expectation), 2 the command or the suite is wrong (a bad case file names the file and the field).',
].join('\n');

/** Every `--model X` / `--model=X`, in order: the only flag that may repeat. */
function takeModels(argv: readonly string[]): { models: string[]; rest: string[] } {
  const models: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--model') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--') || !v.trim()) throw new UsageError('--model needs a value (SPEC)');
      models.push(v.trim());
    } else if (a.startsWith('--model=')) {
      if (!a.slice(8).trim()) throw new UsageError('--model needs a non-empty value');
      models.push(a.slice(8).trim());
    } else rest.push(a);
  }
  return { models, rest };
}

export interface EvalDeps {
  out?: Out;
  cwd?: string;
  extra?: SuiteOptions['extra'];
}

export async function evalMain(argv: string[], deps: EvalDeps = {}): Promise<number> {
  const out = deps.out ?? stdio;
  const cwd = deps.cwd ?? process.cwd();
  try {
    if (argv[0] === 'add') return await addMain(argv.slice(1), out, cwd);
    const { models, rest } = takeModels(argv);
    const args = parseArgs(rest, FLAGS.filter((f) => f.name !== 'model'), 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    if (new Set(models).size !== models.length) throw new UsageError('the same --model is given twice');
    const f = args.flags;
    const suiteDir = resolve(cwd, args.positionals[0] ?? DEFAULT_SUITE);
    const cases = loadSuite(suiteDir);
    const logDir = typeof f.logs === 'string' ? resolve(cwd, f.logs) : newEvalLogDir(cwd);
    const jobs = typeof f.jobs === 'number' ? f.jobs : defaultJobs();
    const controller = new AbortController();
    const onSignal = () => {
      out.err('kite: stopping: the running cases are cancelled, no new case starts');
      controller.abort();
    };
    process.once('SIGINT', onSignal);
    let suite;
    try {
      suite = await runSuite(cases, {
        models,
        jobs,
        logDir,
        cwd,
        signal: controller.signal,
        extra: deps.extra,
        onResult: f.json ? undefined : (r) => out.err(`kite: ${r.case}${models.length > 1 ? ` [${r.model}]` : ''}: ${r.status === 'pass' ? 'pass' : r.status === 'fail' ? 'FAIL' : 'ERROR'} (${r.outcome}, ${(r.ms / 1000).toFixed(1)} s)`),
      });
    } finally {
      process.off('SIGINT', onSignal);
    }
    writeSuiteResults(logDir, suiteDir, suite); // VS Code's Evals view shows these as each case's last result
    out.out(f.json ? suiteJson(suite) : formatSuite(suite));
    if (!f.json) out.out(`Logs in ${relative(cwd, logDir) || '.'}`);
    for (const [flag, text] of [
      ['junit', () => suiteJunit(suite)],
      ['markdown', () => suiteMarkdown(suite)],
    ] as const) {
      const file = f[flag];
      if (typeof file !== 'string') continue;
      const path = resolve(cwd, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text());
    }
    const c = counts(suite);
    if (c.errors) return 2; // a case that could not be set up is a suite error
    return c.failed || controller.signal.aborted ? 1 : 0;
  } catch (e) {
    if (e instanceof SuiteError || e instanceof LogReadError) {
      out.err(`kite: ${e.message}`);
      return 2;
    }
    return reportFailure(e, out, 'Run `kite eval --help` for the options.');
  }
}

async function addMain(argv: string[], out: Out, cwd: string): Promise<number> {
  const args = parseArgs(argv, ADD_FLAGS, 1);
  if (args.help) {
    out.out(USAGE);
    return 0;
  }
  const log = args.positionals[0];
  if (!log) throw new UsageError('which log? give the run log (or run id) to make a case from');
  const suite = resolve(cwd, typeof args.flags.suite === 'string' ? args.flags.suite : DEFAULT_SUITE);
  const added = await addCase({ log: resolveRunLog(log, cwd, cwd), suite, name: typeof args.flags.name === 'string' ? args.flags.name : undefined });
  const e = added.spec.expect;
  out.out(`wrote ${relative(cwd, added.file) || added.file} (and ${relative(cwd, join(added.dir, 'replies.json'))})`);
  out.out(`  starts at ${added.spec.start && 'commit' in added.spec.start ? added.spec.start.commit.slice(0, 7) : '?'}, feature ${added.spec.feature.id}, expects: outcome ${e.outcome}${e.files?.length ? `; unchanged: ${e.files.map((x) => x.path).join(', ')}` : ''}`);
  out.out(`  edit its "expect" to say what must hold, then: kite eval ${relative(cwd, suite) || '.'}`);
  return 0;
}
