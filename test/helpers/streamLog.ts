// A run streaming into its log as the harness process does it (never the extension host): a
// session_start, then one user event every 20 ms (50 events/s) until SIGTERM or stdin closes.
// Prints the log's path once it exists, and the number of events written when it stops.
//   node streamLog.js DIR RUN_ID      (bundled by scripts/build-tests.mjs for the integration tests)
import { EventWriter } from '../../src/harness/events/writer';
import { ev, strip } from './events';

const [dir, runId] = process.argv.slice(2);
if (!dir || !runId) {
  console.error('usage: streamLog DIR RUN_ID');
  process.exit(2);
}
const writer = EventWriter.create(dir, runId);
writer.append(strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })));
let written = 1;
console.log(`log ${writer.path}`);
const timer = setInterval(() => {
  writer.append(strip(ev.user({ text: `streamed event ${written}` })));
  written++;
}, 20);
const stop = (): void => {
  clearInterval(timer);
  console.log(`written ${written}`);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop).resume();
