// The page's trust boundary for what the extension posts (ARCHITECTURE.md §5.10: every incoming
// message validated). A history batch carries up to 1,000 events: they go through the structural
// check generated from EventSchema (JSON types and keys, as the extension's own reader checks a
// big log), and the rest of the message through zod. zod, which cannot compile its checks under
// the page's CSP, spent a fifth of the page's time loading a big history (issue 17). An event that
// fails the check sends the whole message through zod, which says exactly what is wrong.
import type { KiteEvent } from '../src/harness/protocol/events';
import { HostMessageSchema, describeIssues, type HostMessage } from '../src/harness/protocol/webviewMessages';
import { isEventShaped } from './generated/isEventShaped.js';

export type ParsedHostMessage = { ok: true; message: HostMessage } | { ok: false; error: string };

export function parseHostMessage(value: unknown): ParsedHostMessage {
  const events = eventsOf(value);
  if (events && events.every(isEventShaped)) {
    // The envelope through the one schema, its events checked above.
    const envelope = HostMessageSchema.safeParse({ ...(value as object), events: [] });
    if (!envelope.success) return { ok: false, error: describeIssues(envelope.error) };
    return { ok: true, message: { ...envelope.data, events: events as KiteEvent[] } as HostMessage };
  }
  const parsed = HostMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: describeIssues(parsed.error) };
}

/** The events of a history batch ('snapshot' or 'append'), or null for any other message. */
function eventsOf(value: unknown): unknown[] | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as { type?: unknown; events?: unknown };
  return (m.type === 'snapshot' || m.type === 'append') && Array.isArray(m.events) ? m.events : null;
}
