// What the approval prompt of an MCP tool call says, apart from the prompt (no 'vscode': unit-
// tested): the tool and its server as a person reads them, the arguments exactly as validated
// against the tool's schema, and the policy rule that asked. Escaped so a control character in an
// argument cannot hide what is sent.
import * as l10n from '@vscode/l10n';
import { showControlChars } from '../../harness/protocol/controlChars';
import type { McpApprovalInfo } from '../../harness/host';

const ARGS_SHOWN = 600;

export function mcpPromptText(m: McpApprovalInfo): { title: string; placeHolder: string; args: string } {
  const one = (s: string) => showControlChars(s, { oneLine: true });
  const args = JSON.stringify(m.args);
  const shown = args.length > ARGS_SHOWN ? l10n.t('{0}… ({1} characters; full arguments beside)', args.slice(0, ARGS_SHOWN), args.length) : args;
  return {
    title: l10n.t('Kite: Tool `{0}` from MCP server `{1}` — allow this call?', one(m.tool), one(m.server)),
    placeHolder: l10n.t('Arguments: {0} · policy rule {1}: {2}', one(shown), one(m.rule), one(m.reason)),
    args: JSON.stringify(m.args, null, 2),
  };
}
