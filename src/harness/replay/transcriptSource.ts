// Where the transcript of the replayed log lives for the DAP client, and recognizing it in
// requests. In VS Code it is a `kite-transcript:` virtual document (a URI the extension renders);
// for other clients it is served by reference through the `source` request.
//
// A huge log's transcript is split into windows of a fixed number of lines, each its own
// document (issue 17): a 1M-event transcript is over 100 MB, and the client asks for a whole
// document at once — serializing that held the extension host for seconds. A window is a run of
// the whole transcript's lines, so its line n is line `from + n - 1` of the whole: frames,
// breakpoints and gotos translate by an offset, and the transcript itself is unchanged.
import { Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import { windowLabel, windowOfQuery, windowQuery, type TranscriptWindow } from './transcriptWindow';

export type { TranscriptWindow } from './transcriptWindow';

/** The whole transcript's source reference (served in any case); windows are `TRANSCRIPT_REF + 1 + window`. */
export const TRANSCRIPT_REF = 1;
/** Source references from here on are the write documents' (writeSources.ts). */
export const LAST_TRANSCRIPT_REF = 999_999;

export class TranscriptLocator {
  log = '';
  /** Lines per window; 0 while the transcript is one document. Set at launch. */
  windowLines = 0;

  constructor(private readonly uriFor?: (log: string, window: TranscriptWindow | null) => string) {}

  private windowAt(w: number): TranscriptWindow {
    return { from: w * this.windowLines + 1, to: (w + 1) * this.windowLines };
  }

  /** The document and line where line `line` of the whole transcript is shown. */
  at(line: number): { source: Source; line: number } {
    if (!this.windowLines) return { source: this.sourceOf(null), line };
    const w = Math.floor((Math.max(1, line) - 1) / this.windowLines);
    return { source: this.sourceOf(w), line: line - w * this.windowLines };
  }

  private sourceOf(w: number | null): Source {
    const win = w === null ? null : this.windowAt(w);
    const name = `${basename(this.log)}.kite-transcript${win ? ` (${windowLabel(win)})` : ''}`;
    const path = this.uriFor ? this.uriFor(this.log, win) : `${this.log}.kite-transcript${win ? `?${windowQuery(win)}` : ''}`;
    if (this.uriFor) return new Source(name, path);
    return new Source(name, path, w === null ? TRANSCRIPT_REF : TRANSCRIPT_REF + 1 + w, 'kite-transcript');
  }

  /** The window a source reference stands for (null: the whole transcript), or undefined if it is not ours. */
  private windowOfRef(ref: number | undefined): number | null | undefined {
    if (!ref || this.uriFor) return undefined;
    if (ref === TRANSCRIPT_REF) return null;
    if (!this.windowLines || ref > LAST_TRANSCRIPT_REF) return undefined;
    return ref - TRANSCRIPT_REF - 1;
  }

  /**
   * The window a source in a request means (null: the whole transcript), or undefined when it is
   * not this transcript. URIs may arrive encoded or not; a window must be one this session made.
   */
  windowOf(s: DebugProtocol.Source | undefined): number | null | undefined {
    if (!s) return undefined;
    const byRef = this.windowOfRef(s.sourceReference);
    if (byRef !== undefined) return byRef;
    if (!s.path) return undefined;
    // The query is split off before decoding: a `?` in the log's path arrives encoded in a URI.
    const q = /^(.*)\?(lines(?:=|%3D)\d+-\d+)$/i.exec(s.path);
    const path = decoded(q ? q[1] : s.path);
    const query = q ? decoded(q[2]) : '';
    if (strip(path) !== strip(decoded(this.uriFor ? this.uriFor(this.log, null) : `${this.log}.kite-transcript`))) return undefined;
    const win = windowOfQuery(query);
    if (!win) return null;
    if (!this.windowLines || (win.from - 1) % this.windowLines !== 0 || win.to - win.from + 1 !== this.windowLines) return undefined;
    return (win.from - 1) / this.windowLines;
  }

  /** Does a source in a request mean this transcript (the whole, or one of its windows)? */
  matches(s: DebugProtocol.Source | undefined): boolean {
    return this.windowOf(s) !== undefined;
  }

  /** Line `line` of a document of this transcript as a line of the whole; null past the window's end. */
  wholeLine(window: number | null, line: number): number | null {
    if (window === null) return line;
    if (line < 1 || line > this.windowLines) return null;
    return window * this.windowLines + line;
  }

  /** The source reference a `source` request names, as a window (null: whole), or undefined when not the transcript's. */
  windowOfSourceRequest(args: DebugProtocol.SourceArguments): number | null | undefined {
    const byRef = this.windowOfRef(args.sourceReference);
    if (byRef !== undefined) return byRef;
    return this.windowOf(args.source);
  }

  /** Lines [from, to] of window w (for the text of a window). */
  linesOf(w: number): TranscriptWindow {
    return this.windowAt(w);
  }
}

function decoded(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

const strip = (p: string): string => p.replace(/^kite-transcript:(\/\/)?/, '');
