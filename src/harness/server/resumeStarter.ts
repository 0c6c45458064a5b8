// Resume for the server: continues a run from its log (src/harness/resume.ts).
import type { Host } from '../host';
import type { RunSummaryWire } from '../protocol/rpc';
import { resumeRun } from '../resume';
import type { ResumeOptions } from './runManager';

export function resumeStarter(opts: ResumeOptions, host: Host): Promise<RunSummaryWire> {
  return resumeRun(opts, host);
}
