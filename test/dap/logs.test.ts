// Logs that are not perfect still replay: a python-Kite log, a log with malformed middle lines
// (reported with their line numbers in the Debug Console), a torn last line; a log from a newer
// Kite is refused with a clear error.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ROOT, adapterBundle, launch, moved, startClient, transcript, where } from './helpers';

const fixture = (name: string) => join(ROOT, 'test/fixtures/logs', name);

describe('DAP on imperfect logs (stdio)', function () {
  let dc: DebugClient;
  before(async () => {
    await adapterBundle();
  });
  beforeEach(async () => {
    dc = await startClient();
  });
  afterEach(async () => {
    await dc.stop();
  });

  it('replays a log of the original (python) Kite: transcript, stepping by turn', async () => {
    const s = await launch(dc, { log: fixture('python-kite.jsonl') });
    assert.equal(s.body.reason, 'entry');
    const t = await transcript(dc);
    assert.match(t.text, /── Turn 1 · tool_use/);
    const n = await moved(dc, (c) => c.nextRequest({ threadId: 1 }));
    assert.equal(n.body.reason, 'step');
    const w = await where(dc);
    assert.match(w.frames[0].name, /^#1 model/);
    assert.equal(w.frames[1].name, 'Turn 1');
  });

  it('reports malformed lines with their line numbers and replays the rest', async () => {
    const output: DebugProtocol.OutputEvent[] = [];
    dc.on('output', (e) => output.push(e as DebugProtocol.OutputEvent));
    const s = await launch(dc, { log: fixture('malformed-middle.jsonl') });
    assert.equal(s.body.reason, 'entry');
    const problems = output.filter((o) => o.body.category === 'important').map((o) => o.body.output);
    assert.ok(problems.some((p) => /malformed-middle\.jsonl:4: .*\(line skipped\)/.test(p)), problems.join(''));
    const t = await transcript(dc);
    assert.doesNotMatch(t.text, /^\s+#3 /m, 'the broken line is not in the transcript');
  });

  it('replays a log whose last line was torn by a killed writer', async () => {
    const output: string[] = [];
    dc.on('output', (e) => output.push(String((e.body as { output: string }).output)));
    const s = await launch(dc, { log: fixture('torn-last-line.jsonl'), stopOnEntry: false });
    assert.ok(['step', 'exception'].includes(s.body.reason));
    assert.ok(output.some((o) => /torn last line/.test(o)));
  });

  it('refuses a log written by a newer Kite with a clear error', async () => {
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ log: fixture('future-version.jsonl') } as DebugProtocol.LaunchRequestArguments), /cannot replay .*future-version\.jsonl: .*version/i);
  });
});
