// Every suite run leaves `results.json` beside its case logs (the eval's log folder), written by
// `kite eval` and by VS Code's Evals view alike, so either one sees the other's last results.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { workspaceLogDir } from '../events/logFiles';
import { runIdFor } from '../events/writer';
import { EvalCaseResultSchema } from '../protocol/rpc';
import type { SuiteResult } from './runSuite';

export const RESULTS_FILE = 'results.json';

/** One case run as results.json keeps it: the shape the harness server sends (protocol/rpc.ts). */
export const CaseResultRecordSchema = EvalCaseResultSchema;
export type CaseResultRecord = z.infer<typeof CaseResultRecordSchema>;

const ResultsFileSchema = z.object({ suite: z.string(), finished_at: z.string(), results: z.array(CaseResultRecordSchema) });

/** A new suite run's log folder: <log_dir>/eval-<YYYYMMDD-HHMMSS>. */
export function newEvalLogDir(root: string): string {
  const base = join(workspaceLogDir(root), runIdFor('eval').replace(/^(\d+-\d+)-eval$/, 'eval-$1'));
  let dir = base;
  for (let i = 2; existsSync(dir); i++) dir = `${base}-${i}`; // two runs within a second keep apart
  return dir;
}

export function writeSuiteResults(logDir: string, suite: string, s: SuiteResult, now = new Date()): string {
  mkdirSync(logDir, { recursive: true });
  const file = join(logDir, RESULTS_FILE);
  writeFileSync(file, JSON.stringify({ suite, finished_at: now.toISOString(), results: s.results }, null, 2) + '\n');
  return file;
}

/** The newest result of each case of `suite`, from every eval folder under the workspace's log folder. */
export function lastResults(logRoot: string, suite: string): Map<string, CaseResultRecord & { finished_at: string }> {
  const last = new Map<string, CaseResultRecord & { finished_at: string }>();
  let dirs: string[];
  try {
    dirs = readdirSync(logRoot).filter((d) => existsSync(join(logRoot, d, RESULTS_FILE)) && statSync(join(logRoot, d)).isDirectory());
  } catch {
    return last; // no log folder yet
  }
  for (const d of dirs) {
    let parsed;
    try {
      parsed = ResultsFileSchema.safeParse(JSON.parse(readFileSync(join(logRoot, d, RESULTS_FILE), 'utf8')));
    } catch {
      continue; // a torn or foreign file is not a result
    }
    if (!parsed.success || parsed.data.suite !== suite) continue;
    for (const r of parsed.data.results) {
      const prev = last.get(r.case);
      if (!prev || prev.finished_at < parsed.data.finished_at) last.set(r.case, { ...r, finished_at: parsed.data.finished_at });
    }
  }
  return last;
}
