// A run streaming into its log as the harness process does it (never the extension host): the
// opening events, then one event every 20 ms (50 events/s) until SIGTERM or stdin closes. The
// events are a real run's mix, as the big log's (test/helpers/largeLog.ts: model turns, calls with
// approvals and outputs of varied size, gates; ~1 KB each), written by Kite's own EventWriter, so
// what follows the run (the Runs view, the status bar, the Kite view) pays what it pays for a real
// one. Prints the log's path once it exists, and the number of events written when it stops.
//   node streamLog.js DIR RUN_ID      (bundled by scripts/build-tests.mjs for the integration tests)
import { EventWriter } from '../../src/harness/events/writer';
import type { EventBody } from '../../src/harness/protocol/events';
import { largeRunOpening, largeRunTurns } from './largeLog';

const [dir, runId] = process.argv.slice(2);
if (!dir || !runId) {
  console.error('usage: streamLog DIR RUN_ID');
  process.exit(2);
}
const writer = EventWriter.create(dir, runId);
const pending: EventBody[] = largeRunOpening();
const turns = largeRunTurns();
writer.append(pending.shift()!);
let written = 1;
console.log(`log ${writer.path}`);
const timer = setInterval(() => {
  if (!pending.length) pending.push(...turns.next().value!.bodies);
  writer.append(pending.shift()!);
  written++;
}, 20);
const stop = (): void => {
  clearInterval(timer);
  console.log(`written ${written}`);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop).resume();
