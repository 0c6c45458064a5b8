// The text of a run's transcript document, as the extension shows it (`kite-transcript:`): the
// same lines as the debug adapter's transcript, read the adapter's way (a lazily read log, the
// events parsed when their line is made), built in slices so the extension host's loop is never
// held for long, even on a 1M-event log. Problems go below the text, never shifting line numbers.
import { readLog, runIdOf, type LogProblem } from '../events/reader';
import { openLazyLog, verifyChain } from './lazyLog';
import { buildTranscript, transcriptOf, transcriptTextSliced } from './transcript';

export async function transcriptDocumentText(log: string): Promise<string> {
  let text: string;
  let problems: LogProblem[];
  const later: LogProblem[] = [];
  const lazy = await openLazyLog(log, { onProblem: (p) => later.push(p) });
  if (lazy) {
    try {
      text = await transcriptTextSliced(transcriptOf(lazy.index, runIdOf(log)));
      await verifyChain(lazy.log, (p) => later.push(p));
      problems = [...lazy.problems, ...later].sort((a, b) => a.line - b.line);
    } finally {
      lazy.log.close();
    }
  } else {
    // A Python Kite log is normalized in order: read whole (such logs are small).
    const whole = await readLog(log, { validation: 'structural' });
    text = await transcriptTextSliced(buildTranscript(whole.events, runIdOf(log)));
    problems = whole.problems;
  }
  return problems.length ? `${text}\n${problems.map((p) => `! line ${p.line} of the log skipped: ${p.message}`).join('\n')}\n` : text;
}
