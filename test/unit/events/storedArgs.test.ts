// A call's arguments are stored once (issue 13 item 13): the writer refers to the model event's
// tool_use input (or the person's edit) instead of repeating it; every reader resolves the
// reference through protocol/argsRef.ts and reports one that does not match, with its line.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineHash } from '../../../src/harness/events/chain';
import { LogTailer } from '../../../src/harness/events/logTailer';
import { readLog, streamLog } from '../../../src/harness/events/reader';
import { Redactor } from '../../../src/harness/events/redact';
import { EventWriter } from '../../../src/harness/events/writer';
import { ArgsRefResolver, canonicalJson, resolveArgsRef, type ArgsRef } from '../../../src/harness/protocol/argsRef';
import type { EventBody, KiteEvent } from '../../../src/harness/protocol/events';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { buildRun, ev, RunBuilder, sha, TEST_KEPT, TEST_PROPOSED } from '../../helpers/events';
import { tempDir } from '../loop/kit';

const BIG = 'const x = 1;\n'.repeat(20_000); // 260 KB: stands for a large write

const bodyOf = (e: KiteEvent): EventBody => {
  const { v: _v, seq: _s, run: _r, t: _t, prev: _p, ...body } = e as KiteEvent & { prev?: unknown };
  return body as EventBody;
};

/** The demo run (reads, a write, an edited write, an edit, commands) written through a real writer. */
function writeDemo(redactor = new Redactor({})): { path: string; source: KiteEvent[] } {
  const source = buildRun();
  const w = EventWriter.create(tempDir(), 'demo', () => 0, redactor);
  for (const e of source) w.append(bodyOf(e));
  return { path: w.path, source };
}

const onDisk = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const occurrences = (text: string, what: string) => text.split(what).length - 1;

