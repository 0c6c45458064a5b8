// .kite/config.json — every key optional; defaults applied here so the rest of the harness reads
// one fully-populated KiteConfig. A bad file is a ConfigError naming the file and the JSON path.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PriceTableSchema } from '../model/pricing';
import { ProvidersConfigSchema } from '../model/providers';
import { HostPolicySchema, PolicyConfigSchema } from '../policy/config';
import { resolveSandboxSettings, SandboxConfigSchema, type SandboxSettings } from '../sandbox/settings';
import { RedactionConfigSchema } from '../secrets/detectors';
import { ContractsSchema } from '../policy/contracts';
import { HooksConfigSchema, type HooksConfig } from '../hooks/hookConfig';
import { ContextConfigSchema, resolveContextSettings, type ContextSettings } from '../context/contextConfig';
import { formatIssues } from './formatIssues';
import { issueLocation } from './issueLocation';
import { McpConfigSchema } from '../mcp/mcpConfigSchema';
import { logDirProblem } from './logDir';
import { describeJsonProblem, parseJsonWithComments } from './jsonText';
import { CheckEntrySchema, JudgeCheckSchema, splitChecks } from '../gate/judgeCheck';

export const CONFIG_FILE = join('.kite', 'config.json');

export const BudgetConfigSchema = z.strictObject({
  turns: z.number().int().positive().optional(),
  tokens: z.number().int().positive().optional(),
  usd: z.number().positive().optional(),
  wall_s: z.number().positive().optional(),
  /** Tokens tool results may put into the conversation over a run (context/observationBudget.ts). */
  observation_tokens: z.number().int().positive().optional(),
  /** The same per tool, e.g. {"run": 20000}. */
  per_tool: z.record(z.string().min(1), z.number().int().positive()).optional(),
});

