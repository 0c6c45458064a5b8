// The in-host test runner: VS Code loads this file because of `extensionTestsPath` and awaits
// `run()` (the contract of @vscode/test-electron, which the web workbench honours too). A rejection
// means "tests failed" (exit code 1).
//
// Environment (set by scripts/vscode-e2e/run.sh through the payload's extensionEnvironment, or by
// test/integration/runDesktop.ts):
//   KITE_TEST_RESULTS  file to write {passed, failed, skipped, tests[]} to. The driver trusts a green
//                      run only when this file exists: a crashed extension host also reports 0.
//   KITE_TEST_GREP     only tests whose full title matches this regular expression
//   KITE_TEST_FILES    only these bundles, comma-separated basenames (e.g. "foundation.test")
import Mocha from 'mocha';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface TestRecord {
  title: string;
  file: string | undefined;
  state: 'passed' | 'failed' | 'skipped';
  ms: number | undefined;
  error?: string;
}

export interface TestResults {
  passed: number;
  failed: number;
  skipped: number;
  tests: TestRecord[];
}

export function run(): Promise<void> {
  const grep = process.env.KITE_TEST_GREP;
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: 60_000,
    // An `.only` left in a test file must fail the run, not silently skip everything else.
    forbidOnly: true,
    ...(grep ? { grep: new RegExp(grep) } : {}),
  });
  const only = new Set((process.env.KITE_TEST_FILES ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .filter((f) => only.size === 0 || only.has(f.replace(/\.js$/, '')))
    .sort();
  for (const f of files) mocha.addFile(join(__dirname, f));

  const tests: TestRecord[] = [];
  return new Promise<void>((resolve, reject) => {
    let runner: Mocha.Runner;
    try {
      runner = mocha.run((failures) => {
        const results: TestResults = {
          passed: runner.stats?.passes ?? 0,
          failed: failures,
          skipped: runner.stats?.pending ?? 0,
          tests,
        };
        writeResults(results);
        console.log(`[kite-tests] ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped (${files.length} files)`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (results.passed === 0) reject(new Error('no integration test ran'));
        else resolve();
      });
    } catch (e) {
      // A test file that throws while loading (syntax, top-level error) lands here.
      console.error(`[kite-tests] could not load the test files: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      writeResults({ passed: 0, failed: 1, skipped: 0, tests: [{ title: 'loading test files', file: undefined, state: 'failed', ms: undefined, error: String(e) }] });
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    runner.on('pass', (t) => tests.push({ title: t.fullTitle(), file: t.file, state: 'passed', ms: t.duration }));
    runner.on('fail', (t, err: unknown) => tests.push({ title: t.fullTitle(), file: t.file, state: 'failed', ms: t.duration, error: err instanceof Error ? err.stack ?? err.message : String(err) }));
    runner.on('pending', (t) => tests.push({ title: t.fullTitle(), file: t.file, state: 'skipped', ms: undefined }));
  });
}

function writeResults(results: TestResults): void {
  const path = process.env.KITE_TEST_RESULTS;
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(results, null, 2));
}
