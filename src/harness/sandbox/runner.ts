// The one process runner: every command (tool `run` and the gate's checks) goes through here.
// The sandbox (commandSandbox.ts) decides what starts and with which environment; the runner
// starts it in its own process group, no stdin, a timeout that kills the whole group (SIGTERM,
// then SIGKILL; under bwrap that takes the whole pid namespace), cancellation by AbortSignal and
// a per-stream output cap. It never throws for a failing command: failures are in the result.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { CappedCapture } from './capture';
import type { CommandSandbox } from './commandSandbox';
import type { ProcessRunner, RunRequest, RunResult } from './types';

export const DEFAULT_OUTPUT_CAP = 256 * 1024;

/** setTimeout fires at once for delays over 2^31-1 ms; a huge configured timeout means "~24 days". */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RunnerOptions {
  sandbox: CommandSandbox; // how each command is contained (and its environment)
  outputCap?: number; // bytes kept per stream
  killGraceMs?: number; // between SIGTERM and SIGKILL (default 2000)
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* group already gone */
  }
}

/** Process groups of commands still running, so a forced exit can take them along. */
const liveGroups = new Set<number>();

/**
 * SIGKILL every command group still running. For a forced stop (a second Ctrl-C): a detached
 * group would otherwise outlive kite. Also runs on every normal process exit.
 */
export function killAllCommandGroups(): void {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  liveGroups.clear();
}
process.on('exit', killAllCommandGroups);

export function createRunner(opts: RunnerOptions): ProcessRunner {
  const cap = opts.outputCap ?? DEFAULT_OUTPUT_CAP;
  const grace = opts.killGraceMs ?? 2000;
  return {
    async run(req: RunRequest): Promise<RunResult> {
      const started = Date.now();
      const sandbox = opts.sandbox.info;
      const notRun = (stderr: string, extra: Partial<RunResult> = {}): RunResult => ({ exit_code: null, stdout: '', stderr, timed_out: false, cancelled: false, ms: 0, sandbox, ...extra });
      if (!fs.existsSync(req.cwd)) return notRun(`kite: the working directory ${req.cwd} does not exist; the command did not run.`);
      if (req.signal?.aborted) return notRun('kite: cancelled before the command started; it did not run.', { cancelled: true });
      const prog = await opts.sandbox.prepare(req);
      if (!prog.ok) return notRun(prog.refused, { refused: prog.refused, sandbox: prog.info });
      const out = new CappedCapture(req.output_cap ?? cap);
      const err = new CappedCapture(req.output_cap ?? cap);
      return new Promise<RunResult>((resolve) => {
        const options = { cwd: req.cwd, env: prog.env, detached: true };
        const child = req.stdin === undefined ? spawn(prog.file, prog.args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(prog.file, prog.args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
        if (child.pid !== undefined) liveGroups.add(child.pid);
        if (req.stdin !== undefined && child.stdin) {
          child.stdin.on('error', () => undefined); // a command that does not read its stdin (EPIPE) is not an error
          child.stdin.end(req.stdin);
        }
        let timedOut = false;
        let cancelled = false;
        let exitCode: number | null = null;
        let settled = false;
        let killTimer: NodeJS.Timeout | undefined;
        let drainTimer: NodeJS.Timeout | undefined;
        let lastTimer: NodeJS.Timeout | undefined;

        const terminate = (): void => {
          if (child.pid === undefined) return;
          killGroup(child.pid, 'SIGTERM');
          killTimer ??= setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), grace);
        };
        const timer = setTimeout(() => {
          timedOut = true;
          terminate();
        }, Math.min(Math.max(req.timeout_s, 0) * 1000, MAX_TIMER_MS));
        const onAbort = (): void => {
          cancelled = true;
          terminate();
        };
        req.signal?.addEventListener('abort', onAbort, { once: true });

        const finish = (): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          clearTimeout(drainTimer);
          clearTimeout(lastTimer);
          req.signal?.removeEventListener('abort', onAbort);
          // Leftover background processes die with the command; the group must not outlive it.
          if (child.pid !== undefined) {
            killGroup(child.pid, 'SIGKILL');
            liveGroups.delete(child.pid);
          }
          clearTimeout(killTimer);
          child.stdout.destroy();
          child.stderr.destroy();
          prog.cleanup?.();
          resolve({ exit_code: timedOut || cancelled ? null : exitCode, stdout: out.text(), stderr: err.text(), timed_out: timedOut, cancelled, ms: Date.now() - started, sandbox: prog.info });
        };

        child.stdout.on('data', (c: Buffer) => out.push(c));
        child.stderr.on('data', (c: Buffer) => err.push(c));
        child.on('error', (e) => {
          err.push(Buffer.from(`kite: could not start the command: ${e.message}\n`));
          finish();
        });
        child.on('exit', (code, signal) => {
          exitCode = code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : null);
          // A background child may still hold the pipes open: after a moment, kill the group so the
          // pipes close and every byte already written is still read ('close' then finishes). A
          // process that left the group (setsid) could hold them forever: stop waiting after 2 s.
          drainTimer = setTimeout(() => {
            if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
            lastTimer = setTimeout(finish, 2000);
          }, 200);
        });
        child.on('close', finish);
      });
    },
  };
}

function signalNumber(sig: NodeJS.Signals): number | null {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };
  return table[sig] ?? null;
}
