// A tiny host process for the attended crash test: runs or resumes a run in attended mode with a
// person who approves everything, except that they edit the new test file before approving it.
//   node attendedDriver.js run <repo> <script.json>   |   node attendedDriver.js resume <log>
// Built with esbuild by the test (no tsx in the child); exit 0 when the run ends done.
import type { ApprovalAnswer, ApprovalRequest, Host } from '../../src/harness/host';
import { resumeRun } from '../../src/harness/resume';
import { runFeature, type RunSummary } from '../../src/harness/run';
import { REVIEW_NOTE } from './reviewNote';


const person: Host = {
  approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    if (req.kind === 'write' && req.path === 'test/fees.test.js') return Promise.resolve({ decision: 'edit', content: req.proposed + REVIEW_NOTE });
    return Promise.resolve({ decision: 'approve' });
  },
};

async function main(): Promise<number> {
  const [cmd, a, b] = process.argv.slice(2);
  let s: RunSummary;
  if (cmd === 'run') s = await runFeature({ root: a, mode: 'attended', model: `script:${b}` }, person);
  else if (cmd === 'resume') s = await resumeRun({ log: a }, person);
  else throw new Error(`usage: run <repo> <script> | resume <log>`);
  process.stdout.write(JSON.stringify(s) + '\n');
  return s.outcome === 'done' ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 3;
  },
);