describe('a call’s arguments stored once', () => {
  it('the writer stores each argument once: proposed, approval_request, intent and tool refer to the model event, an edited write to the approval', () => {
    const { path } = writeDemo();
    const lines = onDisk(path);
    const refs = lines.filter((l) => l.args_ref !== undefined);
    const withArgs = lines.filter((l) => ['proposed', 'approval_request', 'intent', 'tool'].includes(l.kind as string) && l.args !== undefined);
    assert.deepEqual(withArgs, [], 'no call event repeats arguments its model event holds');
    assert.ok(refs.length >= 15, `expected references, got ${refs.length}`);
    const edited = lines.filter((l) => (l.args_ref as ArgsRef | undefined)?.in === 'approval').map((l) => l.kind);
    assert.deepEqual(edited, ['intent', 'tool'], 'the edited write runs (and is recorded) with the person’s version');
    const text = readFileSync(path, 'utf8');
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    assert.equal(occurrences(text, json(TEST_PROPOSED)), 1, 'the model’s proposal is stored once (in its model event)');
    assert.equal(occurrences(text, json(TEST_KEPT)), 1, 'the person’s version is stored once (in the approval)');
  });

  it('reading the compact log gives back every event with its arguments, as the old form did; reducer folds agree', async () => {
    const { path, source } = writeDemo();
    const r = await readLog(path);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.events.map(bodyOf), source.map(bodyOf));
    const old = foldEvents(source);
    const compact = foldEvents(r.events);
    assert.deepEqual(compact.files, old.files);
    assert.deepEqual(compact.conversation?.messages(), old.conversation?.messages());
    assert.deepEqual(Object.values(compact.calls).map((c) => [c.id, c.stage, c.approval, c.path]), Object.values(old.calls).map((c) => [c.id, c.stage, c.approval, c.path]));
  });

  it('the reducer folds an unfinished call of either form to the same arguments and repetition count', async () => {
    const model = ev.model({ seq: 3, stop: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_9', name: 'write_file', input: { path: 'big.txt', content: BIG } }] });
    const old: KiteEvent[] = [ev.sessionStart(), ev.user({ seq: 1 }), model, ev.proposed({ seq: 4, id: 'toolu_9', name: 'write_file', args: { path: 'big.txt', content: BIG } }), ev.policy({ seq: 5, id: 'toolu_9', name: 'write_file', decision: 'ask' })];
    const w = EventWriter.create(tempDir(), 'r', () => 0, new Redactor({}));
    for (const e of old) w.append(bodyOf(e));
    const proposedLine = onDisk(w.path)[3];
    assert.equal(proposedLine.args, undefined);
    assert.deepEqual(proposedLine.args_ref, { call: 'toolu_9', in: 'model', sha256: sha(canonicalJson({ path: 'big.txt', content: BIG })) });
    const r = await readLog(w.path);
    for (const s of [foldEvents(old), foldEvents(r.events)]) {
      assert.deepEqual(s.calls.toolu_9.args, { path: 'big.txt', content: BIG });
      assert.equal(s.calls.toolu_9.stage, 'policy');
      assert.deepEqual([...s.repeats.values()], [1]);
    }
  });

  it('a reference whose model event was changed is a chain problem naming both lines, and its arguments stay unknown (even with the chain recomputed)', async () => {
    const { path } = writeDemo();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    // A forger changes the written content in the model event and recomputes every `prev`.
    const at = lines.findIndex((l) => l.includes('"kind":"model"') && l.includes('toolu_02'));
    lines[at] = lines[at].replace('ROUND_HALF_UP', 'ROUND_DOWN');
    for (let i = 1; i < lines.length; i++) {
      const e = JSON.parse(lines[i]) as Record<string, unknown>;
      e.prev = lineHash(Buffer.from(lines[i - 1]));
      lines[i] = JSON.stringify(e);
    }
    writeFileSync(path, lines.join('\n') + '\n');
    const got: KiteEvent[] = [];
    const r = await streamLog(path, (e) => got.push(e));
    const bad = r.problems.filter((p) => /args_ref/.test(p.message));
    assert.ok(bad.length >= 3, JSON.stringify(r.problems));
    assert.ok(bad.every((p) => p.chain === true));
    assert.match(bad[0].message, new RegExp(`^line ${at + 2}: proposed\\.args_ref: the arguments of call toolu_02 in the model event on line ${at + 1} hash to [0-9a-f]{12}…, but this line refers to [0-9a-f]{12}…`));
    const proposed = got.find((e) => e.kind === 'proposed' && e.id === 'toolu_02');
    assert.equal(proposed?.kind === 'proposed' ? proposed.args : 'missing', undefined, 'a reference that does not match is never used');
  });

  it('resolveArgsRef: a reference that names no call, names another call, or sits next to args is a problem', () => {
    const resolver = new ArgsRefResolver(sha);
    resolver.event(ev.model({ content: [{ type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } }] }), 3);
    const hash = sha(canonicalJson({ path: 'x' }));
    const ok = ev.proposed({ id: 'a', args: undefined, args_ref: { call: 'a', in: 'model', sha256: hash } });
    assert.equal(resolver.event(ok, 4), null);
    assert.deepEqual(ok.args, { path: 'x' });
    assert.equal(ok.args_ref, undefined);
    const missing = ev.tool({ id: 'b', args: undefined, args_ref: { call: 'b', in: 'model', sha256: hash } });
    assert.match(resolver.event(missing, 9)?.message ?? '', /^line 9: tool\.args_ref: the model event before this line has no tool call b/);
    const other = ev.tool({ id: 'b', args: undefined, args_ref: { call: 'a', in: 'model', sha256: hash } });
    assert.match(resolver.event(other, 10)?.message ?? '', /names call a, but the event is about call b/);
    const both = ev.intent({ id: 'a', args: { path: 'x' }, args_ref: { call: 'a', in: 'model', sha256: hash } });
    assert.match(resolveArgsRef(both, 11, () => null)?.message ?? '', /holds both "args" and "args_ref"/);
    const noEdit = ev.intent({ id: 'a', args: undefined, args_ref: { call: 'a', in: 'approval', sha256: hash } });
    assert.match(resolver.event(noEdit, 12)?.message ?? '', /call a has no edited approval/);
  });

  it('canonicalJson: key order does not change the hash; undefined members are dropped as JSON.stringify does', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null }, u: undefined }), '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    assert.equal(canonicalJson('a"b'), '"a\\"b"');
  });

  it('redaction applies once, where the content is stored: the model event is redacted and the references match its redacted copy', async () => {
    const secret = 'hunter2-very-secret-value-42';
    const source = [ev.sessionStart(), ev.model({ seq: 1, stop: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_s', name: 'write_file', input: { path: '.env', content: `TOKEN=${secret}\n${BIG}` } }] })];
    const w = EventWriter.create(tempDir(), 'r', () => 0, new Redactor({ MY_TOKEN: secret }));
    const seen: KiteEvent[] = [];
    w.subscribe((e) => seen.push(e));
    for (const e of source) w.append(bodyOf(e));
    const args = { path: '.env', content: `TOKEN=${secret}\n${BIG}` };
    w.append({ kind: 'proposed', turn: 1, id: 'toolu_s', name: 'write_file', args });
    w.append({ kind: 'tool', id: 'toolu_s', name: 'write_file', args: { ...args }, ms: 1, is_error: false, output: 'ok', error_code: null });
    const text = readFileSync(w.path, 'utf8');
    assert.doesNotMatch(text, /hunter2/);
    assert.equal(occurrences(text, 'const x = 1;'), 20_000, 'the content is on disk once');
    const r = await readLog(w.path);
    assert.deepEqual(r.problems, []);
    const tool = r.events.find((e) => e.kind === 'tool');
    assert.deepEqual(tool?.kind === 'tool' && tool.args, { path: '.env', content: `TOKEN=[REDACTED]\n${BIG}` });
    assert.deepEqual(seen.find((e) => e.kind === 'tool')?.kind === 'tool' && (seen.find((e) => e.kind === 'tool') as { args: unknown }).args, { path: '.env', content: `TOKEN=[REDACTED]\n${BIG}` }, 'listeners see the stored (redacted) arguments');
  });

  it('arguments that differ from the model’s (validated, edited by hand) are written in full', () => {
    const w = EventWriter.create(tempDir(), 'r', () => 0, new Redactor({}));
    w.append(bodyOf(ev.model({ stop: 'tool_use', content: [{ type: 'tool_use', id: 'c', name: 'edit_file', input: { path: 'a', old_string: 'x', new_string: 'y' } }] })));
    w.append({ kind: 'proposed', turn: 1, id: 'c', name: 'edit_file', args: { new_string: 'y', path: 'a', old_string: 'x' } }); // same value, other key order
    w.append({ kind: 'tool', id: 'c', name: 'edit_file', args: { path: 'a', old_string: 'x', new_string: 'y', replace_all: false }, ms: 1, is_error: false, output: 'ok', error_code: null });
    const [, proposed, tool] = onDisk(w.path);
    assert.equal(proposed.args, undefined);
    assert.equal((proposed.args_ref as ArgsRef).in, 'model');
    assert.deepEqual(tool.args, { path: 'a', old_string: 'x', new_string: 'y', replace_all: false });
    assert.equal(tool.args_ref, undefined);
  });

  it('a resumed writer (reopened with the reader’s state) still refers to the last reply’s calls', async () => {
    const dir = tempDir();
    const w = EventWriter.create(dir, 'r', () => 0, new Redactor({}));
    for (const e of [ev.sessionStart(), ev.model({ seq: 1, stop: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_r', name: 'write_file', input: { path: 'big.txt', content: BIG } }] })]) w.append(bodyOf(e));
    const r = await streamLog(w.path, () => undefined);
    let input: unknown;
    await streamLog(w.path, (e) => {
      if (e.kind === 'model') input = e.content[0].type === 'tool_use' ? e.content[0].input : null;
    });
    const again = EventWriter.reopen(w.path, () => 0, new Redactor({}), r.refs);
    again.append({ kind: 'proposed', turn: 1, id: 'toolu_r', name: 'write_file', args: input });
    assert.equal(onDisk(w.path)[2].args_ref !== undefined, true);
    assert.equal(occurrences(readFileSync(w.path, 'utf8'), 'const x = 1;'), 20_000);
    const back = await readLog(w.path);
    assert.deepEqual(back.problems, []);
    assert.deepEqual((back.events[2] as { args: unknown }).args, { path: 'big.txt', content: BIG });
  });

  it('the tailer resolves references in its batches and when an event is read back on demand', async () => {
    const { path, source } = writeDemo();
    const batches: KiteEvent[] = [];
    const tailer = new LogTailer(path, (t) => {
      if (t.type === 'batch') batches.push(...t.batch.events);
    }, { follow: false });
    await tailer.start();
    try {
      assert.deepEqual(batches.map(bodyOf), source.map(bodyOf));
      const tool = source.find((e) => e.kind === 'tool' && e.id === 'toolu_04')!;
      const back = await tailer.event(tool.seq);
      assert.deepEqual(back && bodyOf(back), bodyOf(tool), 'the edited write comes back with the person’s version');
      const proposed = source.find((e) => e.kind === 'proposed' && e.id === 'toolu_02')!;
      const p = await tailer.event(proposed.seq);
      assert.deepEqual(p && bodyOf(p), bodyOf(proposed));
      for (const e of source) assert.deepEqual(bodyOf((await tailer.event(e.seq))!), bodyOf(e), `event ${e.seq} (${e.kind}) read back`);
    } finally {
      tailer.dispose();
    }
  });

  it('read back on demand, a call id used again in a later turn names the call of its own turn', async () => {
    // Models reuse ids (a scripted or local model numbering its calls per reply): a reference
    // names the latest model event before it, never a later reply's call with the same id.
    const b = new RunBuilder('reuse').start();
    b.turnWithCalls('First look.', [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' }, output: 'A' }], { input: 10, output: 5 });
    b.turnWithCalls('Then the other.', [{ id: 'call_1', name: 'read_file', args: { path: 'b.txt' }, output: 'B' }], { input: 10, output: 5 });
    const source = b.events();
    const w = EventWriter.create(tempDir(), 'reuse', () => 0, new Redactor({}));
    for (const e of source) w.append(bodyOf(e));
    assert.ok(onDisk(w.path).filter((l) => l.args_ref !== undefined).length >= 4, 'the calls are stored as references');
    const tailer = new LogTailer(w.path, () => undefined, { follow: false });
    await tailer.start();
    try {
      const paths: unknown[] = [];
      for (const e of source) {
        const back = await tailer.event(e.seq);
        assert.deepEqual(back && bodyOf(back), bodyOf(e), `event ${e.seq} (${e.kind}) read back`);
        if (back?.kind === 'tool') paths.push((back.args as { path: string }).path);
      }
      assert.deepEqual(paths, ['a.txt', 'b.txt']);
    } finally {
      tailer.dispose();
    }
  });

  it('an old log (arguments in full on every event) reads unchanged', async () => {
    const source = buildRun();
    const path = join(tempDir(), 'old.jsonl');
    writeFileSync(path, source.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await readLog(path);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.events, source);
  });
});
