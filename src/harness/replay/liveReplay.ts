// Live mode of the replay debugger: the recorded model replies (and the person's recorded
// approval answers) drive a live run in a scratch worktree at the run's starting commit; the
// first place the live run differs from the recording stops it. The debugger then steps through
// the live run's log, stopped at that divergence. Uses the log slice's replayRun.
import type { KiteEvent } from '../protocol/events';
import type { ApprovalAnswer, Host } from '../host';

export interface LiveReplayResult {
  logPath: string; // the live run's log (…-replay.jsonl next to the recording)
  diverged: boolean;
  message: string | null; // one line for people about the first divergence
  outcome: string;
  recordedOutcome: string | null;
}

export async function runLiveReplay(opts: { log: string; root: string; signal?: AbortSignal; liveMcp?: boolean; onEvent?: (e: KiteEvent) => void }): Promise<LiveReplayResult> {
  // Loaded on demand: the whole harness (loop, tools, gate) comes with it.
  const { replayRun } = await import('./replayRun');
  const host: Host = {
    // replayRun answers recorded approvals itself; anything unrecorded is refused, never asked.
    approve: (): Promise<ApprovalAnswer> => Promise.resolve({ decision: 'deny', reason: 'a live replay in the debugger asks no one' }),
    onEvent: opts.onEvent,
  };
  const s = await replayRun({ log: opts.log, root: opts.root, worktree: true, onDivergence: 'stop', signal: opts.signal, liveMcp: opts.liveMcp === true }, host);
  return { logPath: s.logPath, diverged: s.divergence !== null, message: s.divergence?.message ?? null, outcome: s.outcome, recordedOutcome: s.recordedOutcome };
}
