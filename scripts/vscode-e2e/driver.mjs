#!/usr/bin/env node
// Drives the VS Code web workbench of a running VS Code server (server-main.js started with
// --enable-smoke-test-driver) in headless Debian Chromium through playwright-core.
// Started by run.sh, one process per stage, each under `setsid timeout -k`.
//
//   node driver.mjs tests --url URL --ext DIR --tests DIR --folder DIR --results FILE --counts FILE
//                         [--env JSON] [--timeout MS] [--out DIR]
//     Stage A: opens ONE window with ?payload=[extensionDevelopmentPath, extensionTestsPath,
//     extensionEnvironment]; the extension host loads the extension under development and runs the
//     mocha suite (test/integration/index.ts). The workbench calls window.codeAutomationExit(code)
//     when run() settles. Green needs code 0 AND the results file the in-host runner writes.
//
//   node driver.mjs scenarios --url URL --folder DIR --counts FILE --out DIR [--ext DIR]
//                         [--env JSON] [--timeout MS] [--vsix] SCENARIO.browser.mjs...
//     Stages B and C: opens the workbench (with the extension under development when --ext is
//     given, otherwise whatever is installed in the server's extensions dir) and calls each
//     scenario's `run(api)` in turn. With --vsix only scenarios exporting `vsix = true` run.
//
// Every mode writes {passed, failed, skipped} to --counts, whatever happens.
import { chromium } from 'playwright-core';
import { writeFileSync, readFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { createHelpers } from './helpers.mjs';

// Workbench log lines that are pure noise on a machine without internet / GitHub login.
const NOISE = new RegExp([
  'ENOTFOUND', 'ERR_NAME_NOT_RESOLVED', 'No signed-in session', 'ChatModelSelection', 'AccountPolicyGate', '\\[AgentHost',
  'open-vsx', 'authentication provider', 'vsda', 'Service Worker', 'mobile\\.events\\.data',
  // connection chatter of every window
  'Creating a socket', 'connection token', 'reconnection-grace-time', 'Updating additional builtin extensions',
].join('|'));

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--window-size=1400,900',
];

const log = (...m) => console.log(`[driver ${new Date().toISOString().slice(11, 23)}]`, ...m);

function parseArgs(argv) {
  const a = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--vsix') a.vsix = true;
    else if (k.startsWith('--')) a[k.slice(2)] = argv[++i];
    else a._.push(k);
  }
  return a;
}

function workbenchUrl(base, folder, payload) {
  const u = new URL(base);
  u.searchParams.set('folder', resolve(folder));
  if (payload.length) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

// The server maps vscode-remote://<authority of the page>/abs/path to the file on its disk.
const remote = (base, p) => `vscode-remote://${new URL(base).host}${resolve(p)}`;

async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

/**
 * KITE_IT_PAGE_CPU_PROF=FILE: a CPU profile of the window's renderer (the workbench and, in the same
 * process, the webviews) over the whole stage, written to FILE — what the page's side costs while
 * the extension host is measured (timelineLoad.test).
 */
async function startPageProfile(page, file) {
  if (!file) return null;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      log('page CPU profile written to', file);
    },
  };
}

/**
 * KITE_IT_PAGE_TRACE=FILE: a Chromium performance trace (what the renderer's threads do: style,
 * layout, paint, messaging, scripts) over a window of the stage — KITE_IT_PAGE_TRACE_AT seconds
 * after the page opens (default 120), for KITE_IT_PAGE_TRACE_S seconds (default 15). A whole
 * load's trace would be gigabytes; a window of it says where the renderer's CPU goes.
 */
function schedulePageTrace(browser, page, file) {
  if (!file) return null;
  const at = Number(process.env.KITE_IT_PAGE_TRACE_AT || 120) * 1000;
  const span = Number(process.env.KITE_IT_PAGE_TRACE_S || 15) * 1000;
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu', 'ipc', 'toplevel'];
  let stopping = null;
  const stop = () => (stopping ??= browser.stopTracing().then(() => log('page trace written to', file)).catch((e) => log('page trace failed:', String(e))));
  let started = false;
  const startTimer = setTimeout(() => {
    browser.startTracing(page, { path: file, categories }).then(() => {
      started = true;
      log(`page trace: ${span / 1000} s from now`);
      setTimeout(stop, span);
    }).catch((e) => log('page trace failed to start:', String(e)));
  }, at);
  return { stop: async () => { clearTimeout(startTimer); if (started) await stop(); } };
}

