// Opens a run log for replay: reads it (tolerating a torn last line and malformed middle lines,
// which are reported), and builds a runtime whose state snapshots come from the one reducer.
import { readLog, runIdOf, type LogProblem } from '../events/reader';
import { applyEvent, cloneRunState, initialRunState, type RunState } from '../protocol/reducer';
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
}

/** Throws LogReadError (not_found, unsupported_version, not_a_log) or ReplayOpenError. */
export async function openReplay(path: string, opts: Omit<RuntimeOptions<RunState>, 'folder' | 'messagesOf'> = {}): Promise<OpenedReplay> {
  // A debugger looks and acts on nothing: the structural check (protocol/parse.ts) is enough, and
  // spares launch zod's cold pass over the whole log (issue 17).
  const { events, problems, format } = await readLog(path, { validation: 'structural' });
  if (events.length === 0) {
    const why = problems.length ? ` (${problems.length} unreadable line${problems.length > 1 ? 's' : ''}: ${problems[0].message})` : '';
    throw new ReplayOpenError('empty', `${path} contains no events${why}`);
  }
  const runtime = new ReplayRuntime<RunState>(events, {
    name: runIdOf(path),
    ...opts,
    folder: runStateFolder,
    messagesOf: (s) => (s.conversation ? s.conversation.messages() : null),
  });
  return { runtime, problems, format };
}
