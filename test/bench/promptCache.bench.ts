// Benchmark: a 30-turn scripted agent session through the Anthropic adapter (real SDK) and the
// local Messages API server, once with cache breakpoints and once without. Prints the share of
// input tokens read from the cache (target ≥ 85%) and the billed cost of both.
//   npx tsx test/bench/promptCache.bench.ts [turns] [toolOutputChars]
import { AnthropicModel } from '../../src/harness/model/anthropic';
import { costOf, priceOf, uncachedCostOf } from '../../src/harness/model/pricing';
import type { Reply } from '../../src/harness/protocol/content';
import { FakeAnthropicServer } from '../fakeAnthropic/server';
import { BENCH_SYSTEM, BENCH_TOOLS, driveSession, sessionScript } from '../fakeAnthropic/session';

const TURNS = Number(process.argv[2] ?? 30);
const OUTPUT_CHARS = Number(process.argv[3] ?? 3000);
const MODEL = 'claude-sonnet-5-5';
const KEY = 'sk-ant-bench';

interface Totals {
  input: number;
  write: number;
  read: number;
  output: number;
  cost: number;
  uncached: number;
  ms: number;
  requests: number;
}

async function run(cache: boolean): Promise<Totals> {
  // The service's minimum cacheable prompt for Sonnet is 1024 tokens; keep it.
  const server = await FakeAnthropicServer.start({ script: sessionScript(TURNS), apiKeys: [KEY], minCacheTokens: 1024 });
  try {
    const model = new AnthropicModel({ model: MODEL, apiKey: KEY, baseURL: server.url, env: {}, cache });
    const t0 = performance.now();
    const { replies } = await driveSession(model, { system: BENCH_SYSTEM, tools: BENCH_TOOLS, briefing: 'Review and fix every module; run the tests.', turns: TURNS, toolOutputChars: OUTPUT_CHARS });
    const ms = performance.now() - t0;
    const bad = server.requests.filter((r) => r.outcome !== 'served');
    if (bad.length) throw new Error(`requests failed validation: ${bad.map((r) => r.error?.message).join('; ')}`);
    return sum(replies, ms, server.requests.length);
  } finally {
    await server.close();
  }
}

function sum(replies: Reply[], ms: number, requests: number): Totals {
  const price = priceOf(MODEL);
  const t: Totals = { input: 0, write: 0, read: 0, output: 0, cost: 0, uncached: 0, ms, requests };
  for (const r of replies) {
    t.input += r.usage.input_tokens;
    t.write += r.usage.cache_creation_input_tokens ?? 0;
    t.read += r.usage.cache_read_input_tokens ?? 0;
    t.output += r.usage.output_tokens;
    t.cost += costOf(r.usage, price);
    t.uncached += uncachedCostOf(r.usage, price);
  }
  return t;
}

async function main(): Promise<void> {
  const cached = await run(true);
  const plain = await run(false);
  const allInput = (t: Totals) => t.input + t.write + t.read;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`promptCache: ${TURNS}-turn session, ${OUTPUT_CHARS}-char tool results, ${MODEL} list prices`);
  for (const [name, t] of [['with breakpoints', cached], ['without breakpoints', plain]] as const)
    console.log(
      `  ${name.padEnd(20)} input ${allInput(t).toLocaleString('en')} tok (plain ${t.input.toLocaleString('en')}, cache write ${t.write.toLocaleString('en')}, cache read ${t.read.toLocaleString('en')}), output ${t.output.toLocaleString('en')}; billed $${t.cost.toFixed(4)}; ${t.requests} requests in ${t.ms.toFixed(0)} ms`,
    );
  console.log(`  share of input tokens read from cache: ${pct(cached.read / allInput(cached))} (target >= 85%)`);
  console.log(`  billed cost with breakpoints vs without: $${cached.cost.toFixed(4)} vs $${plain.cost.toFixed(4)} = ${pct(cached.cost / plain.cost)} (saves ${pct(1 - cached.cost / plain.cost)})`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
