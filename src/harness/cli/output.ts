// Where the CLI writes (injectable so tests can capture it) and any error as one line. Light on
// purpose: every command and `kite --version` load it (exit codes by error class: cli/reportFailure.ts).
import { terminalSafe } from '../protocol/controlChars';

export interface Out {
  out(text: string): void;
  err(text: string): void;
}

// Control characters that reach here unescaped (model text in a message no view escaped) are shown,
// not obeyed: no OSC clipboard write or `\r`-erase reaches the terminal (issue 13, item 14).
export const stdio: Out = {
  out: (t) => write(process.stdout, t),
  err: (t) => write(process.stderr, t),
};

/** Streams whose reader went away (`kite run | head -1`): further output is dropped, the run goes on. */
const closedStreams = new WeakSet<NodeJS.WriteStream>();

function write(stream: NodeJS.WriteStream, t: string): void {
  if (closedStreams.has(stream)) return;
  stream.write(terminalSafe(t.endsWith('\n') ? t : `${t}\n`));
}

/**
 * A closed stdout or stderr must not stop a run: without a listener the EPIPE of the next write is
 * an uncaught error that kills Kite mid-run (no session_end, commands orphaned). Called once by the
 * `kite` entry point; the run finishes, its log and progress file are written as usual.
 */
export function survivePipeClose(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      closedStreams.add(stream);
      if (e.code !== 'EPIPE' && stream !== process.stderr) process.stderr.write(`kite: cannot write to stdout (${e.code ?? e.message}); the run goes on, its log has everything\n`);
    });
  }
}

/** One line for any error; the stack only with KITE_DEBUG=1. */
export function describeError(e: unknown): string {
  if (process.env.KITE_DEBUG && e instanceof Error && e.stack) return e.stack;
  return e instanceof Error ? e.message : String(e);
}
