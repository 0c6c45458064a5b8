// THE table of `kite` subcommands. Other slices add their command with one line here
// (resume, timeline, cost, diagnose, export, server, debug-adapter).
import { initCommand } from './initCommand';
import { runCommand } from './runCommand';
import { resumeCommand } from './resumeCommand';
import { timelineCommand } from './timelineCommand';
import { costCommand } from './costCommand';
import { cacheAuditCommand } from './cacheAuditCommand';
import { diagnoseCommand } from './diagnoseCommand';
import { exportCommand } from './exportCommand';
import { debugAdapterCommand } from '../replay/debugAdapterCommand';
import { evalCommand } from './evalCommand';
import { checkCommand } from './checkCommand';
import { trustCommand } from './trustCommand';
import { mcpCommand } from './mcpCommand';
import { resetCommand } from './resetCommand';
import { restoreCommand } from './restoreCommand';

export interface Command {
  name: string;
  summary: string; // one line for `kite --help`
  /** argv after the command name. Resolves to the process exit code (0 ok, 1 failed run, 2 usage/config). */
  run(argv: string[]): Promise<number>;
}

export const COMMANDS: Command[] = [runCommand, initCommand, resumeCommand, timelineCommand, costCommand, cacheAuditCommand, diagnoseCommand, exportCommand, debugAdapterCommand, evalCommand, checkCommand, trustCommand, mcpCommand, resetCommand, restoreCommand];
