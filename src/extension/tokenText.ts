// How the status bar, the Runs view and the notifications write tokens and dollars. Pure (no
// 'vscode'), so the formats are unit-tested.

/** Dollars with enough digits to see a cheap run move: $0.004, $0.015, $1.20. */
export function formatUsd(usd: number): string {
  return `$${usd < 0.1 ? usd.toFixed(3) : usd.toFixed(2)}`;
}

export function formatTokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}
