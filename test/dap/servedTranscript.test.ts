// The extension asks a replay session for the transcript documents of the log it replays, instead of
// indexing that log a second time on the extension host (issue 17: a 1M-event log). So the text the
// adapter serves for a document's URI must be the document as the extension would make it — the
// log's problems listed below the transcript included — and the adapter says when it found another
// problem later (the background chain check), so a document shown meanwhile is re-rendered.
import type { DebugProtocol } from '@vscode/debugprotocol';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transcriptDocumentText, forgetIndexedLogs } from '../../src/harness/replay/transcriptDocument';
import { LOG_PROBLEMS_EVENT, windowOfQuery, windowQuery, type TranscriptWindow } from '../../src/harness/replay/transcriptWindow';
import { writeLargeLog } from '../helpers/largeLog';
import { inProcessSession, launch } from './helpers';

/** The URI the extension gives a transcript document (transcriptDocuments.ts), as a string. */
const uriOf = (log: string, w: TranscriptWindow | null) => `kite-transcript:${encodeURI(`${log}.kite-transcript`)}${w ? `?${encodeURIComponent(windowQuery(w))}` : ''}`;

describe('DAP: the transcript document served by the replay session', function () {
  this.timeout(60_000);
  let dir: string;
  afterEach(() => {
    forgetIndexedLogs();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const windowed of [false, true]) {
    it(`${windowed ? 'a window of a huge log' : 'the whole transcript'}: the served text is the extension’s document, the log’s problems below it, each announced by a custom event`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'kite-dap-served-'));
      const log = join(dir, 'broken-run.jsonl');
      writeLargeLog(log, 400);
      // A line that is no JSON (skipped by the scan) and a line whose body was edited (the chain check finds it).
      const lines = readFileSync(log, 'utf8').split('\n');
      lines[120] = '{"v":1,"seq":120, this line was cut';
      lines[300] = lines[300].replace(/"t":[\d.]+/, '"t":9999');
      writeFileSync(log, lines.join('\n'));
      const expected = await transcriptDocumentText(log, null);
      const problems = expected.split('\n').filter((l) => l.startsWith('! line '));
      assert.equal(problems.length, 3, `the document lists the cut line, and the chain broken after it and after the edit:\n${problems.join('\n')}`);

      const s = await inProcessSession({ transcriptUri: uriOf, ...(windowed ? { transcriptWindows: { minBytes: 1, lines: 100 } } : {}) });
      try {
        const announced: { log: string; count: number }[] = [];
        s.dc.on(LOG_PROBLEMS_EVENT, (e: DebugProtocol.Event) => announced.push(e.body as { log: string; count: number }));
        await launch(s.dc, { log, stopOnEntry: true });
        const until = Date.now() + 30_000;
        while (announced.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(announced, [1, 2, 3].map((count) => ({ log, count })), 'each problem announced as it was found');
        const window: TranscriptWindow | null = windowed ? { from: 101, to: 200 } : null;
        const path = uriOf(log, window);
        if (window) assert.deepEqual(windowOfQuery(decodeURIComponent(path.split('?')[1])), window);
        const served = (await s.dc.sourceRequest({ source: { path }, sourceReference: 0 })).body.content;
        assert.equal(served, await transcriptDocumentText(log, window), 'the adapter serves what the extension would show');
        assert.deepEqual(served.split('\n').filter((l) => l.startsWith('! line ')), problems);
      } finally {
        await s.close();
      }
    });
  }
});
