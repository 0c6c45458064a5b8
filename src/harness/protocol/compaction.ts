// What a `compaction` event puts into the conversation, written once: the reducer's fold (resume,
// replay, the debugger) and the live loop both go through conversation.ts, which calls these.
import type { EventOf } from './events';
import { thousands } from './thousands';

export type CompactionEvent = EventOf<'compaction'>;

/** The text block that replaces the summarized turns (after the briefing, in the first message). */
export function summaryBlockText(s: NonNullable<CompactionEvent['summary']>): string {
  const kept = s.kept.length
    ? `\n\n## Kept word for word from those turns (these still bind you)\n\n${s.kept.map((k) => `---\n${k}`).join('\n')}\n---`
    : '';
  return (
    `[Kite] To fit the model's context window, turns ${s.turns[0]}–${s.turns[1]} of this session were replaced by the summary below. ` +
    'The summary was written by a model and is lossy: details, file contents and command output are gone. ' +
    'Files may have changed since; read a file again before you rely on what it held.\n\n' +
    `## Summary of turns ${s.turns[0]}–${s.turns[1]}\n\n${s.text.trim()}${kept}`
  );
}

/** One line for transcripts and timelines: "stubbed 12 results · summarized turns 1–30 · ~15,000 → ~6,000 tokens". */
export function compactionLine(e: CompactionEvent): string {
  const parts: string[] = [];
  if (e.stubbed.length) parts.push(`stubbed ${e.stubbed.length} old tool result${e.stubbed.length === 1 ? '' : 's'}`);
  if (e.summary) parts.push(`summarized turns ${e.summary.turns[0]}–${e.summary.turns[1]} (${e.summary.kept.length} kept verbatim)`);
  parts.push(`~${thousands(e.tokens_before)} → ~${thousands(e.tokens_after)} tokens of ${thousands(e.window)}`);
  return parts.join(' · ');
}
