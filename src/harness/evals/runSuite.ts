// A suite run: every case × every model, N at a time, each in its own scratch workspace. Results
// come back in case order (then model order) whatever order they finished in.
import { availableParallelism } from 'node:os';
import type { EvalCase } from './evalCase';
import { runCase, type CaseResult, type RunCaseOptions } from './runCase';

export interface SuiteOptions {
  models: string[]; // empty: each case's own model
  jobs: number;
  logDir: string;
  cwd: string;
  signal?: AbortSignal;
  /** Called as each case finishes (progress lines). */
  onResult?: (r: CaseResult) => void;
  extra?: RunCaseOptions['extra'];
}

export interface SuiteResult {
  results: CaseResult[];
  models: string[];
  jobs: number;
  wall_ms: number;
}

/** Cores minus one for the person's own work, at least one. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}

const slug = (s: string) => s.replace(/^script:.*[/\\]/, 'script-').replace(/[^\w.-]+/g, '_').slice(0, 60);

export async function runSuite(cases: readonly EvalCase[], o: SuiteOptions): Promise<SuiteResult> {
  const t0 = Date.now();
  const models = o.models.length ? o.models : [null];
  const work = cases.flatMap((c) => models.map((m) => ({ c, m })));
  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(work.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < work.length; i = next++) {
      if (o.signal?.aborted) return; // cancelled: no new case starts
      const { c, m } = work[i];
      const logName = models.length > 1 && m !== null ? `${c.name}@${slug(m)}` : c.name;
      const r = await runCase(c, { model: m, logDir: o.logDir, logName, cwd: o.cwd, signal: o.signal, extra: o.extra });
      results[i] = r;
      o.onResult?.(r);
    }
  };
  const jobs = Math.max(1, Math.min(o.jobs, work.length));
  await Promise.all(Array.from({ length: jobs }, worker));
  return { results: results.filter((r): r is CaseResult => r !== undefined), models: o.models, jobs, wall_ms: Date.now() - t0 };
}
