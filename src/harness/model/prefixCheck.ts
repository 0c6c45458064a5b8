// The prompt cache only pays when the request prefix is byte-stable across turns: the same tools,
// the same system prompt, and a conversation that only grows. This check hashes what is sent and
// says precisely what changed, so a timestamp in the system prompt or a reordered schema shows up
// as a warning in the log instead of as a silently larger bill.
import { createHash } from 'node:crypto';
import type { Message } from '../protocol/content';
import type { ToolSpec } from './model';

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

interface Snapshot {
  tools: Map<string, string>; // name → hash of the serialized definition
  toolOrder: string;
  system: string;
  messages: string[]; // hash per message
}

export class PrefixCheck {
  private last: Snapshot | null = null;

  /** Records this request; returns a message describing how its prefix differs from the last one, or null. */
  check(system: string, tools: ToolSpec[], messages: Message[]): string | null {
    const now: Snapshot = {
      tools: new Map(tools.map((t) => [t.name, hash(JSON.stringify(t))])),
      toolOrder: tools.map((t) => t.name).join(','),
      system,
      messages: messages.map((m) => hash(JSON.stringify(m))),
    };
    const prev = this.last;
    this.last = now;
    if (!prev) return null;
    const changes: string[] = [];
    const added = [...now.tools.keys()].filter((n) => !prev.tools.has(n));
    const removed = [...prev.tools.keys()].filter((n) => !now.tools.has(n));
    const changed = [...now.tools.keys()].filter((n) => prev.tools.has(n) && prev.tools.get(n) !== now.tools.get(n));
    if (added.length) changes.push(`tools added: ${added.join(', ')}`);
    if (removed.length) changes.push(`tools removed: ${removed.join(', ')}`);
    if (changed.length) changes.push(`tool definitions changed: ${changed.join(', ')}`);
    if (!added.length && !removed.length && !changed.length && prev.toolOrder !== now.toolOrder) changes.push('tools reordered');
    if (prev.system !== now.system) changes.push(`system prompt changed at character ${firstDifference(prev.system, now.system)}`);
    const rewritten = prev.messages.findIndex((h, i) => i < now.messages.length && now.messages[i] !== h);
    if (rewritten >= 0) changes.push(`conversation history changed at message ${rewritten}`);
    if (!changes.length) return null;
    return `The prompt prefix changed between turns (${changes.join('; ')}): the prompt cache is rebuilt from that point, which costs more. Keep tools, system prompt and history byte-stable.`;
  }
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}
