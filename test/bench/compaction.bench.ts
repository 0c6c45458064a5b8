// Benchmark: the 80-turn scripted session of the context-layer tests (test/system/context) as a
// real Kite run — the real SDK, the local Messages API server, real tools and gate — once
// without compaction (the server has no window limit, so the conversation just grows) and once
// with compaction against a 20,000-token window. Prints dollars, the cache-read share of prompt
// tokens, the peak request size and the number of compactions.
//   npx tsx test/bench/compaction.bench.ts
import { UnattendedHost } from '../../src/harness/cli/unattendedHost';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runFeature } from '../../src/harness/run';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { promptTokensOf } from '../fakeAnthropic/caching';
import { FakeAnthropicServer } from '../fakeAnthropic/server';
import { contextProject, KEY, sdkModel } from '../system/context/kit';
import { CONTEXT, longScript, moduleFiles, summaryReplies, WINDOW } from '../system/context/longSession';

interface Figures {
  outcome: string;
  usd: number;
  cacheReadShare: number;
  peakTokens: number;
  promptTokens: number;
  compactions: number;
  requests: number;
}

async function once(compact: boolean): Promise<Figures> {
  const server = await FakeAnthropicServer.start({ script: longScript(), summaries: summaryReplies(), apiKeys: [KEY], ...(compact ? { contextWindow: WINDOW } : {}) });
  try {
    const repo = contextProject({ files: moduleFiles(), config: { context: compact ? CONTEXT : { compact: false } } });
    const r = await runFeature({ root: repo, mode: 'unattended', model: '', modelOverride: sdkModel(server) }, new UnattendedHost());
    const dir = join(repo, '.kite', 'runs');
    const events = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as KiteEvent);
    let read = 0;
    let prompt = 0;
    for (const q of server.requests) {
      const u = q.usage;
      if (!u) continue;
      read += u.cache_read_input_tokens;
      prompt += u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    }
    return {
      outcome: r.outcome,
      usd: r.cost_usd,
      cacheReadShare: prompt ? read / prompt : 0,
      peakTokens: Math.max(...server.requests.map((q) => promptTokensOf(q.body as Record<string, unknown>))),
      promptTokens: prompt,
      compactions: events.filter((e) => e.kind === 'compaction').length,
      requests: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const rows: [string, Figures][] = [
    ['without compaction (no window limit)', await once(false)],
    [`with compaction (window ${WINDOW.toLocaleString('en-US')})`, await once(true)],
  ];
  for (const [name, f] of rows) {
    console.log(
      `${name}: ${f.outcome} · $${f.usd.toFixed(4)} billed · ${f.promptTokens.toLocaleString('en-US')} prompt tokens · cache reads ${(f.cacheReadShare * 100).toFixed(1)}% · ` +
        `peak request ${f.peakTokens.toLocaleString('en-US')} tokens · ${f.compactions} compactions · ${f.requests} requests`,
    );
  }
}

void main();
