// Opens a run log for replay: reads it (tolerating a torn last line and malformed middle lines,
// which are reported), and builds a runtime whose state snapshots come from the one reducer.
import { readLog, runIdOf, type LogProblem } from '../events/reader';
import { applyEvent, cloneRunState, initialRunState, type RunState } from '../protocol/reducer';
import { openLazyLog, verifyChain, type LazyLog } from './lazyLog';
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

export interface OpenReplayOptions extends Omit<RuntimeOptions<RunState>, 'folder' | 'messagesOf'> {
  /** Problems found after open, when an event is first parsed (lazily read logs). */
  onProblem?: (p: LogProblem) => void;
}

/** Checks the hash chain of a lazily read log in the background (nothing to do for one read whole). */
export async function verifyLater(opened: OpenedReplay, onProblem: (p: LogProblem) => void, cancelled: () => boolean, busy?: () => boolean): Promise<void> {
  if (opened.lazy) await verifyChain(opened.lazy, onProblem, cancelled, busy);
}

/** Throws LogReadError (not_found, unsupported_version, not_a_log) or ReplayOpenError. */
export async function openReplay(path: string, opts: OpenReplayOptions = {}): Promise<OpenedReplay> {
  const { onProblem, ...runtimeOpts } = opts;
  const runtime = (source: ConstructorParameters<typeof ReplayRuntime<RunState>>[0]) =>
    new ReplayRuntime<RunState>(source, {
      name: runIdOf(path),
      ...runtimeOpts,
      folder: runStateFolder,
      messagesOf: (s) => (s.conversation ? s.conversation.messages() : null),
    });
  // A Kite log is indexed from a line scan and its events parsed when looked at (issue 17).
  const lazy = await openLazyLog(path, { onProblem });
  if (lazy) {
    if (lazy.log.length === 0) {
      lazy.log.close();
      throw empty(path, lazy.problems);
    }
    return { runtime: runtime(lazy.index), problems: lazy.problems, format: 'kite', lazy: lazy.log };
  }
  // Python Kite logs are normalized line by line in order (protocol/parse.ts): read whole. A
  // debugger looks and acts on nothing: the structural check is enough.
  const { events, problems, format } = await readLog(path, { validation: 'structural' });
  if (events.length === 0) throw empty(path, problems);
  return { runtime: runtime(events), problems, format, lazy: null };
}

function empty(path: string, problems: LogProblem[]): ReplayOpenError {
  const why = problems.length ? ` (${problems.length} unreadable line${problems.length > 1 ? 's' : ''}: ${problems[0].message})` : '';
  return new ReplayOpenError('empty', `${path} contains no events${why}`);
}
