// The extension's transcript documents (kite-transcript:) are now built from a lazily read log in
// slices, so the extension host is not held for long. The text must stay what reading the log
// whole gives — line for line, with the skipped lines listed below it — or breakpoints set in the
// document would land on other events than the adapter's.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { readLog, runIdOf } from '../../../src/harness/events/reader';
import { EventWriter } from '../../../src/harness/events/writer';
import type { EventBody, KiteEvent } from '../../../src/harness/protocol/events';
import { transcriptDocumentText } from '../../../src/harness/replay/transcriptDocument';
import { buildTranscript, transcriptText } from '../../../src/harness/replay/transcript';
import { buildRun } from '../../helpers/events';
import { tempDir } from '../loop/kit';

const bodyOf = (e: KiteEvent): EventBody => {
  const { v: _v, seq: _s, run: _r, t: _t, prev: _p, ...body } = e as KiteEvent & { prev?: unknown };
  return body as EventBody;
};

/** What the document showed before: the log read whole, its problems below the text. */
async function readWhole(log: string): Promise<string> {
  const { events, problems } = await readLog(log, { validation: 'structural' });
  const text = transcriptText(buildTranscript(events, runIdOf(log)));
  return problems.length ? `${text}\n${problems.map((p) => `! line ${p.line} of the log skipped: ${p.message}`).join('\n')}\n` : text;
}

describe('transcript documents (kite-transcript:)', () => {
  it('read lazily and built in slices, are the text of the log read whole, skipped lines (malformed, torn, chain break) listed below', async () => {
    const w = EventWriter.create(tempDir(), 'demo', () => 0);
    for (const e of buildRun()) w.append(bodyOf(e));
    assert.equal(await transcriptDocumentText(w.path), await readWhole(w.path));
    const lines = readFileSync(w.path, 'utf8').split('\n').filter(Boolean);
    lines[6] = lines[6].replace(/"t":[0-9.]+/, '"t":99'); // breaks the hash chain on line 8
    lines.splice(3, 0, '{"v":1,"seq":3,"kind":"model", oops}', '[1,2]');
    writeFileSync(w.path, lines.join('\n') + '\n' + lines[5].slice(0, 40));
    const doc = await transcriptDocumentText(w.path);
    assert.equal(doc, await readWhole(w.path));
    assert.match(doc, /! line 4 of the log skipped/);
    assert.match(doc, /torn last line/);
  });

  it('a window is its lines of the whole document with a footer below; a log that grew is read again, not served from the kept index', async () => {
    const w = EventWriter.create(tempDir(), 'demo', () => 0);
    const run = buildRun();
    for (const e of run.slice(0, 30)) w.append(bodyOf(e));
    const whole = (await transcriptDocumentText(w.path)).split('\n');
    const part = (await transcriptDocumentText(w.path, { from: 11, to: 20 })).split('\n');
    assert.deepEqual(part.slice(0, 10), whole.slice(10, 20));
    assert.equal(part[10], '');
    assert.match(part[11], /^── lines 11–20 \(this run's transcript is shown in parts of 10 lines; stepping past the last line opens the next part\) ──$/);
    const past = await transcriptDocumentText(w.path, { from: 1001, to: 1010 });
    assert.match(past, /^── lines 1,001–1,010: past the end of the transcript/);
    for (const e of run.slice(30)) w.append(bodyOf(e));
    const grown = (await transcriptDocumentText(w.path)).split('\n');
    assert.ok(grown.length > whole.length, 'the appended events are in the document');
    assert.equal(await transcriptDocumentText(w.path), await readWhole(w.path));
  });
});
