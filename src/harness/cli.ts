// The `kite` command line (dist/cliMain.js, started by dist/cli.js: cliLauncher.ts). Subcommands live in ONE table, cli/commands.ts.
// The same bundle is the worker of a split `kite timeline` (events/timelineSplit.ts) when started as one.
// Only what every start needs is imported here; a command's code loads when it runs (start-up, issue 17).
import { cliMain } from './cli/main';
import { survivePipeClose } from './cli/output';
import { isTimelineWorker } from './events/timelineWorkerTag';

if (isTimelineWorker()) void import('./events/timelineWorker').then((w) => w.runTimelineWorker());
else {
  survivePipeClose();

  cliMain(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`kite: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
