// Runs axe-core (WCAG 2.1 A and AA rules) inside a page. The timeline's CSP allows scripts only by
// nonce, so axe's source is evaluated through Playwright (page.evaluate is not subject to the CSP)
// instead of being added as a <script>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './timelinePage';

export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; message: string }[];
}

let source: string | null = null;

/** Axe's WCAG 2.1 A/AA violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(source);
  return page.evaluate(async (tags) => {
    type Node = { target: unknown[]; failureSummary?: string };
    type Result = { id: string; impact?: string | null; help: string; nodes: Node[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Result[] }> } }).axe;
    const res = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), message: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
  }, WCAG21_AA);
}

/** One line per failing node: rule, target and axe's message, so a failed assertion explains itself. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact ?? '?'}) ${n.target}: ${n.message}`)).join('\n');
}
