// The debugger stops on entry before a big log is fully indexed (issue 17) and answers while the
// rest is indexed. Whatever a request asks, the answer must be the one the same session gives
// with the whole log indexed: the session here runs in-process (over a socket) with indexing
// held between chunks, and every answer is compared with the stand-alone adapter's on the same log.
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import assert from 'node:assert/strict';
import { readFileSync, truncateSync, appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLog } from '../../src/harness/events/reader';
import type { KiteDebugSession, KiteDebugSessionOptions } from '../../src/harness/replay/debugSession';
import { forgetIndexedLogs, transcriptDocumentText } from '../../src/harness/replay/transcriptDocument';
import { TRANSCRIPT_CHANGED_EVENT, windowOfQuery } from '../../src/harness/replay/transcriptWindow';
import { RunBuilder } from '../helpers/events';
import { writeLargeLog } from '../helpers/largeLog';
import { inProcessSession, launch, moved, where, writeLog } from './helpers';

/** Holds indexing between chunks until released: `step(n)` lets n more chunks through, `free()` all. */
class Pace {
  private waiting: (() => void)[] = [];
  private credit = 0;
  private running = false;
  chunks = 0;

  /** True while the indexer waits for the next chunk to be let through. */
  get held(): boolean {
    return this.waiting.length > 0;
  }

  readonly pace = (): Promise<void> => {
    this.chunks++;
    if (this.running) return new Promise((r) => setImmediate(r));
    if (this.credit > 0) {
      this.credit--;
      return Promise.resolve();
    }
    return new Promise((r) => this.waiting.push(r));
  };

  step(n = 1): void {
    this.credit += n;
    while (this.credit > 0 && this.waiting.length) {
      this.credit--;
      this.waiting.shift()?.();
    }
  }

  free(): void {
    this.running = true;
    for (const w of this.waiting.splice(0)) w();
  }
}

interface InProcess {
  dc: DebugClient;
  pace: Pace;
  session: () => KiteDebugSession;
  close: () => Promise<void>;
}

/** A KiteDebugSession in this process, indexing `chunkBytes` at a time under the test's control. */
async function inProcess(chunkBytes = 8192, more: Omit<KiteDebugSessionOptions, 'indexing'> = {}): Promise<InProcess> {
  const pace = new Pace();
  const s = await inProcessSession({ ...more, indexing: { chunkBytes, pace: pace.pace } });
  return {
    ...s,
    pace,
    close: async () => {
      pace.free();
      await s.close();
    },
  };
}

/** Resolves with the response, and says whether it has arrived yet. */
function tracked<T>(p: Promise<T>): { done: () => boolean; value: Promise<T> } {
  let done = false;
  const value = p.then((v) => {
    done = true;
    return v;
  });
  return { done: () => done, value };
}

/** Let the session's loop run a little (indexing held: nothing it waits for can arrive). */
const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/**
 * Lets the indexer through one chunk at a time until `reached()`: each chunk is consumed before the
 * next is let through, and an answer that crosses the socket gets time to arrive (a busy machine
 * delays it by far more than a few ticks) — so the indexer never runs far past what was asked.
 */
