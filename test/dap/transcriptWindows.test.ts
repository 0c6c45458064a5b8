// A huge log's transcript is shown in windows (issue 17: a 1M-event transcript is a 110 MB
// document whose reply held the extension host for seconds). Each window is its own document of a
// run of the whole transcript's lines: frames, breakpoints and gotos must land on the same events
// as with the whole transcript, and the text a window shows on a line must be that line's.
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSCRIPT_WINDOW_LINES, TRANSCRIPT_WINDOW_MIN_BYTES, type KiteDebugSessionOptions } from '../../src/harness/replay/debugSession';
import { transcriptDocumentText, forgetIndexedLogs } from '../../src/harness/replay/transcriptDocument';
import { windowOfQuery } from '../../src/harness/replay/transcriptWindow';
import { writeLargeLog } from '../helpers/largeLog';
import { adapterBundle, inProcessSession, launch, moved, where } from './helpers';

const WINDOW = 50;

const session = (opts: KiteDebugSessionOptions) => inProcessSession(opts);

/** The text of a source as the adapter serves it, split into lines (1-based: lines[n - 1]). */
async function linesOf(dc: DebugClient, source: DebugProtocol.Source): Promise<string[]> {
  return (await dc.sourceRequest({ source, sourceReference: source.sourceReference ?? 0 })).body.content.split('\n');
}

