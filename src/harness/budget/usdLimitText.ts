// A dollar limit as the person gave it: `--max-usd 0.005` must not read back as "$0.01" (or "$0.00")
// in the briefing, the budget stop and the status bar. Whole cents keep two decimals ("$2.00").

export function usdLimitText(max: number): string {
  const cents = max * 100;
  return `$${Math.abs(cents - Math.round(cents)) < 1e-9 ? max.toFixed(2) : String(max)}`;
}