async function chunkByChunk(pace: Pace, rt: { indexing: { complete: boolean } }, reached: () => boolean): Promise<void> {
  while (!reached() && !rt.indexing.complete) {
    pace.step(1);
    while (!pace.held && !rt.indexing.complete) await ticks(1);
    const until = Date.now() + 250;
    while (!reached() && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  }
}

/** What the views show at the current stop, minus ids (they are per session). */
async function views(dc: DebugClient): Promise<unknown> {
  const st = await dc.stackTraceRequest({ threadId: 1 });
  const out: unknown[] = [];
  for (const f of st.body.stackFrames) {
    const scopes = await dc.scopesRequest({ frameId: f.id });
    const vars: unknown[] = [];
    for (const s of scopes.body.scopes) {
      if (s.expensive) continue;
      vars.push({ scope: s.name, vars: (await dc.variablesRequest({ variablesReference: s.variablesReference })).body.variables.map((v) => [v.name, v.value]) });
    }
    out.push({ frame: f.name, line: f.line, source: f.source?.name, vars });
  }
  return out;
}

/** A held in-process session and a fully indexed reference adapter on the same log; `done` stops both. */
async function heldAndReference(log: string): Promise<{ held: InProcess; ref: DebugClient; done: () => Promise<void> }> {
  const held = await inProcess();
  const reference = await fullyIndexed(log).catch(async (e: unknown) => {
    await held.close();
    throw e;
  });
  const done = async (): Promise<void> => {
    await held.close();
    await reference.stop();
  };
  return { held, ref: reference.dc, done };
}

/** The reference: a session whose whole log is indexed before anything is asked. */
async function fullyIndexed(log: string): Promise<{ dc: DebugClient; stop: () => Promise<void> }> {
  const ref = await inProcess();
  ref.pace.free();
  await launch(ref.dc, { log });
  const rt = ref.session().replay;
  assert.ok(rt);
  await rt.whenIndexed(() => false);
  assert.ok(rt.indexing.complete);
  return { dc: ref.dc, stop: ref.close };
}

describe('DAP while a big log is still being indexed (in-process, indexing held between chunks)', function () {
  this.timeout(120_000);
  let dir: string;
  let log: string;
  let lines: string[];
  const N = 3000;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-dap-indexing-'));
    log = join(dir, 'big-run.jsonl');
    writeLargeLog(log, N);
    lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops on entry after the first chunk; a request about a later position waits for the indexer, then answers as with the whole log', async () => {
    const { held, ref, done } = await heldAndReference(log);
    try {
      const stopped = await launch(held.dc, { log });
      assert.equal(stopped.body.reason, 'entry');
      const rt = held.session().replay;
      assert.ok(rt && !rt.indexing.complete, 'indexing is still under way at the first stop');
      assert.ok(rt.length < N / 4, `only the first chunks are indexed (${rt.length} of ${N} events)`);
      assert.deepEqual(await views(held.dc), await views(ref), 'the entry stop shows the same frames and variables');
      const [threads, refThreads] = await Promise.all([held.dc.threadsRequest(), ref.threadsRequest()]);
      assert.deepEqual(threads.body, refThreads.body);

      // A goto near the end of the log: its transcript line is not indexed yet.
      const src = (await held.dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source;
      assert.ok(src);
      const refSrc = (await ref.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source;
      assert.ok(refSrc);
      const far = N + 50; // a line near the end of the transcript (one line per event plus turn headers)
      const targets = tracked(held.dc.gotoTargetsRequest({ source: src, line: far }));
      await ticks();
      assert.equal(targets.done(), false, 'gotoTargets waits for the indexer to reach its line');
      // Requests queued behind it wait their turn, so answers keep their order.
      const later = tracked(held.dc.threadsRequest());
      await ticks();
      assert.equal(later.done(), false);
      held.pace.step(3);
      await ticks();
      assert.equal(targets.done(), false, 'three more chunks do not reach the end of the log');
      held.pace.free();
      const t = await targets.value;
      await later.value;
      const refT = await ref.gotoTargetsRequest({ source: refSrc, line: far });
      assert.deepEqual(t.body, refT.body);
      const id = t.body.targets[0].id;
      await moved(held.dc, (d) => d.gotoRequest({ threadId: 1, targetId: id }));
      await moved(ref, (d) => d.gotoRequest({ threadId: 1, targetId: id }));
      assert.deepEqual(await views(held.dc), await views(ref), 'the stop near the end shows the same as with the whole log indexed');
      const [text, refText] = await Promise.all([held.dc.sourceRequest({ source: src, sourceReference: src.sourceReference ?? 0 }), ref.sourceRequest({ source: refSrc, sourceReference: refSrc.sourceReference ?? 0 })]);
      assert.equal(text.body.content, refText.body.content, 'the same transcript, header counts included');
    } finally {
      await done();
    }
  });

  it('stepping near the indexed edge waits for the next event, and the Totals are those of the whole log', async () => {
    const { held, ref, done } = await heldAndReference(log);
    try {
      await launch(held.dc, { log });
      const rt = held.session().replay;
      assert.ok(rt);
      const edge = rt.length - 1; // the last event indexed so far
      await moved(held.dc, (d) => d.gotoRequest({ threadId: 1, targetId: edge + 1 }));
      await moved(ref, (d) => d.gotoRequest({ threadId: 1, targetId: edge + 1 }));
      const step = tracked(moved(held.dc, (d) => d.stepInRequest({ threadId: 1 })));
      await ticks();
      assert.equal(step.done(), false, 'the step past the indexed edge waits for the next chunk');
      held.pace.step(1);
      const s = await step.value;
      const r = await moved(ref, (d) => d.stepInRequest({ threadId: 1 }));
      assert.equal(s.body.description, r.body.description);
      assert.deepEqual(await where(held.dc).then((w) => w.seq), await where(ref).then((w) => w.seq));
      // "Run to the end" while most of the log is not indexed: same last event and totals.
      held.pace.step(2);
      const end = tracked(moved(held.dc, (d) => d.continueRequest({ threadId: 1 })));
      await ticks();
      assert.equal(end.done(), false, 'continue follows the indexer: no stop before it reaches one');
      held.pace.free();
      const e = await end.value;
      const refEnd = await moved(ref, (d) => d.continueRequest({ threadId: 1 }));
      assert.equal(e.body.reason, refEnd.body.reason);
      assert.equal(e.body.description, refEnd.body.description);
      assert.deepEqual(await views(held.dc), await views(ref));
    } finally {
      await done();
    }
  });

  it('continue stops at a breakpoint as soon as the indexer reaches it, with the rest of the log not indexed yet', async () => {
    const { held, ref, done } = await heldAndReference(log);
    try {
      await launch(held.dc, { log });
      const rt = held.session().replay;
      assert.ok(rt);
      const src = (await held.dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source;
      const refSrc = (await ref.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source;
      assert.ok(src && refSrc);
      // A conditional breakpoint on a tool line a few chunks ahead of the indexer.
      const firstChunkEvents = rt.length;
      // Only the breakpoint stops (the log's gate failures would, by default).
      await Promise.all([held.dc.setExceptionBreakpointsRequest({ filters: [] }), ref.setExceptionBreakpointsRequest({ filters: [] })]);
      const bpSet = tracked(held.dc.setBreakpointsRequest({ source: src, breakpoints: [{ line: firstChunkEvents + 200, condition: 'tokens > 0' }] }));
      await ticks();
      assert.equal(bpSet.done(), false, 'a breakpoint on a line not indexed yet is verified once it is');
      await chunkByChunk(held.pace, rt, bpSet.done);
      const bp = (await bpSet.value).body.breakpoints[0];
      const refBp = (await ref.setBreakpointsRequest({ source: refSrc, breakpoints: [{ line: firstChunkEvents + 200, condition: 'tokens > 0' }] })).body.breakpoints[0];
      assert.equal(bp.verified, refBp.verified);
      assert.equal(bp.line, refBp.line);
      const start = rt.position;
      const hit = tracked(moved(held.dc, (d) => d.continueRequest({ threadId: 1 })));
      // The scan lands in-process before its stop crosses the socket: no chunk more once it has.
      await chunkByChunk(held.pace, rt, () => hit.done() || rt.position !== start);
      const s = await hit.value;
      assert.equal(s.body.reason, 'breakpoint');
      assert.equal(rt.indexing.complete, false, 'it stopped before the whole log was indexed');
      const r = await moved(ref, (d) => d.continueRequest({ threadId: 1 }));
      assert.equal(s.body.description, r.body.description);
      assert.equal((await where(held.dc)).seq, (await where(ref)).seq);
    } finally {
      await done();
    }
  });

  it('a malformed line far into the file is reported with its line number when the indexer reaches it, in the words of a launch that read it first', async () => {
    const at = lines.length - 20;
    lines[at] = '{"v":1,"seq":' + at + ',"kind":"tool", oops';
    const broken = join(dir, 'broken.jsonl');
    appendFileSync(broken, lines.join('\n') + '\n');
    const expected = (await readLog(broken, { validation: 'structural' })).problems.filter((p) => !p.chain);
    assert.equal(expected.length, 1);
    const held = await inProcess();
    try {
      const outputs: string[] = [];
      held.dc.on('output', (e: DebugProtocol.OutputEvent) => e.body.category === 'important' && outputs.push(e.body.output));
      await launch(held.dc, { log: broken });
      await ticks();
      assert.deepEqual(outputs, [], 'not reported before the indexer reaches it');
      const reported = held.dc.waitForEvent('output');
      held.pace.free();
      await reported;
      await held.dc.sourceRequest({ sourceReference: 1 }); // waits for the whole index
      assert.deepEqual(outputs, [`${broken}:${at + 1}: ${expected[0].message} (line skipped)\n`]);
    } finally {
      await held.close();
    }
  });

  it('a line of a newer log version far into the file ends the replay there, said in the words of a launch refused for it', async () => {
    const at = lines.length - 30;
    lines[at] = lines[at].replace('"v":1,', '"v":99,');
    const newer = join(dir, 'newer.jsonl');
    appendFileSync(newer, lines.join('\n') + '\n');
    const refused = lines.slice(at).join('\n') + '\n'; // the same line first: the launch is refused
    const first = join(dir, 'newer-first.jsonl');
    appendFileSync(first, refused);
    const held = await inProcess();
    try {
      const outputs: string[] = [];
      held.dc.on('output', (e: DebugProtocol.OutputEvent) => e.body.category === 'important' && outputs.push(e.body.output));
      await launch(held.dc, { log: newer });
      held.pace.free();
      await held.dc.setExceptionBreakpointsRequest({ filters: [] });
      const end = await moved(held.dc, (d) => d.continueRequest({ threadId: 1 }));
      assert.match(end.body.description ?? '', /End of the run log/);
      assert.equal(held.session().replay?.length, at, 'the events before the newer line');
      assert.equal(outputs.length, 1, outputs.join(''));
      const ref = await inProcess();
      try {
        await ref.dc.initializeRequest();
        const err = await ref.dc.launchRequest({ log: first } as DebugProtocol.LaunchRequestArguments).then(
          () => null,
          (e: Error) => e.message,
        );
        assert.ok(err);
        assert.equal(outputs[0], `${err.replaceAll(first, newer).replace('line 1:', `line ${at + 1}:`)} (the replay shows the ${at} events before it)\n`);
      } finally {
        await ref.close();
      }
    } finally {
      await held.close();
    }
  });

  it('a log appended to while it is indexed replays with the appended events; one cut short mid-index ends at its torn last line', async () => {
    const held = await inProcess();
    try {
      await launch(held.dc, { log });
      const extra = lines.slice(1, 4).map((l, k) => l.replace(/"seq":\d+/, `"seq":${N + k}`));
      appendFileSync(log, extra.join('\n') + '\n');
      held.pace.free();
      const src = (await held.dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source;
      assert.ok(src);
      const text = (await held.dc.sourceRequest({ source: src, sourceReference: src.sourceReference ?? 0 })).body.content;
      const whole = await readLog(log, { validation: 'structural' });
      assert.match(text.split('\n')[0], new RegExp(`· ${whole.events.length} events`));
      assert.equal(held.session().replay?.length, whole.events.length);
    } finally {
      await held.close();
    }

    const cutLog = join(dir, 'cut.jsonl');
    appendFileSync(cutLog, lines.join('\n') + '\n');
    const held2 = await inProcess();
    try {
      const outputs: string[] = [];
      held2.dc.on('output', (e: DebugProtocol.OutputEvent) => e.body.category === 'important' && outputs.push(e.body.output));
      await launch(held2.dc, { log: cutLog });
      // Cut the file in the middle of a line far ahead of the indexer.
      const keep = Math.floor(lines.length * 0.6);
      const raw = readFileSync(cutLog);
      let bytes = 0;
      for (let k = 0; k < keep; k++) bytes = raw.indexOf(0x0a, bytes) + 1;
      truncateSync(cutLog, bytes + 30);
      await held2.dc.setExceptionBreakpointsRequest({ filters: [] }); // run to the end, past the log's gate failures
      held2.pace.free();
      const end = await moved(held2.dc, (d) => d.continueRequest({ threadId: 1 }));
      const whole = await readLog(cutLog, { validation: "structural" });
      assert.equal(held2.session().replay?.length, whole.events.length);
      assert.equal(whole.events.length, keep);
      assert.match(end.body.description ?? '', /End of the run log/);
      assert.equal((await where(held2.dc)).seq, whole.events.at(-1)?.seq);
      const torn = whole.problems.filter((p) => !p.chain);
      assert.deepEqual(outputs, torn.map((p) => `${cutLog}:${p.line}: ${p.message} (line skipped)\n`));
      assert.equal(torn[0]?.line, keep + 1);
    } finally {
      await held2.close();
    }
  });

  it("a huge log's first transcript window is served once its lines are indexed, its header saying how far; when the index is complete the adapter says the text changed and serves the final header", async () => {
    // Windows of 100 lines (a 1M-event log's are 10,000): the first one's lines are indexed long before the log is.
    const uri = (l: string, w: { from: number; to: number } | null) => `kite-transcript:${encodeURI(`${l}.kite-transcript`)}${w ? `?lines=${w.from}-${w.to}` : ''}`;
    const held = await inProcess(8192, { transcriptUri: uri, transcriptWindows: { minBytes: 1, lines: 100 } });
    try {
      const changed: unknown[] = [];
      held.dc.on(TRANSCRIPT_CHANGED_EVENT, (e: DebugProtocol.Event) => changed.push(e.body));
      await launch(held.dc, { log, stopOnEntry: true });
      const rt = held.session().replay;
      assert.ok(rt);
      const path = (await held.dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].source?.path ?? '';
      const window = windowOfQuery(decodeURIComponent(path.split('?')[1] ?? ''));
      assert.deepEqual(window, { from: 1, to: 100 }, `the entry stop is in the first window: ${path}`);
      await chunkByChunk(held.pace, rt, () => rt.transcript.lineCount > 100);
      const served = tracked(held.dc.sourceRequest({ source: { path }, sourceReference: 0 }));
      const until = Date.now() + 10_000;
      while (!served.done() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      assert.equal(served.done(), true, 'the first window is served with the log not indexed to its end');
      assert.equal(rt.indexing.complete, false);
      const early = (await served.value).body.content.split('\n');
      assert.match(early[0] ?? '', /· reading the log: \d+ events so far$/, 'the header says the index is not complete');
      assert.doesNotMatch(early[0] ?? '', new RegExp(`${N} events`));
      const expected = await transcriptDocumentText(log, window);
      assert.deepEqual(early.slice(1), expected.split('\n').slice(1), 'every other line is already final');
      assert.deepEqual(changed, [], 'nothing changed yet');

      held.pace.free();
      await rt.whenIndexed(() => false);
      const deadline = Date.now() + 10_000;
      while (!changed.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(changed, [{ log }], 'the adapter says the served text changed');
      const final = (await held.dc.sourceRequest({ source: { path }, sourceReference: 0 })).body.content;
      assert.equal(final, expected, 'served again: the document the extension would make from the whole log');
      assert.match(final.split('\n')[0] ?? '', new RegExp(`· ${N} events$`));
    } finally {
      forgetIndexedLogs();
      await held.close();
    }
  });
});

describe('DAP while the indexed log is folded in the background (in-process)', function () {
  this.timeout(120_000);

  /** Few events (fewer than one slice of a fold counted in events), each slow to fold: big tool outputs. */
  function heavyLog(turns: number, outputChars: number): string {
    const b = new RunBuilder('heavy-fold').start();
    for (let k = 0; k < turns; k++) {
      const output = `part ${k} `.repeat(Math.ceil(outputChars / 8)).slice(0, outputChars);
      b.turnWithCalls(`Reading part ${k}.`, [{ id: `toolu_${k}`, name: 'read_file', args: { path: `data/part${k}.txt` }, output }]);
    }
    return writeLog(b.end().events());
  }

  it('a step asked while the run is folded is answered between slices, before the fold is done', async () => {
    // ~40 MB: the fold takes ~200 ms here and a step ~2 ms (at 100 KB outputs, ~100 ms against up to
    // ~50 ms, and a loaded CI machine once saw the fold end first).
    const log = heavyLog(100, 400_000);
    const held = await inProcess(1 << 20);
    try {
      const order: string[] = [];
      const folded = new Promise<void>((resolve) =>
        held.dc.on('output', (e: DebugProtocol.OutputEvent) => {
          if ((e.body.data as { kind?: string } | undefined)?.kind !== 'snapshotsReady') return;
          order.push('fold done');
          resolve();
        }),
      );
      await launch(held.dc, { log, stopOnEntry: true });
      const rt = held.session().replay;
      assert.ok(rt && rt.length < 500);
      held.pace.free();
      // The session waits for the whole index before folding, and it asked first: the fold has begun.
      await rt.whenIndexed(() => false);
      await moved(held.dc, (d) => d.stepInRequest({ threadId: 1 }));
      order.push('step answered');
      assert.equal((await where(held.dc)).seq, 1);
      await folded;
      assert.deepEqual(order, ['step answered', 'fold done']);
    } finally {
      await held.close();
    }
  });
});
