// Reconstructs a file's content at a point of the run from the log alone: write_file gives the
// whole content, edit_file is re-applied to the previous content. When the run never saw the
// whole file (only edits of a file that existed before), the answer is "unknown", not a guess.
// A recorded post_hash, when present, must match the reconstruction, or the answer is unknown too.
import { createHash } from 'node:crypto';
import type { EventOf } from '../protocol/events';
import type { EventIndex, WriteInfo } from './eventIndex';

export type FileContent = { known: true; content: string; writes: number } | { known: false; reason: string; writes: number };

function field(args: unknown, key: string): unknown {
  return args && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
}

function applyWrite(prev: string | null, w: WriteInfo, args: unknown, toolName: string): { content: string } | { reason: string } {
  const content = field(args, 'content');
  if (typeof content === 'string') return { content };
  const oldS = field(args, 'old_string');
  const newS = field(args, 'new_string');
  if (typeof oldS === 'string' && typeof newS === 'string') {
    if (prev === null) return { reason: `${w.path} existed before the run and was only edited (first edit at event ${w.index}); its earlier content is not in the log` };
    const at = prev.indexOf(oldS);
    if (at < 0) return { reason: `edit at event ${w.index} does not apply to the reconstructed content` };
    const all = field(args, 'replace_all') === true;
    return { content: all ? prev.split(oldS).join(newS) : prev.slice(0, at) + newS + prev.slice(at + oldS.length) };
  }
  return { reason: `${toolName} arguments at event ${w.index} carry neither content nor old_string/new_string` };
}

/** The call's final args: the intent's (after a person's edit), else the tool event's. */
function argsOf(index: EventIndex, w: WriteInfo, tool: EventOf<'tool'>): unknown {
  if (w.argsAt === w.index) return tool.args;
  return (index.events.at(w.argsAt) as EventOf<'intent'>).args ?? tool.args;
}

/**
 * Content of `path` after event `i` (inclusive). A whole write does not depend on what came before
 * it, so the replay starts at the last one at or before `i` and applies only the edits after it:
 * deep in a long run that is a few events parsed, not every write of the file since the start.
 */
export function fileContentAt(index: EventIndex, path: string, i: number): FileContent {
  const writes = (index.writesByPath.get(path) ?? []).filter((w) => w.index <= i);
  if (!writes.length) return { known: false, reason: `${path} was not written by the run before this point`, writes: 0 };
  // The writes to replay, newest first, back to the last whole write (or the first write).
  const chain: { w: WriteInfo; tool: EventOf<'tool'>; args: unknown }[] = [];
  for (let k = writes.length - 1; k >= 0; k--) {
    const tool = index.events.at(writes[k].index) as EventOf<'tool'>;
    const args = argsOf(index, writes[k], tool);
    chain.push({ w: writes[k], tool, args });
    if (typeof field(args, 'content') === 'string') break;
  }
  let content: string | null = null;
  let reason = '';
  for (const { w, tool, args } of chain.reverse()) {
    const r = applyWrite(content, w, args, tool.name);
    if ('reason' in r) {
      content = null;
      reason = r.reason;
      continue;
    }
    if (tool.post_hash && createHash('sha256').update(r.content).digest('hex') !== tool.post_hash) {
      content = null;
      reason = `reconstruction after event ${w.index} does not match the recorded post_hash`;
      continue;
    }
    content = r.content;
  }
  return content === null ? { known: false, reason, writes: writes.length } : { known: true, content, writes: writes.length };
}

/** Files written up to and including event i, in order of first write. */
export function filesTouchedAt(index: EventIndex, i: number): string[] {
  const out: { path: string; first: number }[] = [];
  for (const [path, ws] of index.writesByPath) if (ws[0].index <= i) out.push({ path, first: ws[0].index });
  return out.sort((a, b) => a.first - b.first).map((x) => x.path);
}

/** 1-based line of the first line an edit changed, in the content after it (1 for whole writes). */
export function editLine(content: string | null, args: unknown): number {
  const newS = field(args, 'new_string');
  const oldS = field(args, 'old_string');
  if (content === null || typeof newS !== 'string' || !newS) return 1;
  const at = content.indexOf(newS);
  if (at < 0) return 1;
  // Skip the unchanged start of the replaced text (models repeat context lines in old/new).
  let same = 0;
  if (typeof oldS === 'string') while (same < oldS.length && same < newS.length && oldS[same] === newS[same]) same++;
  const head = newS.slice(0, same);
  const lineStart = head.lastIndexOf('\n') + 1; // only whole unchanged lines count
  return content.slice(0, at + lineStart).split('\n').length;
}
