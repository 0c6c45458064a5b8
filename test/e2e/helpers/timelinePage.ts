// Opens the real timeline page (the HTML the extension serves, its CSP, the bundled script and
// CSS) in Debian's headless Chromium. VS Code's side is a fake `acquireVsCodeApi` that records
// what the page posts, plus the theme variables VS Code would inject.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { timelineHtml } from '../../../src/extension/timeline/timelineHtml';
import { zodEnglishOnly } from '../../../webview-ui/esbuildPlugins.mjs';
import { VIEW_DATA_FRAME_MS, type HostMessage, type ViewMessage } from '../../../src/harness/protocol/webviewMessages';
import { THEMES, type ThemeName } from './themes';

export const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS = join(ROOT, 'test-results');
const ORIGIN = 'https://kite-webview.test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

let built: Promise<string> | null = null;

/** Bundles webview-ui/main.ts like esbuild.mjs does, into a private folder (dist/ is shared). */
export function buildWebview(): Promise<string> {
  built ??= (async () => {
    const outdir = join(RESULTS, '.webview-build');
    mkdirSync(outdir, { recursive: true });
    await esbuild.build({
      entryPoints: { timeline: join(ROOT, 'webview-ui/main.ts') },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      outdir,
      loader: { '.css': 'css' },
      plugins: [zodEnglishOnly],
      minify: !process.env.KITE_WEBVIEW_UNMINIFIED, // =1: function names in profiles (test/bench)
      logLevel: 'error',
      legalComments: 'none',
    });
    return outdir;
  })();
  return built;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface TimelinePage {
  page: Page;
  /** Posts a message to the page the way VS Code does (a window message event). */
  send(msg: HostMessage | Record<string, unknown>): Promise<void>;
  /** Messages the page posted to the extension, in order. */
  posted(): Promise<ViewMessage[]>;
  /** Waits until the page says it now holds `events` events (its latest `applied` message) and has drawn them. */
  waitForEvents(events: number): Promise<void>;
  /** Uncaught page errors and console errors seen so far (a test asserts there are none). */
  errors: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  theme?: ThemeName;
  width?: number;
  height?: number;
  /** What getState() returns at start (a reloaded view). */
  state?: unknown;
}

export async function openTimeline(browser: Browser, opts: OpenOptions = {}): Promise<TimelinePage> {
  const dir = await buildWebview();
  const theme = THEMES[opts.theme ?? 'dark'];
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1200, height: opts.height ?? 800 } });
  const page = await context.newPage();
  const nonce = 'test-nonce-' + Math.random().toString(36).slice(2);
  const html = timelineHtml({ cspSource: ORIGIN, scriptUri: `${ORIGIN}/dist/webview/timeline.js`, styleUri: `${ORIGIN}/dist/webview/timeline.css`, nonce, title: 'Kite timeline' });
  // The stand-in for VS Code's webview host: acquireVsCodeApi, theme variables, body class.
  const prelude = `<script nonce="${nonce}">
    window.__posted = [];
    window.__name = (f) => f; // tsx keeps function names with __name(): functions passed to page.evaluate need it
    window.__state = ${JSON.stringify(opts.state ?? null)};
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => { window.__posted.push(JSON.parse(JSON.stringify(m))); if (window.__onPost) window.__onPost(m); },
      getState: () => window.__state,
      setState: (s) => { window.__state = s; },
    });
    const vars = ${JSON.stringify(theme.vars)};
    for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
    document.addEventListener('DOMContentLoaded', () => document.body.classList.add(${JSON.stringify(theme.bodyClass)}));
  </script>`;
  const page_html = html.replace('<div id="app"></div>', `<div id="app"></div>\n${prelude}`);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/' || url.pathname === '/index.html') return route.fulfill({ contentType: 'text/html', body: page_html });
    const m = /^\/dist\/webview\/([\w.-]+)$/.exec(url.pathname);
    if (m) {
      const file = m[1] as string;
      return route.fulfill({ contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript', body: readFileSync(join(dir, file)) });
    }
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  return {
    page,
    send: async (msg) => {
      await page.evaluate((m) => window.postMessage(m, '*'), msg);
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: ViewMessage[] }).__posted),
    waitForEvents: async (events) => {
      // The page's latest state, not any earlier one: a test that loads the same count twice must
      // wait for the second load. Then its rows are drawn: appended events at the page's next data
      // frame (a timer due within VIEW_DATA_FRAME_MS, then an animation frame), so a timer due
      // after it and an animation frame queued after the page's own.
      await page.waitForFunction(
        (n) => (window as unknown as { __posted: { type: string; events?: number }[] }).__posted.filter((m) => m.type === 'applied').at(-1)?.events === n,
        events,
      );
      await page.evaluate((ms) => new Promise<void>((done) => setTimeout(() => requestAnimationFrame(() => done()), ms + 1)), VIEW_DATA_FRAME_MS);
    },
    errors,
    close: async () => {
      await context.close();
    },
  };
}


/**
 * Inside a mocha `describe`: one Chromium for the suite, and `open` for a timeline page that closes
 * after its test (the set-up every timeline suite shares).
 */
export function timelinePages(): { open: (opts?: OpenOptions) => Promise<TimelinePage>; browser: () => Browser } {
  let browser: Browser | undefined;
  const pages: TimelinePage[] = [];
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });
  const started = (): Browser => {
    if (!browser) throw new Error('Chromium is not started yet (timelinePages() belongs inside describe)');
    return browser;
  };
  return {
    open: async (opts) => {
      const p = await openTimeline(started(), opts);
      pages.push(p);
      return p;
    },
    browser: started,
  };
}

/** The bars a stacked chart draws, read from its paths (one per stack, a subpath
 *  `M x bottom h0.84 v height h-0.84 z` per bar): each bar's heights in stack order, 0 where a
 *  stack has no segment. */
export async function chartBars(page: Page, chart: string): Promise<number[][]> {
  return page.$$eval(`#${chart} path.bar`, (paths) => {
    const bars: number[][] = [];
    paths.forEach((p, i) => {
      for (const m of (p.getAttribute('d') ?? '').matchAll(/M([\d.]+) [^h]+h0\.84v([^h]+)h-0\.84z/g)) {
        (bars[Math.floor(Number(m[1]))] ??= paths.map(() => 0))[i] = Number(m[2]);
      }
    });
    return Array.from(bars, (b) => b ?? paths.map(() => 0));
  });
}

/** Waits until a stacked chart draws `n` bars. */
export async function waitForChartBars(page: Page, chart: string, n: number): Promise<void> {
  await page.waitForFunction(
    ([chart, n]) => {
      const xs = new Set<number>();
      for (const p of document.querySelectorAll(`#${chart} path.bar`)) for (const m of (p.getAttribute('d') ?? '').matchAll(/M([\d.]+) /g)) xs.add(Math.floor(Number(m[1])));
      return xs.size === n;
    },
    [chart, n] as const,
  );
}
