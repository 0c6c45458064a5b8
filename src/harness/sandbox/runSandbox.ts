// The sandbox of one run: picks the platform's sandbox and fails closed. When none can be set
// up, an unattended run refuses its first command and the loop ends the run `error` with the
// fix; an attended run asks the person once whether to run commands without one (logged).
// `sandbox: "off"` is the explicit opt-out.
import type { EventSink } from '../events/sink';
import type { Mode } from '../protocol/events';
import type { SandboxInfo } from '../protocol/sandboxInfo';
import { BwrapSandbox } from './bwrapSandbox';
import { RefuseAll, Unsandboxed, type CommandSandbox, type PreparedCommand } from './commandSandbox';
import { probeBwrap } from './probe';
import { probeSeatbelt, SeatbeltSandbox } from './seatbelt';
import type { SandboxSettings } from './settings';
import { isSecretName } from './scrubEnv';
import type { RunRequest } from './types';

/** Whether the platform's sandbox can run here: a way to make it, or why not and the fix. */
export type SandboxAvailability = { ok: true; make: () => CommandSandbox } | { ok: false; reason: string; fix: string };

/** What the loop's host is asked when no sandbox is available in an attended run. */
export interface UnsandboxedQuestion {
  reason: string; // why there is no sandbox
  fix: string; // how to get one
}

export interface RunSandboxOptions {
  root: string;
  logDir: string;
  settings: SandboxSettings;
  mode: Mode;
  env: NodeJS.ProcessEnv;
  log: EventSink;
  /** Asked once per run in attended mode; absent or rejecting counts as no. */
  confirmUnsandboxed?: (q: UnsandboxedQuestion, signal?: AbortSignal) => Promise<boolean>;
  /** Why "off" was chosen, for the log ("sandbox: off in .kite/config.json"). */
  offBy?: string;
  protect?: readonly string[];
  /** Tests: pretend to be another platform / another probe result. */
  platform?: NodeJS.Platform;
  probe?: () => SandboxAvailability;
}

export class RunSandbox implements CommandSandbox {
  info: SandboxInfo;
  /** Set when a command was refused for want of a sandbox: the run ends with this message. */
  fatal: string | null = null;
  private inner: CommandSandbox | null;
  private readonly unavailable: UnsandboxedQuestion | null = null;
  private asked: Promise<CommandSandbox> | null = null;

  constructor(private readonly opts: RunSandboxOptions) {
    const { settings, env } = opts;
    if (!settings.enabled) {
      this.inner = new Unsandboxed(opts.offBy ?? 'sandbox: off', env, settings.pass);
      this.info = this.inner.info;
      return;
    }
    const probe = opts.probe?.() ?? platformSandbox(opts.platform ?? process.platform, opts);
    if (probe.ok) {
      this.inner = probe.make();
      this.info = this.inner.info;
      return;
    }
    this.inner = null;
    this.unavailable = { reason: probe.reason, fix: probe.fix };
    this.info = { kind: 'none', network: settings.network, limits: null, note: `no sandbox: ${probe.reason}` };
  }

  /** Said in the log at the start of a run: commands not contained, mounts refused, secrets passed on. */
  announce(): void {
    const { log, settings } = this.opts;
    for (const message of this.inner?.refused ?? []) log.append({ kind: 'warning', code: 'sandbox_mount_refused', message });
    const secretish = settings.pass.filter((n) => isSecretName(n));
    if (secretish.length) log.append({ kind: 'warning', code: 'sandbox_env_secret', message: `sandbox.env.pass gives every command ${secretish.join(', ')}, which look${secretish.length === 1 ? 's' : ''} like credentials: what a command prints can reach the model` });
    if (this.info.kind !== 'none') return;
    const code = this.unavailable ? 'sandbox_unavailable' : 'sandbox_off';
    const message = this.unavailable
      ? `${this.unavailable.reason}. ${this.opts.mode === 'unattended' ? 'This unattended run refuses every command (the gate included).' : 'You will be asked once whether commands may run without it.'} Fix: ${this.unavailable.fix}.`
      : `commands run WITHOUT a sandbox (${this.info.note}).`;
    this.opts.log.append({ kind: 'warning', code, message });
  }

  async prepare(req: RunRequest): Promise<PreparedCommand> {
    if (this.inner) return this.inner.prepare(req);
    const chosen = await (this.asked ??= this.decide(req.signal));
    return chosen.prepare(req);
  }

  private async decide(signal?: AbortSignal): Promise<CommandSandbox> {
    const q = this.unavailable as UnsandboxedQuestion;
    const refusal = (why: string): CommandSandbox => {
      const message = `kite: the command did not run: ${why}: ${q.reason}. Fix: ${q.fix}. (To run commands without a sandbox on purpose, set "sandbox": "off" in .kite/config.json.)`;
      this.fatal = message;
      return new RefuseAll(message, this.opts.settings.network);
    };
    if (this.opts.mode === 'unattended') return refusal('commands run only in a sandbox and this machine cannot provide one');
    let yes = false;
    try {
      yes = (await this.opts.confirmUnsandboxed?.(q, signal)) ?? false;
    } catch {
      yes = false;
    }
    this.opts.log.append({ kind: 'warning', code: yes ? 'sandbox_unsandboxed_accepted' : 'sandbox_unsandboxed_refused', message: yes ? `the person chose to run this run's commands WITHOUT a sandbox (${q.reason})` : `the person refused to run commands without a sandbox (${q.reason})` });
    if (!yes) return refusal('you chose not to run commands without a sandbox, and this machine cannot provide one');
    const unsandboxed = new Unsandboxed(`no sandbox (${q.reason}); the person accepted`, this.opts.env, this.opts.settings.pass);
    this.info = unsandboxed.info;
    return unsandboxed;
  }
}

function platformSandbox(platform: NodeJS.Platform, opts: RunSandboxOptions): SandboxAvailability {
  const { root, logDir, settings, env, protect } = opts;
  if (platform === 'linux') {
    const p = probeBwrap(env.PATH);
    return p.ok ? { ok: true, make: () => new BwrapSandbox({ bwrap: p.bwrap, prlimit: p.prlimit, root, logDir, settings, env, protect }) } : p;
  }
  if (platform === 'darwin') {
    const p = probeSeatbelt();
    return p.ok ? { ok: true, make: () => new SeatbeltSandbox({ root, logDir, settings, env, protect }) } : p;
  }
  return {
    ok: false,
    reason: platform === 'win32' ? 'Windows has no OS sandbox Kite can use' : `Kite has no sandbox for ${platform}`,
    fix: 'run Kite inside a dev container (VS Code: "Dev Containers: Reopen in Container"), WSL 2 with bubblewrap installed, or a Linux VM',
  };
}
