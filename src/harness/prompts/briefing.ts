// The briefing: the first user message of a run. Everything run-specific the model needs —
// goal, feature, earlier notes, the recent progress log, AGENTS.md, the checks — in one place.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feature, ProgressFile } from '../progress/progressFile';

export const AGENTS_FILE = 'AGENTS.md';
const MAX_AGENTS_CHARS = 12_000;
const RECENT_LOG_ENTRIES = 5;

export interface BriefingInput {
  progress: ProgressFile;
  feature: Feature;
  checks: string[];
  commandTimeoutS: number;
  agentsMd?: string | null; // AGENTS.md text, when present
}

export function readAgentsMd(root: string): string | null {
  const p = join(root, AGENTS_FILE);
  if (!existsSync(p)) return null;
  const text = readFileSync(p, 'utf8');
  return text.length > MAX_AGENTS_CHARS ? `${text.slice(0, MAX_AGENTS_CHARS)}\n[… AGENTS.md cut: ${text.length - MAX_AGENTS_CHARS} more characters …]` : text;
}

export function buildBriefing(input: BriefingInput): string {
  const { progress, feature, checks } = input;
  const out: string[] = [];
  out.push(`# Project goal\n${progress.goal.trim() || '(no goal written)'}`);
  out.push(`# Your feature: ${feature.id} — ${feature.title}`);
  const notes = feature.notes?.trim();
  out.push(notes ? `## Notes from earlier sessions on this feature\n${notes}` : '## Notes from earlier sessions on this feature\n(none: this is the first session on it)');

  const others = progress.features.filter((f) => f.id !== feature.id);
  if (others.length) {
    out.push(`## Other features (not yours to do now)\n${others.map((f) => `- ${f.id} [${f.status}] ${f.title}`).join('\n')}`);
  }

  const recent = progress.log.slice(-RECENT_LOG_ENTRIES);
  if (recent.length) {
    const rows = recent.map((e) => {
      const parts = [`${e.date} ${e.feature}: ${e.outcome}`];
      if (e.turns !== undefined) parts.push(`${e.turns} turns`);
      if (e.commit) parts.push(`commit ${String(e.commit).slice(0, 7)}`);
      return `- ${parts.join(', ')}`;
    });
    out.push(`## Recent progress log\n${rows.join('\n')}`);
  }

  if (input.agentsMd) out.push(`## AGENTS.md (the project's instructions for agents)\n${input.agentsMd.trim()}`);

  const gate = [...checks.map((c) => `- \`${c}\` (project check)`)];
  if (feature.verify) gate.push(`- \`${feature.verify}\` (this feature's verify command)`);
  out.push(
    `## The gate: what "done" means\n` +
      (gate.length
        ? `When you reply without a tool call, Kite runs these commands from the workspace root, each with a ${input.commandTimeoutS} s time limit. Every one must exit 0:\n${gate.join('\n')}`
        : 'No checks are configured and the feature has no verify command: describe how you verified your change in your final message.') +
      `\nYou may run these commands yourself with the run tool before claiming done.`,
  );
  if (feature.tools?.length) out.push(`## Tools for this feature\nOnly these tools are available to this feature: ${feature.tools.join(', ')}.`);
  out.push(`Start by reading the code this feature touches. When the feature is complete and the gate commands pass, reply with a short summary and no tool call.`);
  return out.join('\n\n');
}