/** The event frame's source and line, and the text on that line of its document. */
async function eventFrame(dc: DebugClient): Promise<{ name: string; source: DebugProtocol.Source; line: number; text: string }> {
  const f = (await where(dc)).frames.find((fr) => /^#\d+ /.test(fr.name));
  assert.ok(f?.source);
  return { name: f.name, source: f.source, line: f.line, text: (await linesOf(dc, f.source))[f.line - 1] };
}

describe('DAP: a huge log’s transcript in windows', function () {
  this.timeout(120_000);
  let dir: string;
  let log: string;
  let windowed: { dc: DebugClient; close: () => Promise<void> };
  let whole: { dc: DebugClient; close: () => Promise<void> };
  let wholeLines: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kite-dap-windows-'));
    log = join(dir, 'long-run.jsonl');
    writeLargeLog(log, 400);
    windowed = await session({ transcriptWindows: { minBytes: 1, lines: WINDOW } });
    whole = await session({});
    await launch(windowed.dc, { log, stopOnEntry: true });
    await launch(whole.dc, { log, stopOnEntry: true });
    const src = (await where(whole.dc)).frames.find((f) => /^#\d+ /.test(f.name))?.source;
    assert.ok(src);
    wholeLines = await linesOf(whole.dc, src);
  });
  afterEach(async () => {
    await windowed.close();
    await whole.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every frame points into the window holding its line, and that line shows what the whole transcript shows there', async () => {
    assert.ok(wholeLines.length > 8 * WINDOW, `the transcript spans many windows (${wholeLines.length} lines)`);
    for (const wholeLine of [3, WINDOW + 7, 5 * WINDOW + 1, 8 * WINDOW - 2]) {
      // Go to the event on that line of the whole transcript, in both sessions.
      const targetWhole = (await whole.dc.gotoTargetsRequest({ source: (await eventFrame(whole.dc)).source, line: wholeLine })).body.targets[0];
      await moved(whole.dc, (d) => d.gotoRequest({ threadId: 1, targetId: targetWhole.id }));
      await moved(windowed.dc, (d) => d.gotoRequest({ threadId: 1, targetId: targetWhole.id }));
      const [w, r] = await Promise.all([where(windowed.dc), where(whole.dc)]);
      assert.deepEqual(
        w.frames.map((f) => f.name),
        r.frames.map((f) => f.name),
      );
      for (let k = 0; k < w.frames.length; k++) {
        const fw = w.frames[k];
        const fr = r.frames[k];
        if (!fw.source?.name?.includes('.kite-transcript')) continue;
        assert.ok(fw.source.sourceReference && fw.source.sourceReference > 1, 'a window is served by its own reference');
        const wLines = await linesOf(windowed.dc, fw.source);
        assert.equal(wLines[fw.line - 1], wholeLines[fr.line - 1], `frame "${fw.name}": window line ${fw.line} is whole line ${fr.line}`);
        assert.ok(fw.line >= 1 && fw.line <= WINDOW);
        assert.match(fw.source.name, /\(lines [\d,]+–[\d,]+\)$/, 'the window is named by its lines');
      }
    }
    // A window is its lines of the whole transcript, then a footer saying which part it is.
    const third = await eventFrame(windowed.dc);
    const text = await linesOf(windowed.dc, third.source);
    const from = Number(/lines ([\d,]+)–/.exec(third.source.name ?? '')?.[1].replace(/,/g, ''));
    assert.deepEqual(text.slice(0, WINDOW), wholeLines.slice(from - 1, from - 1 + WINDOW));
    assert.match(text[WINDOW + 1], /^── lines [\d,]+–[\d,]+ \(this run's transcript is shown in parts of 50 lines; stepping past the last line opens the next part\) ──$/);
  });

  it('breakpoints belong to their window: setting one window’s keeps the others’ (same ids), and each stops where the whole transcript’s would', async () => {
    const src = (await eventFrame(windowed.dc)).source;
    const sourceOfWindow = (w: number): DebugProtocol.Source => ({ ...src, sourceReference: (src.sourceReference ?? 0) + w, name: undefined });
    // Lines 10 of windows 3 and 6 (whole lines 160 and 310) that are event lines.
    const lineIn = (w: number) => {
      for (let l = 10; l < WINDOW; l++) if (/^ {4}#\d+ /.test(wholeLines[w * WINDOW + l - 1])) return l;
      throw new Error('no event line');
    };
    const [l3, l6] = [lineIn(3), lineIn(6)];
    await windowed.dc.setExceptionBreakpointsRequest({ filters: [] }); // only the breakpoints stop (not the log's gate failures)
    const b6 = (await windowed.dc.setBreakpointsRequest({ source: sourceOfWindow(6), breakpoints: [{ line: l6 }] })).body.breakpoints[0];
    const b3 = (await windowed.dc.setBreakpointsRequest({ source: sourceOfWindow(3), breakpoints: [{ line: l3 }, { line: WINDOW + 2 }] })).body.breakpoints;
    assert.equal(b6.verified, true);
    assert.equal(b6.line, l6);
    assert.equal(b3[0].verified, true);
    assert.equal(b3[1].verified, false, 'the footer is no event line');
    assert.match(b3[1].message ?? '', /past the end of this part of the transcript/);
    const s3 = await moved(windowed.dc, (d) => d.continueRequest({ threadId: 1 }));
    assert.equal(s3.body.reason, 'breakpoint');
    assert.deepEqual(s3.body.hitBreakpointIds, [b3[0].id]);
    assert.equal((await eventFrame(windowed.dc)).text, wholeLines[3 * WINDOW + l3 - 1]);
    // Clearing window 3's breakpoints leaves window 6's armed, under its id.
    await windowed.dc.setBreakpointsRequest({ source: sourceOfWindow(3), breakpoints: [] });
    const s6 = await moved(windowed.dc, (d) => d.continueRequest({ threadId: 1 }));
    assert.equal(s6.body.reason, 'breakpoint');
    assert.deepEqual(s6.body.hitBreakpointIds, [b6.id]);
    const at6 = await eventFrame(windowed.dc);
    assert.equal(at6.line, l6);
    assert.equal(at6.text, wholeLines[6 * WINDOW + l6 - 1]);
    // Where a breakpoint may go, in a window's own lines.
    const locs = ((await windowed.dc.customRequest('breakpointLocations', { source: sourceOfWindow(6), line: 1, endLine: WINDOW + 5 })) as DebugProtocol.BreakpointLocationsResponse).body.breakpoints.map((b) => b.line);
    const expected = wholeLines
      .slice(6 * WINDOW, 7 * WINDOW)
      .map((t, k) => (/^ {4}#\d+ /.test(t) ? k + 1 : 0))
      .filter(Boolean);
    assert.deepEqual(locs, expected);
  });

  it('a window the session did not make (another size, another log) is not this transcript', async () => {
    const src = (await eventFrame(windowed.dc)).source;
    const other = await windowed.dc.setBreakpointsRequest({ source: { path: `${log}.kite-transcript?lines=2-51` }, breakpoints: [{ line: 3 }] });
    assert.equal(other.body.breakpoints[0].verified, false);
    const byPath = await windowed.dc.setBreakpointsRequest({ source: { path: `${log}.kite-transcript?lines=51-100` }, breakpoints: [{ line: 3 }] });
    assert.equal(byPath.body.breakpoints[0].verified, true, 'a window named by path is found');
    await assert.rejects(windowed.dc.gotoTargetsRequest({ source: { path: `${dir}/other.jsonl.kite-transcript?lines=1-50` }, line: 3 }), /not the transcript of this run/);
    assert.ok(src.sourceReference);
  });
});

describe('DAP as the extension runs it, on a log over the window threshold', function () {
  this.timeout(180_000);
  let dir: string;
  let dc: DebugClient;
  before(() => forgetIndexedLogs());
  afterEach(async () => {
    await dc.stop();
    forgetIndexedLogs();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`frames are kite-transcript: windows of ${TRANSCRIPT_WINDOW_LINES.toLocaleString('en-US')} lines, and the extension’s document for each shows the frame’s event on the frame’s line`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'kite-dap-windows-'));
    const log = join(dir, 'huge-run.jsonl');
    writeLargeLog(log, 12_000);
    assert.ok(statSync(log).size >= TRANSCRIPT_WINDOW_MIN_BYTES, 'the log is over the threshold');
    dc = new DebugClient(process.execPath, await adapterBundle(), 'kite', { env: { ...process.env, KITE_DAP_TRANSCRIPT_URIS: '1' } });
    dc.defaultTimeout = 60_000;
    await dc.start();
    await launch(dc, { log, stopOnEntry: true });
    const docLine = async (): Promise<{ path: string; line: number; text: string; name: string }> => {
      const f = (await where(dc)).frames.find((fr) => /^#\d+ /.test(fr.name));
      assert.ok(f?.source?.path);
      assert.ok(!f.source.sourceReference, 'VS Code opens the document itself');
      const [path, query = ''] = f.source.path.split('?');
      assert.equal(decodeURIComponent(path), `kite-transcript:${log}.kite-transcript`);
      const window = windowOfQuery(decodeURIComponent(query));
      assert.ok(window, `a window in ${f.source.path}`);
      const text = await transcriptDocumentText(log, window); // what the extension shows for that URI
      return { path: f.source.path, line: f.line, text: text.split('\n')[f.line - 1], name: f.name };
    };
    const first = await docLine();
    assert.ok(first.path.endsWith(`?lines%3D1-${TRANSCRIPT_WINDOW_LINES}`), first.path);
    assert.match(first.text, /^ {4}#0 /, `line ${first.line} shows the event of ${first.name}`);
    // Far into the log: event 11,000 sits in a later window, one of TRANSCRIPT_WINDOW_LINES lines.
    await moved(dc, (d) => d.gotoRequest({ threadId: 1, targetId: 11_001 }));
    const far = await docLine();
    const [, from, to] = (/\?lines%3D(\d+)-(\d+)$/.exec(far.path) ?? []).map(Number);
    assert.ok(from > 1 && (from - 1) % TRANSCRIPT_WINDOW_LINES === 0 && to === from + TRANSCRIPT_WINDOW_LINES - 1, far.path);
    assert.match(far.text, /^ {4}#11000 /);
    assert.ok(far.line <= TRANSCRIPT_WINDOW_LINES);
    const bp = await dc.setBreakpointsRequest({ source: { path: far.path }, breakpoints: [{ line: far.line }] });
    assert.equal(bp.body.breakpoints[0].verified, true, 'a breakpoint in the window document verifies');
    assert.equal(bp.body.breakpoints[0].line, far.line);
  });
});
