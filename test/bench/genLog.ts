// Writes a realistic chained log of any size for the benchmarks and for trying Kite on big runs:
// model turns with cache usage, reads/writes/commands with approvals, outputs of varied size, gates.
//   npx tsx test/bench/genLog.ts OUT.jsonl [events]      (default 1,000,000 ≈ 1 GB)
import { writeLargeLog } from '../helpers/largeLog';

const [out, n = '1000000'] = process.argv.slice(2);
if (!out) {
  console.error('usage: npx tsx test/bench/genLog.ts OUT.jsonl [events]');
  process.exit(2);
}
const t0 = performance.now();
const info = writeLargeLog(out, Number(n));
console.log(`${out}: ${info.events.toLocaleString()} events (${info.modelEvents.toLocaleString()} turns, ${info.toolEvents.toLocaleString()} tool calls), ${(info.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
