// The words of the hook trust modal, apart from the modal itself (no 'vscode': unit-tested).
import type { TrustStatusWire } from '../../harness/protocol/rpc';

/** What the modal says: the question and every item, exactly. */
export function trustPromptText(s: Pick<TrustStatusWire, 'root' | 'items'>): { message: string; detail: string } {
  const n = s.items.length;
  const lines = s.items.map((i) => `• ${i.label}: ${i.command}${i.timeout_s ? `  (timeout ${i.timeout_s} s)` : ''}`);
  return {
    message: `Trust the ${n} hook command${n === 1 ? '' : 's'} of this workspace?`,
    detail: [
      `${s.root}/.kite/config.json asks Kite to run ${n === 1 ? 'this command' : 'these commands'} during agent runs (in the sandbox, from the workspace root):`,
      '',
      ...lines,
      '',
      'Your answer is kept on this machine, outside the workspace (as `kite trust` does). A change to the hooks is asked again. Without trust, no run starts here.',
    ].join('\n'),
  };
}
