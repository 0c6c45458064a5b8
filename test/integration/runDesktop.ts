// The integration suite on a DESKTOP VS Code, for machines with internet: @vscode/test-electron
// downloads VS Code (KITE_VSCODE_VERSION, default "stable"), opens a fresh git copy of the sample
// project and runs the same in-host runner (out/integration/index.js) as scripts/vscode-e2e/run.sh.
//   npm run test:desktop     (builds the extension and the test bundles first)
// On machines without internet (like the CI ones) use `npm run test:integration` instead.
import { runTests } from '@vscode/test-electron';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

async function main(): Promise<number> {
  const repo = resolve(__dirname, '..', '..');
  const out = join(repo, 'test-results', 'integration');
  mkdirSync(out, { recursive: true });
  const workspace = join(mkdtempSync(join(tmpdir(), 'kite-desktop-')), 'sample');
  execFileSync(process.execPath, [join(repo, 'scripts/vscode-e2e/prepare-workspace.mjs'), workspace, '--fresh'], { stdio: 'inherit' });
  try {
    return await runTests({
      version: process.env.KITE_VSCODE_VERSION ?? 'stable',
      // The second declares the language model vendor extensionLanguageModel.test.ts registers a provider for.
      extensionDevelopmentPath: [repo, join(repo, 'test', 'integration', 'lmVendor')],
      extensionTestsPath: join(repo, 'out', 'integration'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
      extensionTestsEnv: {
        KITE_TEST_WORKSPACE: workspace,
        KITE_TEST_OUT: out,
        KITE_REPO: repo,
        KITE_TEST_RESULTS: join(out, 'desktop-results.json'),
        ...(process.env.KITE_IT_GREP ? { KITE_TEST_GREP: process.env.KITE_IT_GREP } : {}),
      },
    });
  } catch (e) {
    // runTests rejects when VS Code exits non-zero (failed tests) or cannot be downloaded.
    console.error(`desktop integration run failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    rmSync(dirname(workspace), { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
