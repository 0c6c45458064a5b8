// Regenerates test/fixtures/logs/*.jsonl from the builders (python-kite.jsonl is hand-written
// in the original format and is not touched). Run: npx tsx test/helpers/makeFixtures.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFailedRun, buildRun, ev } from './events';

const dir = join(__dirname, '..', 'fixtures', 'logs');
const demo = buildRun({ run: 'demo-run' });
const lines = demo.map((e) => JSON.stringify(e));
writeFileSync(join(dir, 'demo-run.jsonl'), lines.join('\n') + '\n');

// A writer killed mid-line: the first 9 events, then half of the 10th with no newline.
const torn = lines.slice(0, 10).map((l) => l.replace('"run":"demo-run"', '"run":"torn-last-line"'));
writeFileSync(join(dir, 'torn-last-line.jsonl'), torn.slice(0, 9).join('\n') + '\n' + torn[9].slice(0, Math.floor(torn[9].length / 2)));

// Line 4 is not JSON, line 7 has a wrong type; everything else is valid.
const mal = lines.slice(0, 12).map((l) => l.replace('"run":"demo-run"', '"run":"malformed-middle"'));
mal[3] = '{"v":1,"seq":3,"run":"malformed-middle","t":2.2,"kind":"model", oops}';
const m7 = JSON.parse(mal[6]) as Record<string, unknown>;
mal[6] = JSON.stringify({ ...m7, kind: 'model', turn: 'two', stop: 'tool_use', content: [], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0, ms: 1 });
writeFileSync(join(dir, 'malformed-middle.jsonl'), mal.join('\n') + '\n');

// A log from a newer Kite: the third line has v 2.
const fut = [ev.sessionStart({ run: 'future-version' }), ev.progress({ run: 'future-version', seq: 1 })].map((e) => JSON.stringify(e));
fut.push(JSON.stringify({ v: 2, seq: 2, run: 'future-version', t: 0.1, kind: 'user', reason: 'briefing', text: 'hi', lang: 'en' }));
writeFileSync(join(dir, 'future-version.jsonl'), fut.join('\n') + '\n');

writeFileSync(join(dir, 'empty.jsonl'), '');
writeFileSync(join(dir, 'failed-gate.jsonl'), buildFailedRun().map((e) => JSON.stringify(e)).join('\n') + '\n');
console.log(`wrote fixtures to ${dir}`);
