// The launch configuration of the `kite` debug type: one zod schema. package.json's
// `debuggers[].configurationAttributes.launch` is checked against launchAttributes() by a test,
// so launch.json IntelliSense and the adapter never disagree.
import { z } from 'zod';

export const LaunchArgsSchema = z.looseObject({
  log: z.string().min(1).describe('Path of the run log (.kite/runs/<run>.jsonl) to step through.').default('${file}'),
  stopOnEntry: z.boolean().describe('Stop at the first event of the run. When false, run to the first breakpoint or enabled exception (a gate failure by default).').default(true),
  mode: z
    .enum(['recorded', 'live'])
    .describe('recorded: step through the log as it is. live: re-run the recorded model replies in a scratch worktree at the run\'s starting commit and stop where the live run diverges.')
    .default('recorded'),
  seq: z.number().int().nonnegative().optional().describe('Open stopped at the event with this seq instead of the first event (stopOnEntry is then implied).'),
  liveMcp: z.boolean().optional().describe('With mode "live": start the approved MCP servers and call them for each recorded MCP call, stopping where an answer differs. Default: MCP calls answer from the recording.'),
  root: z.string().optional().describe('Workspace folder the run worked in, for frames that open edited files. Default: the root recorded in the log.'),
});
export type LaunchArgs = z.infer<typeof LaunchArgsSchema>;

/** Field errors of a launch configuration, each naming the attribute. */
export function parseLaunchArgs(raw: unknown): { ok: true; args: LaunchArgs } | { ok: false; message: string } {
  const r = LaunchArgsSchema.safeParse(raw ?? {});
  if (r.success) return { ok: true, args: r.data };
  return { ok: false, message: r.error.issues.map((i) => `launch attribute "${i.path.join('.') || '(root)'}": ${i.message}`).join('; ') };
}

/** JSON Schema of the launch attributes, in the shape package.json's configurationAttributes uses. */
export function launchAttributes(): { required: string[]; properties: Record<string, unknown> } {
  const schema = z.toJSONSchema(LaunchArgsSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>> };
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    const { $schema: _s, ...rest } = v;
    properties[k] = rest;
  }
  return { required: [], properties };
}
