// How a run that had already decided its outcome (gate passed, attempts used up, budget stopped)
// ends when the process died before writing it down.
import { describeStop } from '../budget/budget';
import { gitHead } from '../progress/git';
import type { Outcome } from '../protocol/events';
import type { RunState } from '../protocol/reducer';

export interface Closing {
  outcome: Outcome;
  summary: string;
  commit: string | null; // only known when the closing progress update is already in the log
}

export function closingOf(s: RunState, root: string): Closing {
  const last = s.gates.at(-1);
  const finished = s.progressCount >= 2; // the closing progress update (and commit) happened
  if (last?.passed) {
    const head = finished ? gitHead(root) : null;
    return { outcome: 'done', summary: s.lastText || 'done (no closing summary)', commit: head !== null && head !== s.meta?.git_head ? head : null };
  }
  if (s.budgetStop) return { outcome: 'budget_exceeded', summary: describeStop(s.budgetStop), commit: null };
  if (last && !last.passed) return { outcome: 'gate_failed', summary: `the gate failed ${s.gateFailures} times`, commit: null };
  return { outcome: 'error', summary: 'the run stopped before its outcome was recorded', commit: null };
}
