// The OpenAI-compatible providers: `openai:<id>` and named presets for the common local servers,
// so a person types `ollama:qwen2.5-coder` rather than a URL. Each resolves to a base URL, a key
// (OpenAI only: a local server needs none, and the person's OpenAI key never goes to one) and
// the wire details that differ between servers. Config `providers.<name>.base_url` overrides a
// preset's URL.
import { z } from 'zod';
import { ModelError } from './model';

export const OPENAI_PROVIDERS = ['openai', 'ollama', 'lmstudio', 'vllm', 'llamacpp'] as const;
export type OpenAIProvider = (typeof OPENAI_PROVIDERS)[number];

interface Preset {
  label: string; // who answered, for messages: "Ollama", "the OpenAI API"
  baseURL: string;
  /** OpenAI's own API takes max_completion_tokens (o-series models refuse max_tokens); local servers know max_tokens. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

export const PRESETS: Record<OpenAIProvider, Preset> = {
  openai: { label: 'the OpenAI API', baseURL: 'https://api.openai.com/v1', maxTokensField: 'max_completion_tokens' },
  ollama: { label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', maxTokensField: 'max_tokens' },
  lmstudio: { label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', maxTokensField: 'max_tokens' },
  vllm: { label: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', maxTokensField: 'max_tokens' },
  llamacpp: { label: 'the llama.cpp server', baseURL: 'http://127.0.0.1:8080/v1', maxTokensField: 'max_tokens' },
};

const ProviderSettingsSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://127.0.0.1:11434/v1' }).optional(),
});
/** Config `providers`: only the known names, so a typo is reported instead of ignored. */
export const ProvidersConfigSchema = z.strictObject(Object.fromEntries(OPENAI_PROVIDERS.map((p) => [p, ProviderSettingsSchema.optional()])) as Record<OpenAIProvider, z.ZodOptional<typeof ProviderSettingsSchema>>);
export type ProvidersConfig = z.infer<typeof ProvidersConfigSchema>;

export function isOpenAIProvider(scheme: string): scheme is OpenAIProvider {
  return (OPENAI_PROVIDERS as readonly string[]).includes(scheme);
}

export interface ResolvedProvider {
  provider: OpenAIProvider;
  label: string;
  baseURL: string;
  apiKey: string | null; // null: send none (local servers)
  maxTokensField: Preset['maxTokensField'];
}

export const OPENAI_KEY_HINT = 'set the OPENAI_API_KEY environment variable, or in VS Code run "Kite: Set API Key…" and pick OpenAI';

/**
 * Where and how to reach a provider. For `openai`, OPENAI_BASE_URL (the person's environment) wins
 * over the workspace's config; a workspace file may not send the person's key to a remote host of
 * its choosing, so a non-loopback config URL together with a key is refused with the fix.
 */
export function resolveProvider(provider: OpenAIProvider, config: ProvidersConfig | undefined, env: NodeJS.ProcessEnv, apiKey?: string): ResolvedProvider {
  const preset = PRESETS[provider];
  const fromConfig = config?.[provider]?.base_url;
  if (provider !== 'openai') return { provider, label: preset.label, baseURL: fromConfig ?? preset.baseURL, apiKey: null, maxTokensField: preset.maxTokensField };
  const key = (apiKey ?? env.OPENAI_API_KEY ?? '').trim();
  const fromEnv = env.OPENAI_BASE_URL?.trim();
  const baseURL = fromEnv || fromConfig || preset.baseURL;
  if (!fromEnv && fromConfig && key && !isLoopbackURL(fromConfig))
    throw new ModelError(
      'bad_request',
      `.kite/config.json providers.openai.base_url points to ${fromConfig}; Kite does not send your OpenAI API key to a host a workspace file chose. Set OPENAI_BASE_URL=${fromConfig} in your own environment instead.`,
    );
  if (!key && !fromEnv && !fromConfig) throw new ModelError('missing_key', `No OpenAI API key: ${OPENAI_KEY_HINT} (or use a local server, e.g. --model ollama:<model>).`);
  return { provider, label: preset.label, baseURL, apiKey: key || null, maxTokensField: preset.maxTokensField };
}

/**
 * Whether a URL's host is this machine, judged from the literal alone (no name resolution): an IPv4
 * 127.0.0.0/8 address, ::1, or exactly `localhost`. A name that merely starts like one
 * (`127.attacker.example`, `localhost.attacker.example`) is somebody's DNS name, not loopback.
 * The WHATWG parser has already normalised numeric forms (`127.1`, `0x7f.0.0.1` → `127.0.0.1`).
 */
export function isLoopbackURL(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
