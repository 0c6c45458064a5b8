// Opens a run log for replay: reads it (tolerating a torn last line and malformed middle lines,
// which are reported), and builds a runtime whose state snapshots come from the one reducer.
import { readLog, runIdOf, type LogProblem } from '../events/reader';
import { applyEvent, cloneRunState, initialRunState, type RunState } from '../protocol/reducer';
import { stat } from 'node:fs/promises';
import { startLazyLog, verifyChain, type LazyLog, type StartLazyLogOptions } from './lazyLog';
import { ReplayRuntime, type RuntimeOptions } from './replayRuntime';
import type { StateFolder } from './stateCursor';

export const runStateFolder: StateFolder<RunState> = {
  initial: () => initialRunState(),
  apply: applyEvent,
  clone: cloneRunState,
};

export class ReplayOpenError extends Error {
  constructor(
    readonly code: 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'ReplayOpenError';
  }
}

export interface OpenedReplay {
  runtime: ReplayRuntime<RunState>;
  problems: LogProblem[];
  format: 'kite' | 'python-kite';
  /** Set when the log is read on demand: check its hash chain later (verifyChain), close it when done. */
  lazy: LazyLog | null;
}

export interface OpenReplayOptions extends Omit<RuntimeOptions<RunState>, 'folder' | 'messagesOf' | 'indexing' | 'expectedEvents'> {
  /** Problems found after open, when an event is first parsed (lazily read logs). */
  onProblem?: (p: LogProblem) => void;
  /**
   * Return once the first chunk is indexed and index the rest in the background (the debugger:
   * it stops on entry at once). Lines skipped further on are reported to onScanProblem when the
   * scan reaches them. Without it, openReplay returns once the whole log is indexed.
   */
  incremental?: Pick<StartLazyLogOptions, 'onScanProblem' | 'chunkBytes' | 'pace'>;
}

/** Checks the hash chain of a lazily read log in the background (nothing to do for one read whole). */
export async function verifyLater(opened: OpenedReplay, onProblem: (p: LogProblem) => void, cancelled: () => boolean, busy?: () => boolean): Promise<void> {
  if (opened.lazy) await verifyChain(opened.lazy, onProblem, cancelled, busy);
}

/** Throws LogReadError (not_found, unsupported_version, not_a_log) or ReplayOpenError. */
export async function openReplay(path: string, opts: OpenReplayOptions = {}): Promise<OpenedReplay> {
  const { onProblem, incremental, ...runtimeOpts } = opts;
  const runtime = (source: ConstructorParameters<typeof ReplayRuntime<RunState>>[0], more: Pick<RuntimeOptions<RunState>, 'indexing' | 'expectedEvents'> = {}) =>
    new ReplayRuntime<RunState>(source, {
      name: runIdOf(path),
      ...runtimeOpts,
      ...more,
      folder: runStateFolder,
      messagesOf: (s) => (s.conversation ? s.conversation.messages() : null),
    });
  // A Kite log is indexed from a line scan and its events parsed when looked at (issue 17).
  let rt: ReplayRuntime<RunState> | null = null;
  const lazy = await startLazyLog(path, { onProblem, ...incremental, onAdvance: () => rt?.indexAdvanced() });
  if (lazy) {
    const { indexing, log } = lazy;
    try {
      if (!incremental) await indexing.until(() => false);
    } catch (e) {
      log.close();
      throw e;
    }
    const problems = incremental ? lazy.problems : indexing.problems;
    if (log.length === 0) {
      log.close();
      throw empty(path, problems);
    }
    rt = runtime(lazy.index, { indexing, expectedEvents: indexing.complete ? log.length : await expectedEvents(path, indexing) });
    return { runtime: rt, problems, format: 'kite', lazy: log };
  }
  // Python Kite logs are normalized line by line in order (protocol/parse.ts): read whole. A
  // debugger looks and acts on nothing: the structural check is enough.
  const { events, problems, format } = await readLog(path, { validation: 'structural' });
  if (events.length === 0) throw empty(path, problems);
  return { runtime: runtime(events), problems, format, lazy: null };
}

/** Events a log being indexed will have, judged by the bytes per event so far (sets the snapshot density). */
async function expectedEvents(path: string, indexing: { count: number; starts: { view: Float64Array }; lengths: { view: Float64Array } }): Promise<number> {
  const n = indexing.count;
  const seen = indexing.starts.view[n - 1] + indexing.lengths.view[n - 1] + 1;
  const size = (await stat(path)).size;
  return Math.max(n, Math.round((n * size) / seen));
}

function empty(path: string, problems: LogProblem[]): ReplayOpenError {
  const why = problems.length ? ` (${problems.length} unreadable line${problems.length > 1 ? 's' : ''}: ${problems[0].message})` : '';
  return new ReplayOpenError('empty', `${path} contains no events${why}`);
}
