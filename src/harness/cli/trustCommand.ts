// `kite trust [DIR] [--yes]` — show the workspace's hook commands and MCP servers, exactly, and
// approve them on this machine. The approval is kept in the person's own Kite state
// (hooks/trust.ts, mcp/mcpTrust.ts), keyed to a hash of the hook config and of each server's
// command + args + env names: a change is asked again, a repository cannot approve itself.
import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { hasHooks } from '../hooks/hookConfig';
import { hookTrustItems } from '../hooks/trustItems';
import { isTrusted, trustWorkspace } from '../hooks/trust';
import { describeServer, loadMcpServers } from '../mcp/mcpConfig';
import { APPROVAL_TEXT, approvalOf, approveServers } from '../mcp/mcpTrust';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';

const FLAGS: FlagSpec[] = [{ name: 'yes', type: 'bool', help: 'approve without asking (after reading the list this prints)' }];
const USAGE = `usage: kite trust [DIR] [--yes]\n\nShows the hook commands and MCP servers of the workspace in DIR (default: the current folder) and\napproves them on this machine. Runs refuse to start while a workspace has hooks that are not\napproved; an MCP server that is not approved is not started (its tools are not offered).\n\n${formatFlags(FLAGS)}`;

export async function trustMain(argv: string[], out: Out = stdio, isTty = Boolean(process.stdin.isTTY), env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const root = resolve(args.positionals[0] ?? '.');
    const config = loadConfig(root);
    const { hooks } = config;
    const withHooks = hasHooks(hooks);
    const servers = loadMcpServers(root, config.mcp).servers;
    if (!withHooks && !servers.length) {
      out.out(`${root} has no hooks in .kite/config.json and no MCP servers (.kite/config.json, .vscode/mcp.json, .mcp.json): nothing to approve.`);
      return 0;
    }
    const hooksPending = withHooks && !isTrusted(root, hooks, env);
    const serversPending = servers.filter((s) => approvalOf(root, s, env) !== 'approved');
    if (withHooks) {
      out.out(`Hooks of ${root} (.kite/config.json). Each runs in the sandbox, from the workspace root:`);
      for (const h of hookTrustItems(hooks)) out.out(`  ${h.label}: ${h.command}${h.timeout_s ? `  (timeout ${h.timeout_s} s)` : ''}`);
      if (!hooksPending) out.out('These exact hooks are already approved on this machine.');
    }
    if (servers.length) {
      out.out(`MCP servers of ${root}. Each stdio server runs in the sandbox, from the workspace root; its tools become mcp__<server>__<tool>:`);
      for (const s of servers) {
        const state = approvalOf(root, s, env);
        out.out(`  ${s.name} (${s.source}): ${describeServer(s.spec)}  [${APPROVAL_TEXT[state]}]`);
      }
    }
    if (!hooksPending && !serversPending.length) {
      if (servers.length) out.out('Everything listed is already approved on this machine.');
      return 0;
    }
    if (!args.flags.yes) {
      if (!isTty) throw new UsageError('not approved: read the list above, then run again with --yes to approve it');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const answer = await rl.question(`Approve ${[hooksPending ? 'these hook commands' : null, serversPending.length ? 'these MCP servers' : null].filter(Boolean).join(' and ')} for this workspace? [y/N] `);
      rl.close();
      if (!/^y(es)?$/i.test(answer.trim())) {
        out.out('Not approved.');
        return 1;
      }
    }
    let file = '';
    if (hooksPending) file = trustWorkspace(root, hooks, env);
    if (serversPending.length) file = approveServers(root, serversPending, env);
    out.out(`Approved (recorded in ${file}). A change to ${hooksPending && serversPending.length ? 'the hooks or a server' : hooksPending ? 'the hooks' : 'a server'} will be asked again.`);
    return 0;
  } catch (e) {
    return reportFailure(e, out, USAGE);
  }
}
