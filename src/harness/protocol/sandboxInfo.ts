// What the log records about the sandbox: once in session_start (how this run contains its
// commands) and on every command's event (which sandbox ran it, with which settings).
import { z } from 'zod';

export const SandboxNetworkSchema = z.enum(['none', 'host']);
export type SandboxNetwork = z.infer<typeof SandboxNetworkSchema>;

export const SandboxLimitsSchema = z.object({
  processes: z.number().int().positive().nullable(),
  memory_mb: z.number().int().positive().nullable(),
  address_space_mb: z.number().int().positive().nullable(),
  file_size_mb: z.number().int().positive().nullable(),
  open_files: z.number().int().positive().nullable(),
  cpu_s: z.number().int().positive().nullable(),
});
export type SandboxLimits = z.infer<typeof SandboxLimitsSchema>;

export const SandboxInfoSchema = z.object({
  /** bwrap (Linux), seatbelt (macOS), none (off, unavailable and accepted by a person, or refused). */
  kind: z.enum(['bwrap', 'seatbelt', 'none']),
  network: SandboxNetworkSchema,
  limits: SandboxLimitsSchema.nullable(),
  /** How the process limit is enforced: rlimit (unprivileged), cgroup (root), none (root without a pids cgroup). */
  process_limit: z.enum(['rlimit', 'cgroup', 'none']).optional(),
  /** Why there is no sandbox, or what is not enforced ("sandbox: off in .kite/config.json"). */
  note: z.string().nullable(),
});
export type SandboxInfo = z.infer<typeof SandboxInfoSchema>;

/** One short phrase for prompts, the status bar and the timeline header. */
export function describeSandbox(s: SandboxInfo): string {
  if (s.kind === 'none') return `NOT sandboxed${s.note ? ` (${s.note})` : ''}`;
  return `in the sandbox (${s.kind}): ${s.network === 'none' ? 'no network' : 'host network'}`;
}
