// Fields of a Linux /proc/<pid>[/task/<tid>]/stat file, for the tests that check where Kite's
// background threads run. The command name (field 2) may hold spaces and parentheses, so the
// fields are counted from after its last ')'.
import { readFileSync } from 'node:fs';

/** Field `n` of a stat file, as man 5 proc numbers them (3: state, 6: session, 19: nice, 41: policy). */
export function statField(statFile: string, n: number): string {
  const stat = readFileSync(statFile, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3] ?? '';
}

/** A thread's scheduling policy (0 ordinary, 5 SCHED_IDLE). */
export const policyOf = (statFile: string): number => Number(statField(statFile, 41));
