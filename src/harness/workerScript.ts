// Where a worker thread's code is: its own bundle next to the caller's in dist/, or, when the
// caller runs from sources (tests under tsx), its entry file through tsx. One rule for every
// worker Kite starts (the timeline's reader, the adapter spawner).

import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkerScript {
  script: string;
  /** `script` is code to eval (from sources), not a file. */
  eval: boolean;
}

/** The worker for a caller at `callerFile` in `callerDir` (its __filename, __dirname): `sourceName`
 *  beside it from sources, else `bundleName` beside it in dist/. null: neither (no worker then). */
export function workerScript(callerFile: string, callerDir: string, sourceName: string, bundleName: string): WorkerScript | null {
  if (callerFile.endsWith('.ts')) return { script: `require('tsx/cjs'); require(${JSON.stringify(join(callerDir, sourceName))});`, eval: true };
  const bundle = join(callerDir, bundleName);
  return existsSync(bundle) ? { script: bundle, eval: false } : null;
}
