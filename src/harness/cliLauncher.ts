// dist/cli.js, the `kite` command: starts the program bundle (dist/cliMain.js, built from cli.ts)
// from a V8 code cache (cli/codeCache.ts). Tiny on purpose: only node builtins load before it.
import { join } from 'node:path';
import { runWithCodeCache } from './cli/codeCache';

runWithCodeCache(join(__dirname, 'cliMain.js'));
