// What a DAP request needs indexed before it can be answered exactly (issue 17): the debugger
// stops on entry while a big log is still being indexed, and a request about a position the
// indexer has not reached waits for it instead of answering from part of the log. null: the
// request can be answered now (it looks only at what is already indexed, or at nothing).
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { RunState } from '../protocol/reducer';
import type { ReplayRuntime } from './replayRuntime';
import type { TranscriptWindow } from './transcriptWindow';

export type IndexNeed = (() => boolean) | null;

const WHOLE_LOG: IndexNeed = () => false;

export interface NeedContext {
  /** A client's line in a transcript document (a window or the whole) as a line of the whole transcript (0: none). */
  line(source: DebugProtocol.Source | undefined, clientLine: number): number;
  /** The write event a source reference stands for, if it is one. */
  writeSeq(ref: number | undefined): number | undefined;
  /** The transcript window a `source` request names (null: the whole transcript; undefined: not the transcript). */
  transcriptWindow(args: DebugProtocol.SourceArguments): TranscriptWindow | null | undefined;
}

const sourceOf = (request: DebugProtocol.Request): DebugProtocol.Source | undefined => (request.arguments as { source?: DebugProtocol.Source } | undefined)?.source;

export function indexNeedOf(request: DebugProtocol.Request, rt: ReplayRuntime<RunState>, ctx: NeedContext): IndexNeed {
  const source = sourceOf(request);
  const line = (l: number) => ctx.line(source, l);
  if (rt.indexing.complete) return null;
  const args = (request.arguments ?? {}) as Record<string, unknown>;
  const lineAtLeast = (l: number): IndexNeed => () => rt.transcript.lineCount >= l;
  switch (request.command) {
    // What the views show at the current stop: its call and its turn must be indexed to the end.
    case 'stackTrace':
    case 'scopes':
    case 'variables':
    case 'evaluate':
      return () => rt.settledAt(rt.position);
    case 'stepIn':
      return () => rt.length > rt.position + 1;
    case 'next': {
      const g = rt.index.groupOfEvent[rt.position];
      return () => rt.index.groups.length > g + 1;
    }
    case 'stepOut': {
      const g = rt.index.groupOfEvent[rt.position];
      return () => rt.index.groups.length > g + 2;
    }
    case 'goto': {
      const i = Number(args.targetId) - 1;
      return () => rt.length > i;
    }
    case 'gotoTargets':
      return lineAtLeast(line(Number(args.line)));
    case 'breakpointLocations':
      return lineAtLeast(line(Number(args.endLine ?? args.line)));
    case 'setBreakpoints': {
      const bps = (args.breakpoints as { line: number }[] | undefined) ?? ((args.lines as number[] | undefined) ?? []).map((l) => ({ line: l }));
      if (!bps.length) return null;
      return lineAtLeast(Math.max(...bps.map((b) => line(b.line))));
    }
    case 'setFunctionBreakpoints': {
      // "no <name> call in this run" needs the whole run; a name already seen does not.
      const names = ((args.breakpoints as { name: string }[] | undefined) ?? []).map((b) => b.name.trim());
      if (!names.length) return null;
      return () => {
        const known = new Set(rt.index.calls.map((c) => c.name));
        return names.every((n) => known.has(n));
      };
    }
    case 'source': {
      // A write is rebuilt from the writes before it and its own call (Kite numbers events from
      // 0, so event `seq` is at position seq); the transcript's text needs the whole log (its header counts the events).
      const src = args.source as { sourceReference?: number } | undefined;
      const seq = ctx.writeSeq(src?.sourceReference ?? (args.sourceReference as number | undefined));
      if (seq === undefined) {
        // A window needs its lines and one more (is there a next part?). The first one's run header
        // says how far the index has got, and is re-served once it is complete (a 1M-event log's
        // first window took ~20 s when it waited for the whole log). The whole transcript is the
        // whole log.
        const w = ctx.transcriptWindow(args as unknown as DebugProtocol.SourceArguments);
        return w ? () => rt.transcript.lineCount > w.to : WHOLE_LOG;
      }
      return () => rt.length > seq && rt.events.at(seq).seq === seq && rt.settledAt(seq);
    }
    default:
      return null;
  }
}
