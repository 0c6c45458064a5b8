// Helpers for the context-layer tests: a small project in a temp git repo, and a Kite run on it
// in this process through the real Anthropic SDK against the local Messages API server.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import { AnthropicModel } from '../../../src/harness/model/anthropic';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature, type RunOptions, type RunSummary } from '../../../src/harness/run';
import { tempRepo } from '../../unit/loop/kit';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';

export const KEY = 'sk-ant-context-test';
export const MODEL = 'claude-sonnet-5-5';
export const VERIFY = 'node check.js';

export interface ProjectOptions {
  tools?: string[];
  config?: Record<string, unknown>;
  files?: Record<string, string>;
}

/** A project whose feature's verify command passes once `done.txt` exists. */
export function contextProject(o: ProjectOptions = {}): string {
  const feature = { id: 'F1', title: 'Long feature', status: 'todo', verify: VERIFY, notes: 'Write done.txt when every module is reviewed.', ...(o.tools ? { tools: o.tools } : {}) };
  return tempRepo({
    'kite-progress.json': JSON.stringify({ goal: 'Context tests', log: [], features: [feature] }, null, 2),
    '.kite/config.json': JSON.stringify({ checks: [], command_timeout: 30, budget: { turns: 200, tokens: 50_000_000, usd: 500 }, ...o.config }, null, 2),
    'check.js': "const fs = require('fs');\nif (!fs.existsSync('done.txt')) { console.error('done.txt is missing'); process.exit(1); }\n",
    ...o.files,
  });
}

export function sdkModel(server: FakeAnthropicServer): AnthropicModel {
  return new AnthropicModel({ model: MODEL, apiKey: KEY, baseURL: server.url, backoff: { baseMs: 1, maxMs: 5 } });
}

export function runOn(repo: string, server: FakeAnthropicServer, extra: Partial<RunOptions> = {}): Promise<RunSummary> {
  return runFeature({ root: repo, mode: 'unattended', model: '', modelOverride: sdkModel(server), ...extra }, new UnattendedHost());
}

export function logEvents(repo: string): KiteEvent[] {
  const dir = join(repo, '.kite', 'runs');
  const file = readdirSync(dir).find((f) => f.endsWith('.jsonl') && !f.endsWith('-replay.jsonl'));
  if (!file) throw new Error(`no run log in ${dir}`);
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);
}

export type Body = { tools?: { name: string }[]; system?: unknown; messages: { role: string; content: unknown }[] };
export const bodyOf = (server: FakeAnthropicServer, i: number): Body => server.requests[i]!.body as Body;

/** The closing summary the run's session_end recorded (why it stopped). */
export function endSummary(repo: string): string {
  const end = logEvents(repo).at(-1);
  return end?.kind === 'session_end' ? end.summary : '(no session_end)';
}
