// JSON Schemas for the files people edit by hand, generated from the zod schemas (one source of
// truth, ARCHITECTURE.md §5.2). VS Code uses them through the `jsonValidation` contribution for
// completion and errors in kite-progress.json and .kite/config.json.
// Written to media/schemas by scripts/gen-schemas.mjs (run by the build); a unit test checks that
// the committed files match.
import { z } from 'zod';
import { KiteConfigFileSchema } from '../src/harness/config/config';
import { ProgressFileSchema } from '../src/harness/progress/progressFile';

// Hover text for the keys people type most (the zod schemas carry no prose).
const DESCRIPTIONS: Record<string, Record<string, string>> = {
  config: {
    model: 'Model for runs: "anthropic:<id>", "openai:<id>", a local server ("ollama:<model>", "lmstudio:<model>", "vllm:<model>", "llamacpp:<model>"), "script:<file>" or a bare Anthropic model id. The kite.model VS Code setting wins over this when set.',
    max_tokens: 'Maximum tokens per model reply.',
    checks: 'Gate checks: shell commands that must all pass before the agent may say "done".',
    command_timeout: 'Seconds before a command the agent runs is killed.',
    log_dir: 'Where run logs go (default .kite/runs).',
    budget: 'Per-run limits (turns, tokens, usd, wall_s). These win over the kite.budget.* VS Code settings.',
    max_gate_failures: 'Failed gate attempts before the run stops as gate_failed.',
    policy: 'Which tool calls are allowed, asked or denied; "Always allow" appends rules here.',
    prices: 'Per-model prices in USD per million tokens, overriding the built-in table. Keys are model ids, e.g. "ollama:qwen2.5-coder": {"input": 0, "output": 0} for a local model.',
    providers: 'Base URLs of the OpenAI-compatible servers (openai, ollama, lmstudio, vllm, llamacpp), e.g. {"ollama": {"base_url": "http://127.0.0.1:11434/v1"}}.',
    contracts: 'Trajectory contracts: invariants over a whole run (never, always, eventually, before … then), each forbid, warn or require. `kite check LOG` checks a past run.',
  },
  progress: {
    goal: 'What the project is for; part of every briefing.',
    log: 'One entry per finished session (written by Kite).',
    features: 'The features Kite works through, in order; the first one not done is the current feature.',
  },
};

function schemaOf(schema: z.ZodType, id: string, title: string, description: string, texts: Record<string, string>): Record<string, unknown> {
  // 'input': what a person writes (keys with defaults are optional); draft-07 is what VS Code's JSON service knows best.
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const props = json.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, text] of Object.entries(texts)) if (props?.[key]) props[key] = { description: text, ...props[key] };
  return { ...json, $id: id, title, description };
}

export function generateSchemas(): Record<string, Record<string, unknown>> {
  return {
    'kite-progress.schema.json': schemaOf(
      ProgressFileSchema,
      'https://kite.dev/schemas/kite-progress.schema.json',
      'Kite progress file',
      'kite-progress.json: the goal, the features Kite works through (id, title, status, verify command, notes) and the log of past sessions.',
      DESCRIPTIONS.progress!,
    ),
    'kite-config.schema.json': schemaOf(
      KiteConfigFileSchema,
      'https://kite.dev/schemas/kite-config.schema.json',
      'Kite workspace configuration',
      '.kite/config.json: model, gate checks, budgets, policy rules and prices for this workspace. Values here win over the kite.* VS Code settings, except kite.model.',
      DESCRIPTIONS.config!,
    ),
  };
}

export function renderSchema(schema: Record<string, unknown>): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
