// The `sandbox` key of .kite/config.json: "off" (the explicit opt-out) or how commands are
// contained. Every key optional; resolveSandboxSettings fills the defaults the rest of Kite reads.
import { z } from 'zod';
import type { SandboxLimits, SandboxNetwork } from '../protocol/sandboxInfo';

/** Environment variable names: letters, digits, underscore, not starting with a digit. */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'not an environment variable name' });

/** Kite's own credentials never reach a command, whatever a project's config says. */
export const KITE_OWN_SECRETS: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'KITE_API_KEY'];

export const SandboxLimitsConfigSchema = z
  .strictObject({
    processes: z.number().int().positive().nullable().optional().describe('Most processes and threads the command may have at once (RLIMIT_NPROC inside the sandbox; a pids cgroup when Kite runs as root). Default 512; null: no limit.'),
    memory_mb: z.number().int().positive().nullable().optional().describe('Most heap/data memory per process in MiB (RLIMIT_DATA: what a process allocates, not what it reserves). Default 3072; null: no limit.'),
    address_space_mb: z.number().int().positive().nullable().optional().describe('Most virtual address space per process in MiB (RLIMIT_AS). Default null: runtimes such as Node and the JVM reserve far more than they use.'),
    file_size_mb: z.number().int().positive().nullable().optional().describe('Largest file a command may write, in MiB (RLIMIT_FSIZE). Default 1024.'),
    open_files: z.number().int().positive().nullable().optional().describe('Most open file descriptors per process (RLIMIT_NOFILE). Default 4096.'),
    cpu_s: z.number().int().positive().nullable().optional().describe('CPU seconds per process (RLIMIT_CPU). Default 1800; the command timeout bounds wall time.'),
  })
  .describe('Resource limits for every command.');

export const SandboxConfigSchema = z.union([
  z.literal('off').describe('Run commands WITHOUT an OS sandbox (explicit opt-out; shown in the status bar and the timeline). In VS Code only the user-scope setting kite.sandbox can turn it off.'),
  z
    .strictObject({
      network: z.enum(['none', 'host']).optional().describe('none (default): a private network namespace with only its own loopback. host: the machine\'s network (explicit opt-in, logged).'),
      env: z
        .strictObject({
          pass: z.array(EnvName).optional().describe('Names of variables passed to commands in addition to PATH, LANG, LC_*, TERM, TZ, HOME, TMPDIR and CI. Kite\'s own keys are never passed.'),
        })
        .optional(),
      limits: SandboxLimitsConfigSchema.optional(),
      mounts: z
        .strictObject({
          read_only: z.array(z.string().min(1)).optional().describe('Absolute host paths made visible read-only in the sandbox (e.g. a toolchain outside /usr that PATH does not reveal).'),
        })
        .optional(),
    })
    .superRefine((s, ctx) => {
      const own = (s.env?.pass ?? []).filter((n) => KITE_OWN_SECRETS.includes(n.toUpperCase()));
      if (own.length) ctx.addIssue({ code: 'custom', path: ['env', 'pass'], message: `${own.join(', ')} is Kite's own credential and is never passed to commands` });
      for (const [i, p] of (s.mounts?.read_only ?? []).entries()) {
        if (!p.startsWith('/')) ctx.addIssue({ code: 'custom', path: ['mounts', 'read_only', i], message: 'must be an absolute path' });
      }
    })
    .describe('How commands (the run tool, the gate\'s checks and verify) are contained.'),
]);
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

export const DEFAULT_LIMITS: Required<{ [K in keyof SandboxLimits]: SandboxLimits[K] }> = {
  processes: 512,
  memory_mb: 3072,
  address_space_mb: null,
  file_size_mb: 1024,
  open_files: 4096,
  cpu_s: 1800,
};

export interface SandboxSettings {
  enabled: boolean; // false: sandbox "off"
  network: SandboxNetwork;
  pass: string[];
  limits: SandboxLimits;
  readOnlyMounts: string[];
}

export function resolveSandboxSettings(config: SandboxConfig | undefined): SandboxSettings {
  if (config === 'off') return { enabled: false, network: 'host', pass: [], limits: { ...DEFAULT_LIMITS }, readOnlyMounts: [] };
  const l = config?.limits ?? {};
  const pick = <K extends keyof SandboxLimits>(k: K): SandboxLimits[K] => (l[k] === undefined ? DEFAULT_LIMITS[k] : (l[k] as SandboxLimits[K]));
  return {
    enabled: true,
    network: config?.network ?? 'none',
    pass: config?.env?.pass ?? [],
    limits: { processes: pick('processes'), memory_mb: pick('memory_mb'), address_space_mb: pick('address_space_mb'), file_size_mb: pick('file_size_mb'), open_files: pick('open_files'), cpu_s: pick('cpu_s') },
    readOnlyMounts: config?.mounts?.read_only ?? [],
  };
}
