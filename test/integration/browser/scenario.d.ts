// The API scripts/vscode-e2e/driver.mjs hands to every browser scenario's `run(api)`.
// Use it from a *.browser.mjs file with: /** @param {import('./scenario').ScenarioApi} api */
import type { Frame, Page } from 'playwright-core';

export interface ScenarioApi {
  /** The workbench page (Chromium, 1400x900). */
  page: Page;
  /** Absolute path of the window's workspace: a fresh git copy of test/fixtures/sample. */
  workspace: string;
  /** Artifacts folder: <repo>/test-results/integration. */
  out: string;
  /** 'dev': extension under development (stage B); 'vsix': the packaged VSIX (stage C). */
  mode: 'dev' | 'vsix';
  log(...message: unknown[]): void;
  /** Records one check (counted as passed or failed); returns `ok`. */
  check(name: string, ok: unknown, detail?: unknown): boolean;
  /** F1, type the full title ("Kite: Show Kite Log"), run that exact row. */
  runCommand(title: string, opts?: { timeout?: number }): Promise<void>;
  /** The (nested webview) frame containing `selector`. */
  findFrame(selector: string, opts?: { timeout?: number }): Promise<Frame>;
  /** Resolves true once `path` exists, false after the timeout. */
  waitForFile(path: string, opts?: { timeout?: number }): Promise<boolean>;
  /** Saves <out>/<name>.png (<name>.vsix.png in stage C); returns the path. */
  screenshot(name: string): Promise<string>;
}

/** A scenario module: `export async function run(api)`, optionally `export const vsix = true`. */
export interface ScenarioModule {
  run(api: ScenarioApi): Promise<void>;
  vsix?: boolean;
  /** Time the scenario may take (default: the driver's --timeout, 90 s in run.sh). */
  timeoutMs?: number;
}
