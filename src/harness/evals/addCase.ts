// `kite eval add LOG`: from a run that went wrong to an eval case in one step. The case starts at
// the run's starting commit, holds the run's feature, checks, limits and the model's recorded
// replies (so it replays deterministically), and expects what should have happened — the run
// ends done, a file a refused write aimed at stays untouched — which the person then edits.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { diagnose } from '../events/diagnose';
import { readLog } from '../events/reader';
import type { JudgeCheck } from '../gate/judgeCheck';
import { judgeReplyOf, repliesOf } from '../model/replay';
import type { Reply } from '../protocol/content';
import { parseProgress, PROGRESS_FILE } from '../progress/progressFile';
import { runGit } from '../progress/runGit';
import type { KiteEvent, SessionStart } from '../protocol/events';
import { CASE_FILE, CaseSchema, SuiteError, type CaseFile, type Expect } from './evalCase';
import { gateSequence } from './expectations';

export const DEFAULT_SUITE = join('.kite', 'evals');
export const REPLIES_FILE = 'replies.json';

export interface AddCaseOptions {
  log: string;
  suite: string; // absolute
  name?: string;
}

export interface AddedCase {
  dir: string;
  file: string;
  spec: CaseFile;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'case';

export async function addCase(o: AddCaseOptions): Promise<AddedCase> {
  const { events } = await readLog(o.log);
  const start = events.find((e): e is SessionStart => e.kind === 'session_start');
  if (!start) throw new SuiteError('bad_case', `${o.log} has no session_start event: nothing to make a case from`);
  if (!start.git_head) throw new SuiteError('bad_case', `${o.log} records no starting commit (the run was not in a git repository), so a case cannot start where it did`);
  const end = [...events].reverse().find((e) => e.kind === 'session_end');
  const outcome = end?.kind === 'session_end' ? end.status : 'unfinished';
  const name = o.name ? slug(o.name) : uniqueName(o.suite, slug(`${start.feature}-${outcome}`));
  const dir = join(o.suite, name);
  if (existsSync(join(dir, CASE_FILE))) throw new SuiteError('bad_case', `${join(dir, CASE_FILE)} already exists; choose another --name`);

  const judged = judgedChecks(events);
  const repo = repoTop(start.root);
  const suiteRepo = repoTop(o.suite);
  const spec: CaseFile = {
    description: `From run ${start.run} (${start.feature}: ${outcome}). Edit the expectation to say what must hold, then commit the case.`,
    start: { commit: start.git_head, ...(repo && suiteRepo !== repo ? { repo } : {}) },
    feature: featureAt(start, repo),
    checks: [...start.checks, ...judged.map((j) => j.check)],
    config: { max_gate_failures: start.max_gate_failures },
    model: `script:${REPLIES_FILE}`,
    limits: Object.fromEntries(Object.entries(start.limits).filter(([, v]) => v !== null)),
    expect: expectationOf(events),
    recorded: { log: resolve(o.log), outcome, gates: gateSequence(events), turns: end?.kind === 'session_end' ? end.turns : null, diagnosis: diagnose(events).findings.map((f) => f.cause ?? f.message) },
  };
  CaseSchema.parse(spec); // what we write must load
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, REPLIES_FILE), JSON.stringify(repliesOf(events), null, 2) + '\n');
  for (const j of judged) writeFileSync(join(dir, j.file), JSON.stringify({ replies: j.replies }, null, 2) + '\n');
  writeFileSync(join(dir, CASE_FILE), JSON.stringify(spec, null, 2) + '\n');
  return { dir, file: join(dir, CASE_FILE), spec };
}

/**
 * The run's judged checks (from the config or the feature; session_start names only commands), in
 * the order first asked, each answering from its recorded verdicts (judge-1.json…) so the case's
 * gate judges exactly as the run's did.
 */
function judgedChecks(events: readonly KiteEvent[]): { check: JudgeCheck; file: string; replies: Reply[] }[] {
  const byRubric = new Map<string, { check: JudgeCheck; file: string; replies: Reply[] }>();
  for (const e of events) {
    if (e.kind !== 'gate') continue;
    for (const c of e.checks) {
      if (c.source !== 'judge' || !c.judge) continue;
      let j = byRubric.get(c.command);
      if (!j) {
        const file = `judge-${byRubric.size + 1}.json`;
        j = { check: { judge: c.command, model: `script:${file}`, pass: c.judge.pass }, file, replies: [] };
        byRubric.set(c.command, j);
      }
      j.replies.push(judgeReplyOf(c.judge));
    }
  }
  return [...byRubric.values()];
}

function uniqueName(suite: string, base: string): string {
  let name = base;
  for (let i = 2; existsSync(join(suite, name)); i++) name = `${base}-${i}`;
  return name;
}

function repoTop(dir: string): string | null {
  for (let d = resolve(dir); ; d = resolve(d, '..')) {
    if (existsSync(d)) {
      try {
        return runGit(d, ['rev-parse', '--show-toplevel']).trim();
      } catch {
        return null;
      }
    }
    if (resolve(d, '..') === d) return null;
  }
}

/** The feature as the progress file had it at the starting commit (notes, tools), else as the log names it. */
function featureAt(start: SessionStart, repo: string | null): CaseFile['feature'] {
  const fallback = { id: start.feature, title: start.title, verify: start.verify };
  if (!repo) return fallback;
  const rel = relative(repo, join(start.root, PROGRESS_FILE)).replace(/\\/g, '/');
  if (rel.startsWith('..') || isAbsolute(rel)) return fallback;
  try {
    const progress = parseProgress(runGit(repo, ['show', `${start.git_head}:${rel}`]), rel);
    const f = progress.features.find((x) => x.id === start.feature);
    if (!f) return fallback;
    return { id: f.id, title: f.title, verify: f.verify ?? null, ...(f.notes ? { notes: f.notes } : {}), ...(f.tools ? { tools: f.tools } : {}), ...(f.may_change ? { may_change: f.may_change } : {}) };
  } catch {
    return fallback; // the feature was not committed at the starting commit
  }
}

/** What should have happened: the run ends done; paths the policy refused to let it write stay untouched. */
function expectationOf(events: readonly KiteEvent[]): Expect {
  const refused = new Set<string>();
  const proposed = new Map(events.flatMap((e) => (e.kind === 'proposed' ? [[e.id, e.args] as const] : [])));
  for (const e of events) {
    if (e.kind !== 'policy' || e.decision !== 'deny' || (e.name !== 'write_file' && e.name !== 'edit_file')) continue;
    const path = (proposed.get(e.id) as { path?: unknown } | undefined)?.path;
    if (typeof path === 'string') refused.add(path);
  }
  const expect: Expect = { outcome: 'done' };
  if (refused.size) expect.files = [...refused].map((path) => ({ path, changed: false }));
  return expect;
}
