// Everything the loop carries from one turn to the next, in one small type. A fresh run starts
// from initialLoopState(); resume rebuilds it from the log (the reducer) and hands it back to
// runLoop together with a model positioned at its next reply.
import { Conversation } from '../protocol/conversation';

export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
}

export interface LoopState {
  conversation: Conversation;
  turns: number; // model replies received
  usage: UsageTotals;
  gateFailures: number; // failed gate attempts so far
  repeats: Map<string, number>; // repetition key (tool + args) -> times proposed
  lastText: string; // text of the latest assistant reply (closing summary when done)
  elapsedBeforeS: number; // wall seconds spent before this process took over (resume)
}

export function emptyUsage(): UsageTotals {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0 };
}

export function initialLoopState(): LoopState {
  return { conversation: new Conversation(), turns: 0, usage: emptyUsage(), gateFailures: 0, repeats: new Map(), lastText: '', elapsedBeforeS: 0 };
}

export function totalTokensOf(u: UsageTotals): number {
  return u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
}