function writeCounts(file, counts) {
  if (file) writeFileSync(file, JSON.stringify(counts));
}

async function runTests(args) {
  const timeout = Number(args.timeout || 200_000);
  const payload = [
    ['extensionDevelopmentPath', remote(args.url, args.ext)],
    ['extensionTestsPath', remote(args.url, args.tests)],
  ];
  if (args.env) payload.push(['extensionEnvironment', args.env]);
  rmSync(args.results, { force: true });
  const browser = await launch();
  let code;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let done;
    const finished = new Promise((r) => { done = r; });
    // Hooks the workbench calls in automation mode: mocha's output and the final exit code.
    await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
      const text = Array.isArray(logArgs) ? format(...logArgs) : String(logArgs);
      if (!process.env.KITE_IT_VERBOSE && NOISE.test(text)) return;
      process.stdout.write(`${type === 'error' ? '[host:error] ' : ''}${text}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (c) => done(c));
    page.on('pageerror', (e) => log('pageerror:', e.message));
    const url = workbenchUrl(args.url, args.folder, payload);
    log('opening', url);
    const profiler = await startPageProfile(page, process.env.KITE_IT_PAGE_CPU_PROF);
    const tracer = schedulePageTrace(browser, page, process.env.KITE_IT_PAGE_TRACE);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    let timer;
    const result = await Promise.race([finished, new Promise((r) => { timer = setTimeout(() => r('timeout'), timeout); })]);
    clearTimeout(timer);
    await profiler?.stop();
    await tracer?.stop();
    if (result === 'timeout') {
      log(`TIMEOUT: the suite did not finish within ${timeout} ms`);
      if (args.out) await page.screenshot({ path: resolve(args.out, 'integration-timeout.png') }).catch(() => {});
      code = 2;
    } else {
      code = Number(result) === 0 ? 0 : 1;
      log('codeAutomationExit code =', result);
    }
  } finally {
    await browser.close().catch(() => {});
  }
  // A killed extension host makes the workbench report 0 too: trust only the runner's results file.
  let results = null;
  try { results = JSON.parse(readFileSync(args.results, 'utf8')); } catch { /* missing */ }
  if (!results) {
    log(`FAIL: no results file ${args.results}: the extension host stopped before the suite finished`);
    writeCounts(args.counts, { passed: 0, failed: 1, skipped: 0, failures: ['extension host stopped before the suite finished'] });
    return 1;
  }
  const failures = (results.tests ?? []).filter((t) => t.state === 'failed').map((t) => `${t.title}: ${String(t.error ?? '').split('\n')[0].slice(0, 200)}`);
  const counts = { passed: results.passed | 0, failed: results.failed | 0, skipped: results.skipped | 0, failures };
  if (code !== 0 && counts.failed === 0) { counts.failed = 1; failures.push(`the test run exited ${code}`); }
  if (code === 0 && (counts.failed > 0 || counts.passed === 0)) { log('FAIL: exit 0 but results say', JSON.stringify(counts)); code = 1; if (!counts.failed) counts.failed = 1; }
  writeCounts(args.counts, counts);
  return code;
}

/**
 * A failed check in one line for the summary CI shows. A Playwright timeout's first line does not
 * say which element it waited for ("locator.click: Timeout 30000ms exceeded."): its call log does.
 */
function failureSummary(detail) {
  const lines = String(detail ?? '').split('\n');
  const waited = lines.find((l) => /^\s*-\s*waiting for /.test(l));
  return waited ? `${lines[0]} (${waited.trim().replace(/^-\s*/, '')})` : lines[0];
}

async function runScenarios(args) {
  const out = resolve(args.out);
  mkdirSync(out, { recursive: true });
  const perScenario = Number(args.timeout || 120_000);
  const checks = [];
  const check = (name, ok, detail) => {
    checks.push({ name, ok: !!ok, detail });
    log(ok ? 'PASS' : 'FAIL', name, detail === undefined ? '' : typeof detail === 'string' ? detail : JSON.stringify(detail));
    return !!ok;
  };
  const files = args._.slice(1).map((f) => resolve(f));
  const payload = [];
  if (args.ext) payload.push(['extensionDevelopmentPath', remote(args.url, args.ext)]);
  if (args.env) payload.push(['extensionEnvironment', args.env]);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const url = workbenchUrl(args.url, args.folder, payload);
    log('opening', url);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The status bar shows the remote authority once the window is connected to the server.
    await page.locator('.statusbar').waitFor({ timeout: 60_000 });
    const h = createHelpers(page, { log });
    if (args.vsix) {
      // Stage C must exercise the installed VSIX, not a development folder.
      const title = await page.title();
      check('window runs the installed extension, not an Extension Development Host', !title.includes('Extension Development Host'), title);
    }
    for (const file of files) {
      const name = basename(file).replace(/\.browser\.mjs$/, '');
      let mod;
      try {
        mod = await import(pathToFileURL(file).href);
      } catch (e) {
        check(`${name}: loads`, false, e.message);
        continue;
      }
      if (typeof mod.run !== 'function') { check(`${name}: exports run()`, false); continue; }
      if (args.vsix && mod.vsix !== true) continue; // not meant for the packaged-VSIX stage
      const api = {
        page,
        workspace: resolve(args.folder),
        out,
        mode: args.vsix ? 'vsix' : 'dev',
        log,
        check: (n, ok, detail) => check(`${name}: ${n}`, ok, detail),
        runCommand: h.runCommand,
        findFrame: h.findFrame,
        waitForFile: h.waitForFile,
        screenshot: (n) => h.screenshot(resolve(out, `${n}${args.vsix ? '.vsix' : ''}.png`)),
      };
      log(`scenario ${name} (${args.vsix ? 'packaged VSIX' : 'development'})`);
      const before = checks.length;
      // A scenario that walks a whole journey may ask for more time (`export const timeoutMs`).
      const limit = Number(mod.timeoutMs) > 0 ? Number(mod.timeoutMs) : perScenario;
      let timer;
      try {
        await Promise.race([
          mod.run(api),
          new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`scenario did not finish within ${limit} ms`)), limit); }),
        ]);
        if (checks.length === before) check(`${name}: made at least one check`, false);
      } catch (e) {
        check(`${name}: ran to the end`, false, e.stack ?? String(e));
        await h.screenshot(resolve(out, `${name}${args.vsix ? '.vsix' : ''}.failure.png`)).catch(() => {});
      } finally {
        clearTimeout(timer);
      }
      await h.reset().catch(() => {});
    }
    if (pageErrors.length) log(`${pageErrors.length} page error(s) (informational):`, pageErrors.slice(0, 5).join(' | '));
  } catch (e) {
    check('workbench opens', false, e.stack ?? String(e));
  } finally {
    await browser.close().catch(() => {});
  }
  const failed = checks.filter((c) => !c.ok).length;
  const failures = checks.filter((c) => !c.ok).map((c) => `${c.name}: ${failureSummary(c.detail)}`.slice(0, 400));
  const counts = { passed: checks.length - failed, failed, skipped: 0, failures };
  if (args.results) writeFileSync(args.results, JSON.stringify({ ...counts, checks }, null, 2));
  writeCounts(args.counts, counts);
  log(`${counts.passed} passed, ${counts.failed} failed`);
  return failed || checks.length === 0 ? 1 : 0;
}

const args = parseArgs(process.argv.slice(2));
if (args.counts && existsSync(args.counts)) rmSync(args.counts);
let code;
try {
  if (args._[0] === 'tests') code = await runTests(args);
  else if (args._[0] === 'scenarios') code = await runScenarios(args);
  else { console.error('usage: driver.mjs tests|scenarios ...'); code = 64; }
} catch (e) {
  console.error(e);
  writeCounts(args.counts, { passed: 0, failed: 1, skipped: 0, failures: [`driver crashed: ${String(e?.message ?? e).split('\n')[0]}`] });
  code = 4;
}
process.exit(code);
