// A file's content at a point of the run: its content before the run (the starting commit, checked
// against the hash the log recorded), then its writes replayed in order with the tools' own edit
// rule, each checked against its recorded post_hash. A restore in the log stands for the content
// at its to_seq. Null text means the file did not exist. Anything that cannot be rebuilt exactly
// is "unknown" with the reason: a restore never writes a guess.
import { lstatSync } from 'node:fs';
import { readGuarded } from '../tools/openGuarded';
import { applyEdit, type EditArgs } from '../tools/editText';
import { sha256 } from '../tools/hash';
import { runGit } from '../progress/runGit';
import type { FileTimeline, Touch } from './fileTimeline';

export type Content = { known: true; text: string | null } | { known: false; reason: string };

const known = (text: string | null): Content => ({ known: true, text });
const unknown = (reason: string): Content => ({ known: false, reason });
const hashOf = (text: string | null): string | null => (text === null ? null : sha256(text));

/** The file now: its text, null when absent, or why Kite will not read it (a link, a special file). */
export function currentContent(f: FileTimeline): Content {
  try {
    lstatSync(f.abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return known(null);
    return unknown(`"${f.rel}" could not be examined (${code ?? 'error'})`);
  }
  const g = readGuarded(f.abs, f.rel, Number.MAX_SAFE_INTEGER);
  return g.ok ? known(g.buf.toString('utf8')) : unknown(g.message);
}

/** The blob at `commit:rel`, or null when the commit has no such file. Raw bytes: no filter runs. */
function atCommit(root: string, commit: string, rel: string): string | null {
  try {
    return runGit(root, ['cat-file', 'blob', `${commit}:${rel}`]);
  } catch {
    return null;
  }
}

export class FileStates {
  private readonly bases = new Map<string, Content>();

  constructor(
    private readonly root: string,
    private readonly startCommit: string | null,
  ) {}

  /** The content right after event `seq` (inclusive). */
  at(f: FileTimeline, seq: number, now: Content): Content {
    const touches = f.touches.filter((t) => t.seq <= seq);
    let lastRestore = -1;
    for (let i = 0; i < touches.length; i++) if (touches[i].kind === 'restore') lastRestore = i;
    let content: Content;
    let from: Touch[];
    if (lastRestore >= 0) {
      const r = touches[lastRestore] as Extract<Touch, { kind: 'restore' }>;
      content = this.at(f, r.toSeq, now);
      if (content.known && hashOf(content.text) !== r.after) return unknown(`the restore at event ${r.seq} recorded another content for "${f.rel}" than the log rebuilds`);
      from = touches.slice(lastRestore + 1);
    } else {
      content = this.before(f, now);
      from = touches;
    }
    // An unknown content stays unknown through edits; a later whole write makes it known again.
    for (const t of from) if (t.kind === 'write') content = applyWrite(f.rel, content, t);
    return content;
  }

  /** What the run's last event for the file left there (what "changed since the run" compares to). */
  lastHash(f: FileTimeline, now: Content): string | null | undefined {
    const last = f.touches.at(-1);
    if (last?.kind === 'restore') return last.after;
    if (last?.postHash !== undefined && last.postHash !== null) return last.postHash;
    const c = this.at(f, Number.MAX_SAFE_INTEGER, now);
    return c.known ? hashOf(c.text) : undefined;
  }

  /** The file before the run. */
  before(f: FileTimeline, now: Content): Content {
    const cached = this.bases.get(f.rel);
    if (cached) return cached;
    const c = this.computeBefore(f, now);
    this.bases.set(f.rel, c);
    return c;
  }

  private computeBefore(f: FileTimeline, now: Content): Content {
    const first = f.touches.find((t) => t.kind === 'write');
    const preHash = first?.kind === 'write' ? first.preHash : undefined;
    if (preHash === null) return known(null); // the run created it
    const blob = this.startCommit ? atCommit(this.root, this.startCommit, f.rel) : null;
    if (blob !== null && (preHash === undefined || sha256(blob) === preHash)) return known(blob);
    // Untracked (or changed) before the run and untouched since: the file itself still holds it.
    if (preHash !== undefined && now.known && now.text !== null && sha256(now.text) === preHash) return known(now.text);
    if (preHash === undefined) return unknown(`the log does not record whether "${f.rel}" existed before the run${this.startCommit ? ' and the starting commit does not have it' : ''}`);
    return unknown(`the content of "${f.rel}" before the run is not in the log, and ${this.startCommit ? `the starting commit ${this.startCommit.slice(0, 8)} holds another version` : 'the run had no starting commit'}`);
  }
}

function applyWrite(rel: string, prev: Content, t: Extract<Touch, { kind: 'write' }>): Content {
  const args = (t.args ?? {}) as Record<string, unknown>;
  let next: Content;
  if (typeof args.content === 'string') next = known(args.content);
  else if (typeof args.old_string === 'string' && typeof args.new_string === 'string') {
    if (!prev.known) return prev;
    if (prev.text === null) return unknown(`the edit of "${rel}" at event ${t.seq} applies to a file that did not exist`);
    const r = applyEdit(prev.text, args as unknown as EditArgs, rel);
    if (!r.ok) return unknown(`the edit of "${rel}" at event ${t.seq} does not apply to the rebuilt content (${r.message})`);
    next = known(r.content);
  } else return unknown(`the ${t.name} arguments at event ${t.seq} carry neither content nor old_string/new_string`);
  if (t.postHash && hashOf(next.known ? next.text : null) !== t.postHash) return unknown(`the rebuilt content of "${rel}" after event ${t.seq} does not match the hash the log recorded`);
  return next;
}
