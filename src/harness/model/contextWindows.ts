// The per-model context window table, next to the price table (pricing.ts): how many tokens one
// request may hold. Compaction (context/compactor.ts) plans against it; `context.window` in
// .kite/config.json overrides it (a local model, a test with a small window).
// Family prefixes match like prices do (longest wins). Models not listed get DEFAULT_CONTEXT_WINDOW,
// the standard window of current Claude models; a larger (beta) window needs `context.window`.
export const DEFAULT_CONTEXT_WINDOW = 200_000;

export const CONTEXT_WINDOWS: Record<string, number> = {
  'claude-fable-5': 200_000,
  'claude-mythos-5': 200_000,
  'claude-opus-5': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-5': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-5': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3-5-haiku': 200_000,
};

/** The window for a model id ("anthropic:claude-…" or bare); `override` (config) wins. */
export function contextWindowOf(model: string, override: number | null = null): number {
  if (override !== null) return override;
  const id = model.replace(/^anthropic:/, '');
  const family = Object.keys(CONTEXT_WINDOWS)
    .filter((k) => id.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return family ? CONTEXT_WINDOWS[family]! : DEFAULT_CONTEXT_WINDOW;
}
