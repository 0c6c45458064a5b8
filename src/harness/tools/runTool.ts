// run: one shell command in the workspace, through the sandboxed process runner.
import { z } from 'zod';
import { defineTool } from './defineTool';
import { cleanTerminalOutput, reduceOutput } from './reduce';
import type { ToolOutcome } from './types';

export const RUN_OUTPUT_CHARS = 20_000; // per stream, what the model sees

export const runTool = defineTool({
  name: 'run',
  effect: 'exec',
  description: [
    'Run a shell command (/bin/sh -c) with the workspace root as the working directory, and get its exit code, stdout and stderr. Each call starts a fresh shell in the workspace root: cd, exports and shell variables do not carry over to the next call (chain with && instead).',
    'Use it for tests, builds, linters and git inspection (git status, git diff, git log). Prefer read_file, list_files and search for looking at files, and write_file/edit_file for changing them.',
    'Limits: the command has a timeout (timeout_s, default and maximum set by the workspace configuration); when it expires the whole process group is killed and you get what was printed so far. There is no standard input: commands that prompt will fail, so pass flags such as --yes. It runs in a sandbox: no network unless the workspace allows it (a server you start yourself on 127.0.0.1 is reachable), a private empty HOME and /tmp, the system read-only, and .git/, .kite/ and kite-progress.json read-only; background processes are killed when the command ends. The environment holds only PATH, locale, TERM, TZ, HOME, TMPDIR, CI and the variables the project passes; no keys or credentials. Long output is cut in the middle with a marker saying how much was cut.',
    'Depending on the policy, a person may have to approve the command first; some commands (sudo, git push, destructive rm, piping downloads into a shell, …) are always refused. A refusal tells you why and the command did not run.',
  ].join('\n'),
  input: z.strictObject({
    command: z.string().min(1).describe('The shell command line, e.g. "npm test" or "git diff --stat".'),
    timeout_s: z.number().positive().optional().describe('Seconds before the command is killed. Default and maximum: the configured command timeout.'),
  }),
  target: (args) => ({ command: args.command }),
  run: async (args, ctx) => {
    const max = ctx.commandTimeoutS;
    const timeout = Math.min(args.timeout_s ?? max, max);
    const note = args.timeout_s !== undefined && args.timeout_s > max ? `(timeout_s ${args.timeout_s} is over the maximum of ${max} s; ${max} s was used)\n` : '';
    const res = await ctx.runner.run({ command: args.command, cwd: ctx.root, timeout_s: timeout, signal: ctx.signal });
    if (res.refused) return { output: res.refused, is_error: true, error_code: 'sandbox_unavailable', exit_code: null, sandbox: res.sandbox };
    const stream = (name: string, text: string): string => {
      const clean = cleanTerminalOutput(text);
      return clean.trim() === '' ? `--- ${name}: (empty) ---` : `--- ${name} ---\n${reduceOutput(clean, RUN_OUTPUT_CHARS).replace(/\n$/, '')}`;
    };
    const body = [stream('stdout', res.stdout), stream('stderr', res.stderr)].join('\n');
    const secs = (res.ms / 1000).toFixed(1);
    let head: string;
    let outcome: Pick<ToolOutcome, 'is_error' | 'error_code'>;
    if (res.timed_out) {
      head = `The command timed out after ${timeout} s and its whole process group was killed (it did not finish).`;
      outcome = { is_error: true, error_code: 'timeout' };
    } else if (res.cancelled) {
      head = 'The command was cancelled (the run was stopped) and its process group was killed.';
      outcome = { is_error: true, error_code: 'failed' };
    } else if (res.exit_code === 0) {
      head = `exit code 0 (${secs} s)`;
      outcome = { is_error: false, error_code: null };
    } else {
      head = `exit code ${res.exit_code ?? 'none (killed by a signal)'} (${secs} s)`;
      outcome = { is_error: true, error_code: 'failed' };
    }
    return { output: `${note}${head}\n${body}`, ...outcome, exit_code: res.exit_code, sandbox: res.sandbox };
  },
});
