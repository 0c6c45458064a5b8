// By hand: `npm run fake-anthropic -- --script replies.json [--port N] [--key K]... [--min-cache-tokens N] [--context-window N]`
// Prints the base URL; point the SDK at it with ANTHROPIC_BASE_URL. Each request is summarized on stderr.
import { parseArgs } from 'node:util';
import { loadScript } from './script';
import { FakeAnthropicServer } from './server';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        script: { type: 'string' },
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        key: { type: 'string', multiple: true },
        'min-cache-tokens': { type: 'string' },
        'event-delay-ms': { type: 'string' },
        'context-window': { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`fake-anthropic: ${(e as Error).message}`);
    return 2;
  }
  if (!values.script) {
    console.error('fake-anthropic: --script <file.json> is required (a JSON array of Messages API replies, one per turn)');
    return 2;
  }
  const num = (name: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${v}"`);
    return n;
  };
  const server = await FakeAnthropicServer.start({
    script: loadScript(values.script),
    host: values.host,
    port: num('port', values.port),
    apiKeys: values.key ?? null,
    minCacheTokens: num('min-cache-tokens', values['min-cache-tokens']),
    eventDelayMs: num('event-delay-ms', values['event-delay-ms']),
    contextWindow: num('context-window', values['context-window']),
  });
  server.on('request', (r: FakeAnthropicServer['requests'][number]) => {
    const u = r.usage ? ` in=${r.usage.input_tokens} cache_write=${r.usage.cache_creation_input_tokens} cache_read=${r.usage.cache_read_input_tokens} out=${r.usage.output_tokens}` : '';
    const why = r.error ? ` ${r.error.type}: ${r.error.message}` : r.fault ? ` fault=${r.fault.kind}` : '';
    console.error(`#${r.n} turn=${r.turn ?? '-'} ${r.status} ${r.outcome}${why}${u}`);
  });
  console.log(server.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`fake-anthropic: ${(e as Error).message}`);
    process.exit(2);
  },
);
