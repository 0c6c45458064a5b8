// The seam between the one process runner and the OS sandbox: for each command, a sandbox says
// which program to start with which environment — or refuses, and the command does not run.
import type { SandboxInfo } from '../protocol/sandboxInfo';
import { commandEnv } from './environment';
import type { RunRequest } from './types';

export type PreparedCommand =
  | { ok: true; file: string; args: string[]; env: Record<string, string>; info: SandboxInfo; cleanup?: () => void }
  | { ok: false; refused: string; info: SandboxInfo };

export interface CommandSandbox {
  /** What this sandbox is (recorded in session_start; each command records its own). */
  readonly info: SandboxInfo;
  /** Read-only mounts it refused because they would expose the person's secrets (said in the log). */
  readonly refused?: readonly string[];
  prepare(req: RunRequest): Promise<PreparedCommand>;
}

/** /bin/sh on the host with the allowlisted environment: "sandbox off", or a person's explicit yes. */
export class Unsandboxed implements CommandSandbox {
  readonly info: SandboxInfo;
  constructor(
    note: string,
    private readonly base: NodeJS.ProcessEnv,
    private readonly pass: readonly string[],
  ) {
    this.info = { kind: 'none', network: 'host', limits: null, note };
  }

  prepare(req: RunRequest): Promise<PreparedCommand> {
    const env = commandEnv({ base: this.base, home: this.base.HOME ?? '/', tmp: this.base.TMPDIR ?? '/tmp', pass: this.pass, sandbox: 'none', extra: req.env });
    return Promise.resolve({ ok: true, file: '/bin/sh', args: ['-c', req.command], env, info: this.info });
  }
}

/** Refuses every command with the same message (the sandbox cannot be set up and nobody said run anyway). */
export class RefuseAll implements CommandSandbox {
  readonly info: SandboxInfo;
  constructor(
    private readonly message: string,
    network: SandboxInfo['network'],
  ) {
    this.info = { kind: 'none', network, limits: null, note: message };
  }

  prepare(): Promise<PreparedCommand> {
    return Promise.resolve({ ok: false, refused: this.message, info: this.info });
  }
}
