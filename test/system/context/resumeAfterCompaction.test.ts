// kill -9 right after a compaction event, then `kite resume`: the next request the local server
// receives is byte-identical to the one the uncrashed run sent at that point — the fold of the
// log rebuilds exactly the compacted conversation.
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { buildCli, nodeAsync } from '../resume/kit';
import { contextProject, KEY, MODEL } from './kit';
import { CONTEXT, longScript, moduleFiles, summaryReplies, WINDOW } from './longSession';

function onlyLog(repo: string): string {
  const dir = join(repo, '.kite', 'runs');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
}
const eventsOf = (log: string): KiteEvent[] =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);

describe('resume after a crash right after a compaction', function () {
  this.timeout(180_000);
  const servers: FakeAnthropicServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });
  const start = async () => {
    const s = await FakeAnthropicServer.start({ script: longScript(), summaries: summaryReplies(), apiKeys: [KEY], contextWindow: WINDOW });
    servers.push(s);
    return s;
  };
  const env = (s: FakeAnthropicServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url, ANTHROPIC_AUTH_TOKEN: '', ...extra });

  it('kill -9 after the first compaction with a summary; kite resume sends the same next request byte for byte and ends done', async () => {
    const cli = await buildCli();
    const repo = contextProject({ files: moduleFiles(), config: { context: CONTEXT } });
    const pristine = `${repo}-pristine`;
    cpSync(repo, pristine, { recursive: true });

    // The uncrashed run.
    const s1 = await start();
    const r1 = await nodeAsync(cli, repo, ['run', '--unattended', '--model', `anthropic:${MODEL}`], env(s1));
    assert.equal(r1.status, 0, r1.stdout + r1.stderr);
    const e1 = eventsOf(onlyLog(repo));
    const c = e1.find((e): e is Extract<KiteEvent, { kind: 'compaction' }> => e.kind === 'compaction' && e.summary !== null);
    assert.ok(c, 'the run compacted with a summary');
    const expected = s1.requests.find((q) => q.turn === c.turn + 1 && q.outcome === 'served');
    assert.ok(expected);

    // The same run, killed right after that compaction event is on disk.
    rmSync(repo, { recursive: true, force: true });
    cpSync(pristine, repo, { recursive: true });
    const s2 = await start();
    const r2 = await nodeAsync(cli, repo, ['run', '--unattended', '--model', `anthropic:${MODEL}`], env(s2, { KITE_TEST_CRASH_AFTER_SEQ: String(c.seq) }));
    assert.equal(r2.signal, 'SIGKILL', `exit ${r2.status}: ${r2.stderr}`);
    const log = onlyLog(repo);
    assert.equal(eventsOf(log).at(-1)?.kind, 'compaction');
    const before = s2.requests.length;

    const r3 = await nodeAsync(cli, repo, ['resume', log, '--unattended'], env(s2));
    assert.equal(r3.status, 0, r3.stdout + r3.stderr);
    const next = s2.requests[before];
    assert.ok(next);
    assert.equal(next.turn, c.turn + 1);
    assert.equal(JSON.stringify(next.body), JSON.stringify(expected.body), 'the first request after resume differs from the uncrashed run');
    const e3 = eventsOf(log);
    assert.equal((e3.at(-1) as { status?: string }).status, 'done');
    rmSync(pristine, { recursive: true, force: true });
  });
});
