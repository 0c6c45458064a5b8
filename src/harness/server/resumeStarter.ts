// Resume for the server: H3's resumeRun (continues a run from its log).
import type { Host } from '../host';
import type { RunSummaryWire } from '../protocol/rpc';
import type { ResumeOptions } from './runManager';

export async function resumeStarter(_opts: ResumeOptions, _host: Host): Promise<RunSummaryWire> {
  // TEMPORARY until src/harness/resume.ts lands (then this calls resumeRun).
  throw Object.assign(new Error('resuming a run is not available in this build yet'), { code: 'not_found' });
}
