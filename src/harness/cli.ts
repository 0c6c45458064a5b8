// The `kite` command line (dist/cliMain.js, started by dist/cli.js: cliLauncher.ts). Subcommands live in ONE table, cli/commands.ts.
import { cliMain } from './cli/main';
import { survivePipeClose } from './cli/output';

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
