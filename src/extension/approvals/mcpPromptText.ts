// What the approval prompt of an MCP tool call says, apart from the prompt (no 'vscode': unit-
// tested): the tool and its server as a person reads them, the arguments exactly as validated
// against the tool's schema, and the policy rule that asked. Escaped so a control character in an
// argument cannot hide what is sent.
import { showControlChars } from '../../harness/protocol/controlChars';
import type { McpApprovalInfo } from '../../harness/host';

const ARGS_SHOWN = 600;

export function mcpPromptText(m: McpApprovalInfo): { title: string; placeHolder: string; args: string } {
  const one = (s: string) => showControlChars(s, { oneLine: true });
  const args = JSON.stringify(m.args);
  const shown = args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}… (${args.length} characters; full arguments beside)` : args;
  return {
    title: `Kite: Tool \`${one(m.tool)}\` from MCP server \`${one(m.server)}\` — allow this call?`,
    placeHolder: `Arguments: ${one(shown)} · policy rule ${one(m.rule)}: ${one(m.reason)}`,
    args: JSON.stringify(m.args, null, 2),
  };
}
