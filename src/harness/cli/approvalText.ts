// What a person is asked to approve, as terminal text: the diff of a write, the command and its
// folder, or the file a read would reveal. One rendering for the TTY prompt, the pause message and
// `kite resume`, so each shows exactly what runs: control characters in commands, paths and
// proposed content are shown escaped (a `\r\x1b[2K` cannot hide the real command).
import { createTwoFilesPatch } from 'diff';
import type { ApprovalRequest, McpApprovalInfo } from '../host';
import type { ScriptChange } from '../protocol/rpc';
import { showControlChars } from '../protocol/controlChars';

const color = (code: number) => (s: string) => (process.stderr.isTTY && !process.env.NO_COLOR ? `\x1b[${code}m${s}\x1b[0m` : s);
export const red = color(31);
const green = color(32);
const cyan = color(36);
export const bold = color(1);
const yellow = color(33);

export function colorDiff(patch: string): string {
  return patch
    .split('\n')
    .filter((l) => !/^(=+|Index: .*)$/.test(l)) // createTwoFilesPatch's banner says nothing
    .map((l) => (l.startsWith('+') && !l.startsWith('+++') ? green(l) : l.startsWith('-') && !l.startsWith('---') ? red(l) : l.startsWith('@@') ? cyan(l) : l))
    .join('\n');
}

/** Lines of a diff shown before the rest is summarized (a 2,000-line new file would scroll the question away). */
export const MAX_DIFF_LINES = 150;

export function clipPatch(patch: string, max = MAX_DIFF_LINES): string {
  const lines = patch.replace(/\n$/, '').split('\n');
  if (lines.length <= max) return lines.join('\n');
  return `${lines.slice(0, max).join('\n')}\n… ${lines.length - max} more diff lines not shown ([e]dit opens the whole proposal in $EDITOR)`;
}

/** A path or folder on one line, escapes visible. */
const shown = (s: string) => showControlChars(s, { oneLine: true });

/** The body of the question (without the answer choices). */
export function requestText(req: ApprovalRequest): string {
  if (req.kind === 'write') {
    const patch = createTwoFilesPatch(`a/${req.path}`, `b/${req.path}`, req.before ?? '', req.proposed, req.before === null ? '(new file)' : '', '');
    // Escaped before coloring: the diff's own colors are the only escapes that reach the terminal.
    return `${bold(`The agent wants to ${req.before === null ? 'create' : 'change'} ${shown(req.path)}:`)}\n${colorDiff(showControlChars(clipPatch(patch)))}`;
  }
  if (req.kind === 'read') {
    return `${bold(`The agent wants to read ${shown(req.path)}`)} (${shown(req.tool)}):\n  ${showControlChars(req.reason)}\n  If you approve, its content is sent to the model.`;
  }
  if (req.mcp) return mcpCallText(req.mcp);
  const command = showControlChars(req.command);
  const hidden = command !== req.command ? `\n  ${yellow('! the command holds control characters, shown escaped above: what runs is exactly that text')}` : '';
  return `${bold('The agent wants to run:')}\n  $ ${command}\n  in ${shown(req.cwd)}${hidden}${scriptChangesText(req.scriptChanges ?? [])}`;
}

/** Scripts the command runs that this run changed, each with its diff (`npm run lint` after the lint script was rewritten). */
function scriptChangesText(changes: readonly ScriptChange[]): string {
  return changes
    .map((c) => {
      const what = c.script === null ? shown(c.file) : `${shown(c.file)} script "${shown(c.script)}"`;
      return `\n  ${yellow(`! it runs ${what}, which this run changed since it started:`)}\n${colorDiff(showControlChars(clipPatch(c.diff)))}`;
    })
    .join('');
}

/** Characters of an MCP call's arguments shown in the question (the rest is counted, not dropped silently). */
export const MCP_ARGS_SHOWN = 600;

/** An MCP tool call as a person reads it: the tool, its server, the arguments and the rule that asked. */
function mcpCallText(m: McpApprovalInfo): string {
  const args = JSON.stringify(m.args);
  const clipped = args.length > MCP_ARGS_SHOWN ? `${args.slice(0, MCP_ARGS_SHOWN)}… (${args.length} characters)` : args;
  return `${bold(`The agent wants to call tool ${shown(m.tool)} of MCP server ${shown(m.server)}`)} with:\n  ${showControlChars(clipped, { oneLine: true })}\n  policy rule ${shown(m.rule)}: ${shown(m.reason)}`;
}
