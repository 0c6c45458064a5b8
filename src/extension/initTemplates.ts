// What "Initialize Kite in This Workspace" writes. Pure, so a unit test checks both files parse
// with the harness's own schemas.
import { basename } from 'node:path';

export function starterProgress(root: string): string {
  const progress = {
    goal: `Describe what ${basename(root)} should do`,
    log: [],
    features: [{ id: 'F1', title: 'Describe the first feature', status: 'todo', verify: null, notes: '' }],
  };
  return JSON.stringify(progress, null, 2) + '\n';
}

/** `checks`: the detected test command (config/detectChecks.ts), or none. */
export function starterConfig(checks: readonly string[] = []): string {
  const config = {
    checks: [...checks],
    budget: { turns: 30, usd: 2 },
    max_gate_failures: 3,
  };
  return JSON.stringify(config, null, 2) + '\n';
}
