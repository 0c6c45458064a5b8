// Contract of the one process runner every command goes through (tool `run` and the gate).
import type { SandboxInfo } from '../protocol/sandboxInfo';

export interface RunRequest {
  command: string; // a shell command line (run with /bin/sh -c)
  cwd: string; // absolute; must be inside the workspace
  timeout_s: number; // kills the whole process group when exceeded
  output_cap?: number; // bytes kept per stream (head + tail), default set by the runner
  signal?: AbortSignal; // cancellation kills the process group too
  stdin?: string; // written to the command's stdin, then closed (hooks); default: no stdin
  env?: Readonly<Record<string, string>>; // configured variables of this process (an MCP server's env), over the allowlist
}

export interface RunResult {
  exit_code: number | null; // null when killed
  stdout: string; // already capped, with a marker saying how much was cut
  stderr: string;
  timed_out: boolean;
  cancelled: boolean;
  ms: number;
  sandbox: SandboxInfo; // which sandbox ran it (or refused it), with its settings
  refused?: string; // set when the sandbox refused: the command did not run
}

export interface ProcessRunner {
  run(request: RunRequest): Promise<RunResult>;
}
