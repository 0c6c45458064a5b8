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

export function starterConfig(): string {
  const config = {
    checks: [],
    budget: { turns: 30, usd: 2 },
    max_gate_failures: 3,
  };
  return JSON.stringify(config, null, 2) + '\n';
}
