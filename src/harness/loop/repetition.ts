// Repetition guard: the 3rd identical call (tool + arguments, counted by the run state's fold —
// protocol/repetition.ts) gets a warning in its result; the 5th ends the run `stuck`.
export const WARN_AT = 3;
export const STUCK_AT = 5;

export function repetitionWarning(name: string, count: number): string {
  return (
    `\n\n[Kite] Warning: this is call number ${count} of ${name} with exactly these arguments. Repeating it will not give a different result. ` +
    `Change your approach (read the error, inspect other files, or try a different fix). The session is stopped as stuck at ${STUCK_AT} identical calls.`
  );
}
