// `kite trust [DIR] [--yes]` — show the workspace's hook commands, exactly, and approve them on
// this machine. The approval is kept in the person's own Kite state (hooks/trust.ts), keyed to
// a hash of the hook config: a changed hook is asked again, a repository cannot approve itself.
import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { hasHooks, RUN_HOOK_EVENTS } from '../hooks/hookConfig';
import { isTrusted, trustWorkspace } from '../hooks/trust';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import type { Command } from './commands';
import { reportFailure, stdio, type Out } from './output';

const FLAGS: FlagSpec[] = [{ name: 'yes', type: 'bool', help: 'approve without asking (after reading the list this prints)' }];
const USAGE = `usage: kite trust [DIR] [--yes]\n\nShows the hook commands of the workspace in DIR (default: the current folder) and approves them\non this machine. Runs refuse to start while a workspace has hooks that are not approved.\n\n${formatFlags(FLAGS)}`;

export async function trustMain(argv: string[], out: Out = stdio, isTty = Boolean(process.stdin.isTTY)): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const root = resolve(args.positionals[0] ?? '.');
    const { hooks } = loadConfig(root);
    if (!hasHooks(hooks)) {
      out.out(`${root} has no hooks in .kite/config.json (and this Kite runs no MCP servers): nothing to approve.`);
      return 0;
    }
    out.out(`Hooks of ${root} (.kite/config.json). Each runs in the sandbox, from the workspace root:`);
    for (const event of RUN_HOOK_EVENTS) {
      for (const g of hooks[event] ?? []) {
        for (const h of g.hooks) out.out(`  ${event}${g.matcher ? ` [${g.matcher}]` : ''}: ${h.command}${h.timeout ? `  (timeout ${h.timeout} s)` : ''}`);
      }
    }
    if (isTrusted(root, hooks)) {
      out.out('These exact hooks are already approved on this machine.');
      return 0;
    }
    if (!args.flags.yes) {
      if (!isTty) throw new UsageError('not approved: read the commands above, then run again with --yes to approve them');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const answer = await rl.question('Approve these hook commands for this workspace? [y/N] ');
      rl.close();
      if (!/^y(es)?$/i.test(answer.trim())) {
        out.out('Not approved.');
        return 1;
      }
    }
    const file = trustWorkspace(root, hooks);
    out.out(`Approved (recorded in ${file}). A change to the hooks will be asked again.`);
    return 0;
  } catch (e) {
    return reportFailure(e, out, USAGE);
  }
}

export const trustCommand: Command = { name: 'trust', summary: "review and approve a workspace's hook commands on this machine", run: (argv) => trustMain(argv) };
