// What the Call Stack and Variables views show at the current stop: frames (a write's file, the
// event, its turn, the session) and each frame's scopes. Owned by the debug session; plain
// functions of the runtime, so the session itself stays a thin protocol layer.
import { Scope, StackFrame, type Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { RunState } from '../protocol/reducer';
import { summarize } from './eventSummary';
import { editLine, fileContentAt, filesTouchedAt } from './fileContents';
import type { ReplayRuntime } from './replayRuntime';
import { runStateView } from './runStateView';
import { divergenceView, gateView, groupTurn, progressView, replyView, toolView, totalsView } from './scope';
import type { VariableStore } from './variableStore';

export const FRAME_FILE = 1;
export const FRAME_EVENT = 2;
export const FRAME_TURN = 3;
export const FRAME_SESSION = 4;

export interface InspectorContext {
  /** Where whole-transcript line `line` is shown: its document (a window of a huge log's) and client line. */
  transcriptAt(line: number): { source: DebugProtocol.Source; line: number };
  /** Where the content of `path` at the write event `seq` is served (writeSnapshot.ts). */
  writeSource(path: string, seq: number): Source;
  lineToClient(line: number): number;
}

/** Marker value for the "files" containers: children are lazy variables, one per file. */
class LazyFiles {
  constructor(
    readonly at: number,
    readonly paths: string[],
  ) {}
}

export class Inspector {
  constructor(
    private readonly vars: VariableStore,
    private readonly ctx: InspectorContext,
  ) {}

  stackFrames(rt: ReplayRuntime<RunState>): DebugProtocol.StackFrame[] {
    const i = rt.position;
    const e = rt.events.at(i);
    const line = (l: number) => this.ctx.lineToClient(l);
    const frames: DebugProtocol.StackFrame[] = [];
    const writePath = rt.index.writePathAt(i);
    if (writePath) {
      const call = rt.index.callAt(i);
      const after = call && call.tool >= 0 ? call.tool : i;
      const content = fileContentAt(rt.index, writePath, after);
      const args = call && call.intent >= 0 ? (rt.events.at(call.intent) as { args: unknown }).args : 'args' in e ? e.args : undefined;
      // The file as this write left it (a read-only document), never the live workspace file.
      frames.push(new StackFrame(FRAME_FILE, `write ${writePath}`, this.ctx.writeSource(writePath, e.seq), line(editLine(content.known ? content.content : null, args)), 1));
    }
    const frame = (id: number, name: string, transcriptLine: number) => {
      const at = this.ctx.transcriptAt(transcriptLine);
      return new StackFrame(id, name, at.source as Source, at.line, 1);
    };
    frames.push(frame(FRAME_EVENT, `#${e.seq} ${e.kind}  ${summarize(e)}`.slice(0, 140), rt.transcript.lineOfEvent[i]));
    const g = rt.transcript.groups[rt.index.groupOfEvent[i]];
    const turn = groupTurn(rt.index, i);
    frames.push(frame(FRAME_TURN, turn ? `Turn ${turn}` : 'Start (before the first turn)', g.headerLine));
    const start = rt.index.sessionStart;
    frames.push(frame(FRAME_SESSION, `Run ${e.run}${start ? ` · ${start.feature} "${start.title}"` : ''}`, 1));
    return frames;
  }

  /** Scopes of a frame, or null for an unknown frame id. */
  scopes(rt: ReplayRuntime<RunState>, frameId: number): DebugProtocol.Scope[] | null {
    const i = rt.position;
    const scopes: DebugProtocol.Scope[] = [];
    const add = (name: string, root: string | null, value: unknown) => {
      if (value === null || value === undefined) return;
      scopes.push(new Scope(name, this.vars.ref(value, root ? { root, steps: [] } : null), false));
    };
    const lazy = (name: string, root: string | null, compute: () => unknown) => {
      scopes.push(new Scope(name, this.vars.deferredRef(compute, root ? { root, steps: [] } : null), true));
    };
    const files = (name: string, paths: string[], expensive: boolean) => {
      scopes.push(new Scope(name, this.vars.ref(new LazyFiles(i, paths), { root: 'files', steps: [] }), expensive));
    };
    const turn = groupTurn(rt.index, i);
    const turnName = turn ? `Turn ${turn}` : 'Turn (none yet)';
    switch (frameId) {
      case FRAME_FILE: {
        const p = rt.index.writePathAt(i);
        if (p) files(`File ${p}`, [p], false);
        add('Tool call', 'tool', toolView(rt.index, i));
        break;
      }
      case FRAME_EVENT:
        add(`Event #${rt.events.at(i).seq} ${rt.events.at(i).kind}`, 'event', rt.events.at(i));
        add('Divergence: recorded vs live', 'divergence', divergenceView(rt.events.at(i), rt.recorded));
        add('Tool call', 'tool', toolView(rt.index, i));
        add(turnName, 'reply', replyView(rt.index, i));
        add('Gate', 'gate', gateView(rt.index, i));
        add('Progress', 'progress', progressView(rt.index, i));
        add('Totals', 'totals', totalsView(rt.index, i));
        files('Files touched', filesTouchedAt(rt.index, i), true);
        lazy('Messages sent this turn', 'messages', () => rt.messagesFor(i) ?? []);
        lazy('Run state (reducer)', null, () => runStateView(rt.stateAfter(i)));
        break;
      case FRAME_TURN:
        add(turnName, 'reply', replyView(rt.index, i));
        lazy('Messages sent this turn', 'messages', () => rt.messagesFor(i) ?? []);
        add('Totals', 'totals', totalsView(rt.index, i));
        break;
      case FRAME_SESSION:
        add('Session', 'session', rt.index.sessionStart);
        add('Progress', 'progress', progressView(rt.index, i));
        add('Totals', 'totals', totalsView(rt.index, i));
        break;
      default:
        return null;
    }
    return scopes;
  }

  variables(rt: ReplayRuntime<RunState>, args: DebugProtocol.VariablesArguments): DebugProtocol.Variable[] {
    const holder = this.vars.peek(args.variablesReference);
    if (holder instanceof LazyFiles) {
      return holder.paths.map((p) => {
        const writes = rt.index.writesByPath.get(p)?.filter((w) => w.index <= holder.at).length ?? 0;
        return this.vars.lazyVariable(
          p,
          () => {
            const c = fileContentAt(rt.index, p, holder.at);
            return c.known ? c.content : `<unknown: ${c.reason}>`;
          },
          { root: 'files', steps: [p] },
          `(${writes} write${writes === 1 ? '' : 's'} so far: expand to load)`,
        );
      });
    }
    return this.vars.children(args.variablesReference, args);
  }
}