export const KiteConfigFileSchema = z.strictObject({
  $schema: z.string().optional(), // editors may add it; ignored
  model: z.string().min(1).optional(), // "anthropic:<id>" | "script:<file>" | bare model id
  max_tokens: z.number().int().positive().optional(),
  /** Shell commands, or judged checks ({"judge": "<rubric>", …}, gate/judgeCheck.ts). */
  checks: z.array(CheckEntrySchema).optional(),
  command_timeout: z.number().positive().optional(),
  // What the text alone shows ("..", ".git") is checked here; loadConfig adds what needs the root.
  log_dir: z
    .string()
    .min(1)
    .superRefine((v, ctx) => {
      const problem = logDirProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  budget: BudgetConfigSchema.optional(),
  max_gate_failures: z.number().int().positive().optional(),
  policy: PolicyConfigSchema.optional(),
  prices: PriceTableSchema.optional(),
  /** Base URLs of the OpenAI-compatible providers (openai, ollama, lmstudio, vllm, llamacpp). */
  providers: ProvidersConfigSchema.optional(),
  sandbox: SandboxConfigSchema.optional(),
  /** Per secret detector: redact (default) | block | audit (secrets/detectors.ts). */
  redaction: RedactionConfigSchema.optional(),
  /** Trajectory contracts (policy/contracts.ts): invariants over the whole run. */
  contracts: ContractsSchema.optional(),
  /** Command hooks in Claude Code's settings format (hooks/); they run only once approved (kite trust). */
  hooks: HooksConfigSchema.optional(),
  /** Compaction and the context window (context/contextConfig.ts). */
  context: ContextConfigSchema.optional(),
  /** MCP servers (mcp/): their tools become Kite tools once the person approved the server (kite trust). */
  mcp: McpConfigSchema.optional(),
});
export type KiteConfigFile = z.infer<typeof KiteConfigFileSchema>;

export const DEFAULTS = {
  max_tokens: 8192,
  command_timeout: 120,
  log_dir: join('.kite', 'runs'),
  budget: { turns: 50, tokens: 2_000_000, usd: 5, wall_s: 1800 },
  max_gate_failures: 3,
} as const;

export const KiteConfigSchema = z.object({
  model: z.string().nullable(),
  max_tokens: z.number().int().positive(),
  checks: z.array(z.string()), // the commands of `checks`
  judges: z.array(JudgeCheckSchema), // its judged checks, in order
  command_timeout: z.number().positive(),
  log_dir: z.string(),
  budget: z.object({
    turns: z.number().int().positive().nullable(),
    tokens: z.number().int().positive().nullable(),
    usd: z.number().positive().nullable(),
    wall_s: z.number().positive().nullable(),
    observation_tokens: z.number().int().positive().nullable().optional(),
    per_tool: z.record(z.string(), z.number().int().positive()).nullable().optional(),
  }),
  max_gate_failures: z.number().int().positive(),
  policy: PolicyConfigSchema.optional(),
  /** Set only by applyOverrides (a host's settings), never read from the file. */
  host_policy: HostPolicySchema.optional(),
  prices: PriceTableSchema,
  providers: ProvidersConfigSchema.optional(),
  sandbox: z.custom<SandboxSettings>(),
  /** Who turned the sandbox off, for the log and the status bar (null: it is on). */
  sandbox_off_by: z.string().nullable(),
  redaction: RedactionConfigSchema.optional(),
  contracts: ContractsSchema,
  hooks: z.custom<HooksConfig>(),
  context: z.custom<ContextSettings>(),
  mcp: McpConfigSchema.optional(),
});
export type KiteConfig = z.infer<typeof KiteConfigSchema>;

/**
 * What a host (the VS Code extension, from its kite.* settings) lays over .kite/config.json for one
 * run, made from the raw kite.* settings by config/settingsLayer.ts (which decides precedence);
 * here max_gate_failures simply replaces, and the policy is added as HostPolicySchema says.
 */
export const ConfigOverridesSchema = z.strictObject({
  max_gate_failures: z.number().int().positive().optional(),
  policy: HostPolicySchema.optional(),
  /** The host's word on the sandbox switch (VS Code: the user-scope kite.sandbox setting). When
   *  present it replaces the file's "off": a workspace cannot turn the sandbox off by itself. */
  sandbox: z.enum(['on', 'off']).optional(),
});
export type ConfigOverrides = z.input<typeof ConfigOverridesSchema>;

export function applyOverrides(config: KiteConfig, overrides: ConfigOverrides | undefined): KiteConfig {
  if (!overrides) return config;
  const o = ConfigOverridesSchema.parse(overrides);
  let sandbox = config.sandbox;
  let offBy = config.sandbox_off_by;
  if (o.sandbox === 'off') {
    sandbox = { ...resolveSandboxSettings('off'), pass: config.sandbox.pass };
    offBy = 'sandbox: off in the user settings (kite.sandbox)';
  } else if (o.sandbox === 'on' && !config.sandbox.enabled) {
    sandbox = resolveSandboxSettings(undefined);
    offBy = null;
  }
  return { ...config, max_gate_failures: o.max_gate_failures ?? config.max_gate_failures, host_policy: o.policy ?? config.host_policy, sandbox, sandbox_off_by: offBy };
}

export type ConfigErrorCode = 'invalid_json' | 'invalid_config' | 'unreadable';

export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parse config text (exported for tests and for `kite init` to check what it writes). */
export function parseConfig(text: string, file = CONFIG_FILE): KiteConfig {
  const json = parseJsonWithComments(text); // a person's notes in the file are welcome
  if (!json.ok) throw new ConfigError('invalid_json', describeJsonProblem(file, json.problem));
  const raw = json.value;
  const parsed = KiteConfigFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError('invalid_config', formatIssues(file, parsed.error, { raw, knownKeys: Object.keys(KiteConfigFileSchema.shape), text }));
  return withDefaults(parsed.data);
}

export function withDefaults(c: KiteConfigFile): KiteConfig {
  const b = c.budget ?? {};
  const { commands, judges } = splitChecks(c.checks);
  return {
    model: c.model ?? null,
    max_tokens: c.max_tokens ?? DEFAULTS.max_tokens,
    checks: commands,
    judges,
    command_timeout: c.command_timeout ?? DEFAULTS.command_timeout,
    log_dir: c.log_dir ?? DEFAULTS.log_dir,
    budget: {
      turns: b.turns ?? DEFAULTS.budget.turns,
      tokens: b.tokens ?? DEFAULTS.budget.tokens,
      usd: b.usd ?? DEFAULTS.budget.usd,
      wall_s: b.wall_s ?? DEFAULTS.budget.wall_s,
      ...(b.observation_tokens !== undefined ? { observation_tokens: b.observation_tokens } : {}),
      ...(b.per_tool !== undefined ? { per_tool: b.per_tool } : {}),
    },
    max_gate_failures: c.max_gate_failures ?? DEFAULTS.max_gate_failures,
    policy: c.policy,
    prices: c.prices ?? {},
    providers: c.providers,
    sandbox: resolveSandboxSettings(c.sandbox),
    sandbox_off_by: c.sandbox === 'off' ? 'sandbox: off in .kite/config.json' : null,
    redaction: c.redaction,
    contracts: c.contracts ?? [],
    hooks: (c.hooks ?? {}) as HooksConfig,
    context: resolveContextSettings(c.context),
    mcp: c.mcp,
  };
}

/** Load `<root>/.kite/config.json`; a missing file means all defaults. */
export function loadConfig(root: string): KiteConfig {
  const file = join(root, CONFIG_FILE);
  if (!existsSync(file)) return checkedLogDir(withDefaults({}), root, file, '');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError('unreadable', `${file}: cannot read (${(e as Error).message})`);
  }
  return checkedLogDir(parseConfig(text, file), root, file, text);
}

/** log_dir against the real workspace: an absolute path elsewhere or a symlink out is refused. */
function checkedLogDir(config: KiteConfig, root: string, file: string, text: string): KiteConfig {
  const problem = logDirProblem(config.log_dir, root);
  if (!problem) return config;
  const at = issueLocation(text, ['log_dir']);
  throw new ConfigError('invalid_config', `${file}${at ? `:${at.line}:${at.column}` : ''}: $.log_dir: ${problem}`);
}
