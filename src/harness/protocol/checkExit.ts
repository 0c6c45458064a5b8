// How a gate check ended, in a few words, for every surface that shows one (the CLI timeline, the
// webview's rows and details, the gate output document). Exit 127 is the shell's "command not
// found": saying so spares the person a trip to the log when a check names a missing binary.

export function checkExitText(c: { exit_code: number | null; timed_out: boolean }): string {
  if (c.timed_out) return 'timed out';
  if (c.exit_code === null) return 'killed';
  return c.exit_code === 127 ? 'exit 127: command not found' : `exit ${c.exit_code}`;
}
