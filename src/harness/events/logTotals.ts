// A run's totals as the fold of its log (the reducer, without the conversation): what the status
// bar starts from when it picks up a resumed run, so it shows what the log says, not only the part
// this process saw.
import { observationTokens } from '../protocol/contextTally';
import { applyEvent, initialRunState } from '../protocol/reducer';
import { streamLog } from './reader';

export interface LogTotals {
  turns: number;
  tokens: number;
  cost_usd: number;
  /** Tokens tool results put into the conversation (the observation budget's count). */
  observation_tokens: number;
}

/** Totals of the events before `beforeSeq` (all of them by default). */
export async function logTotals(path: string, beforeSeq = Number.POSITIVE_INFINITY): Promise<LogTotals> {
  const s = initialRunState({ conversation: false });
  await streamLog(path, (e) => {
    if (e.seq < beforeSeq) applyEvent(s, e);
  });
  return { turns: s.turns, tokens: s.tokens.total, cost_usd: s.cost_usd, observation_tokens: observationTokens(s.context) };
}
