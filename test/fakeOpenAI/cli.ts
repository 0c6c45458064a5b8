// By hand: `npm run fake-openai -- --script replies.json [--port N] [--key K]...`
// Prints the base URL (with /v1); point the SDK at it with OPENAI_BASE_URL. Without --key it
// accepts any key or none, like a local server. Each request is summarized on stderr.
import { parseArgs } from 'node:util';
import { loadScript } from './script';
import { FakeOpenAIServer } from './server';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        script: { type: 'string' },
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        key: { type: 'string', multiple: true },
      },
    }));
  } catch (e) {
    console.error(`fake-openai: ${(e as Error).message}`);
    return 2;
  }
  if (!values.script) {
    console.error('fake-openai: --script <file.json> is required (a JSON array of Kite replies, one per turn)');
    return 2;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0) throw new Error(`--port must be a non-negative integer, got "${values.port}"`);
  const server = await FakeOpenAIServer.start({ script: loadScript(values.script), host: values.host, port, apiKeys: values.key ?? null });
  server.on('request', (r: FakeOpenAIServer['requests'][number]) => {
    const u = r.usage ? ` prompt=${r.usage.prompt_tokens} cached=${r.usage.prompt_tokens_details.cached_tokens} completion=${r.usage.completion_tokens}` : '';
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
    console.error(`fake-openai: ${(e as Error).message}`);
    process.exit(2);
  },
);
