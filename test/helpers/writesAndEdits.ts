// A run that writes and edits one file, a.py, many times: an edit of the file as it was before the
// run (x = 0 → y = 0), a whole write, three edits, a second whole write, two edits (one replace_all).
// For the tests of rebuilding a file's content at a point of the run (issue 17: from the last whole
// write on), with the content the file really had after each write.
import type { KiteEvent } from '../../src/harness/protocol/events';
import { RunBuilder, type CallSpec } from './events';

export const A_BEFORE_RUN = 'x = 0\n';

export interface WritesAndEdits {
  events: KiteEvent[];
  /** Content of a.py after each write's tool event (by event index). */
  after: Map<number, string>;
  /** Event indexes of the tool events of the two whole writes. */
  wholeWrites: number[];
}

export function writesAndEdits(): WritesAndEdits {
  const b = new RunBuilder('writes-edits').start();
  const steps: CallSpec[] = [];
  const call = (name: string, args: Record<string, unknown>, before: string, after: string) => {
    steps.push({ id: `toolu_${steps.length + 1}`, name, args: { path: 'a.py', ...args }, before, after });
    return after;
  };
  let text = call('edit_file', { old_string: 'x', new_string: 'y' }, A_BEFORE_RUN, 'y = 0\n');
  text = call('write_file', { content: 'v = 1\n' }, text, 'v = 1\n');
  for (let k = 2; k <= 4; k++) text = call('edit_file', { old_string: `v = ${k - 1}`, new_string: `v = ${k}` }, text, text.replace(`v = ${k - 1}`, `v = ${k}`));
  text = call('write_file', { content: 'w = 10\nw = 10\n' }, text, 'w = 10\nw = 10\n');
  text = call('edit_file', { old_string: 'w = 10', new_string: 'w = 11', replace_all: true }, text, 'w = 11\nw = 11\n');
  call('edit_file', { old_string: 'w = 11\nw = 11\n', new_string: 'w = 12\nw = 11\n' }, text, 'w = 12\nw = 11\n');
  for (const s of steps) b.turnWithCalls(`Change a.py (${s.id}).`, [s]);
  const events = b.end().events();
  const after = new Map<number, string>();
  const wholeWrites: number[] = [];
  let k = 0;
  events.forEach((e, i) => {
    if (e.kind !== 'tool') return;
    const s = steps[k++];
    after.set(i, s.after ?? '');
    if (typeof s.args.content === 'string') wholeWrites.push(i);
  });
  return { events, after, wholeWrites };
}
