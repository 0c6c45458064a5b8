// The reducer's folded state at a moment, shaped for the Variables view: what was in flight
// (pending calls and approvals), the phase of the loop, pauses, budget stops and the outcome.
import type { RunState } from '../protocol/reducer';

export function runStateView(s: RunState | null): Record<string, unknown> {
  if (!s) return { note: 'no reducer state available' };
  return {
    phase: s.phase,
    events: s.events,
    mode: s.mode,
    limits: s.limits,
    pending_calls: Object.entries(s.pending).map(([id, stage]) => ({ id, name: s.calls[id]?.name ?? null, stage })),
    pending_approvals: Object.values(s.pendingApprovals).map((a) => ({ id: a.id, name: a.name, path: a.path, command: a.command })),
    last_stop: s.lastStop,
    last_text: s.lastText,
    paused: s.paused,
    resumed: s.resumed,
    budget_stop: s.budgetStop,
    files: s.files,
    warnings: s.warnings,
    divergences: s.divergences.length,
    outcome: s.outcome,
  };
}
