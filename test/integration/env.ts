// The environment scripts/vscode-e2e/run.sh (or runDesktop.ts) hands to the extension host.
import { existsSync } from 'node:fs';

export interface TestEnv {
  /** Absolute path of the window's workspace: a fresh git copy of test/fixtures/sample. */
  workspace: string;
  /** Artifacts folder (screenshots, logs): <repo>/test-results/integration, git-ignored. */
  out: string;
  /** The Kite repository root (fixtures live under <repo>/test/fixtures). */
  repo: string;
}

export function testEnv(): TestEnv {
  const get = (name: string): string => {
    const v = process.env[name];
    if (!v || !existsSync(v)) throw new Error(`${name} is not set to an existing path (got ${JSON.stringify(v)}); run the suite with scripts/vscode-e2e/run.sh`);
    return v;
  };
  return { workspace: get('KITE_TEST_WORKSPACE'), out: get('KITE_TEST_OUT'), repo: get('KITE_REPO') };
}
