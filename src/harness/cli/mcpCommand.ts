// `kite mcp list [DIR]` — the workspace's MCP servers: where each is declared, its command line,
// and whether it is approved on this machine (or changed since). Approve with `kite trust [DIR]`.
import { resolve } from 'node:path';
import { listMcpServers } from '../mcp/mcpServerList';
import { APPROVAL_TEXT } from '../mcp/mcpTrust';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';

const FLAGS: FlagSpec[] = [{ name: 'json', type: 'bool', help: 'print the list as JSON' }];
const USAGE = `usage: kite mcp list [DIR] [--json]\n\nLists the MCP servers of the workspace in DIR (default: the current folder), from .kite/config.json\n(mcp.servers), .vscode/mcp.json and .mcp.json, and whether each is approved on this machine.\nApprove them with: kite trust [DIR]\n\n${formatFlags(FLAGS)}`;

export async function mcpMain(argv: string[], out: Out = stdio, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const [sub, ...rest] = argv;
    if (sub === '--help' || sub === '-h' || sub === undefined) {
      out.out(USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub !== 'list') throw new UsageError(`unknown subcommand "${sub}" (kite mcp has: list)`);
    const args = parseArgs(rest, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const root = resolve(args.positionals[0] ?? '.');
    // The list the Kite view shows (without starting any server for its tools).
    const { servers, shadowed } = await listMcpServers(root, { tools: false, env });
    const rows = servers.map((s) => ({ server: s.name, source: s.source, command: s.command, state: s.state }));
    if (args.flags.json) {
      out.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    if (!rows.length) {
      out.out(`${root} declares no MCP servers (.kite/config.json mcp.servers, .vscode/mcp.json, .mcp.json).`);
      return 0;
    }
    const w = Math.max(6, ...rows.map((r) => r.server.length));
    out.out(`${'SERVER'.padEnd(w)}  STATE${' '.repeat(33)}COMMAND`);
    for (const r of rows) out.out(`${r.server.padEnd(w)}  ${APPROVAL_TEXT[r.state].padEnd(38)}${r.command}  (${r.source})`);
    for (const s of shadowed) out.err(`kite: warning: ${s}`);
    if (rows.some((r) => r.state !== 'approved')) out.out(`\nServers that are not approved are not started. Review and approve them with: kite trust ${root}`);
    return 0;
  } catch (e) {
    return reportFailure(e, out, USAGE);
  }
}
