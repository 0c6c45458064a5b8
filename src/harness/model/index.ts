// Builds a Model from a spec string: "script:<file>" | "anthropic:<id>" | "replay:<log>" | "<id>"
// | "openai:<id>" and the local presets "ollama:<model>", "lmstudio:", "vllm:", "llamacpp:"
// | "vscode-lm:<vendor>/<family>" (VS Code's language models, only where the host offers them).
// The adapters (model/anthropic.ts, model/openai.ts) are loaded lazily so the CLI works without
// them and a scripted run never touches an SDK.
import { resolve } from 'node:path';
import type { LanguageModelHost } from '../host';
import { parseVscodeLmSpec, VSCODE_LM_SCHEME } from '../protocol/languageModel';
import { ModelError, type Model } from './model';
import { DEFAULT_MODEL } from './pricing';
import { isOpenAIProvider, resolveProvider, type ProvidersConfig, type ResolvedProvider } from './providers';
import { ScriptedModel } from './scripted';
import { VscodeLmModel } from './vscodeLm';

export interface CreateModelOptions {
  cwd?: string; // relative script paths resolve here (default: the process's cwd)
  apiKey?: string;
  baseURL?: string;
  /** Config `providers` (base URLs of the OpenAI-compatible presets). */
  providers?: ProvidersConfig;
  env?: NodeJS.ProcessEnv; // where OPENAI_API_KEY / OPENAI_BASE_URL are read (default process.env)
  /** Builds the replay model for "replay:<log>" (owned by the log slice; injected to avoid a cycle). */
  replay?: (log: string) => Model;
  /** VS Code's language models, from the host (absent in the CLI: vscode-lm: is refused). */
  languageModels?: LanguageModelHost;
}

/** host_only: a vscode-lm: model where no VS Code window can answer (the CLI). */
export type ModelSpecErrorCode = 'bad_spec' | 'adapter_missing' | 'host_only';

export class ModelSpecError extends Error {
  constructor(
    readonly code: ModelSpecErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelSpecError';
  }
}

export function defaultModelSpec(configModel: string | null | undefined): string {
  return configModel ? normalizeSpec(configModel) : `anthropic:${DEFAULT_MODEL}`;
}

/** A bare model id (no scheme) means Anthropic. */
export function normalizeSpec(spec: string): string {
  return spec.includes(':') ? spec : `anthropic:${spec}`;
}

interface OpenAICtor {
  new (opts: { model: string; provider: ResolvedProvider }): Model;
}

interface AnthropicCtor {
  new (opts: { model: string; apiKey?: string; baseURL?: string }): Model;
}

export function createModel(spec: string, opts: CreateModelOptions = {}): Model {
  const s = normalizeSpec(spec);
  const colon = s.indexOf(':');
  const scheme = s.slice(0, colon);
  const rest = s.slice(colon + 1);
  if (!rest) throw new ModelSpecError('bad_spec', `model "${spec}": nothing after "${scheme}:"`);
  switch (scheme) {
    case 'script':
      return ScriptedModel.fromFile(resolve(opts.cwd ?? process.cwd(), rest));
    case 'replay': {
      if (!opts.replay) throw new ModelSpecError('adapter_missing', 'replay models are not available in this build');
      return opts.replay(rest);
    }
    case 'anthropic': {
      const Ctor = loadAnthropic();
      const apiKey = opts.apiKey ?? process.env.ANTHROPIC_API_KEY;
      if (!apiKey) throw new ModelError('missing_key', 'no API key: set ANTHROPIC_API_KEY (or use --model script:<file> for a scripted run)');
      return new Ctor({ model: rest, apiKey, baseURL: opts.baseURL ?? process.env.ANTHROPIC_BASE_URL });
    }
    case VSCODE_LM_SCHEME: {
      const lm = parseVscodeLmSpec(s);
      if (!lm) throw new ModelSpecError('bad_spec', `model "${spec}": expected vscode-lm:<vendor>/<family>, e.g. vscode-lm:copilot/gpt-4o ("Kite: Select Model…" in VS Code lists them)`);
      if (!opts.languageModels)
        throw new ModelSpecError(
          'host_only',
          `model "${spec}" is one of VS Code's language models: only the Kite extension inside VS Code can use it. Here use anthropic:<id>, openai:<id>, ollama:<model> (or another local preset) or script:<file>.`,
        );
      return new VscodeLmModel(lm.vendor, lm.family, opts.languageModels);
    }
    default: {
      if (!isOpenAIProvider(scheme))
        throw new ModelSpecError('bad_spec', `model "${spec}": expected anthropic:<id>, openai:<id>, ollama:<model>, lmstudio:<model>, vllm:<model>, llamacpp:<model>, vscode-lm:<vendor>/<family>, script:<file> or replay:<log>`);
      const provider = resolveProvider(scheme, opts.providers, opts.env ?? process.env, scheme === 'openai' ? opts.apiKey : undefined);
      return new (loadOpenAI())({ model: rest, provider });
    }
  }
}

function loadAnthropic(): AnthropicCtor {
  try {
    // Lazy on purpose (see header). The adapter is owned by another slice.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('./anthropic') as { AnthropicModel?: AnthropicCtor };
    if (mod.AnthropicModel) return mod.AnthropicModel;
  } catch {
    // fall through to the clear error below
  }
  throw new ModelSpecError('adapter_missing', 'anthropic adapter not available in this build (use --model script:<file>)');
}

function loadOpenAI(): OpenAICtor {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('./openai') as { OpenAIModel?: OpenAICtor };
    if (mod.OpenAIModel) return mod.OpenAIModel;
  } catch {
    // fall through to the clear error below
  }
  throw new ModelSpecError('adapter_missing', 'the OpenAI-compatible adapter is not available in this build (use --model script:<file>)');
}
