// A real workspace for hook runs: a git repo with one feature (write hi.txt; verify: the file is
// there), .kite/config.json with the given hooks, approved with kite trust's own store (a state
// folder outside the workspace), run end to end by runFeature with a scripted model. Hooks are
// real shell commands run in the real sandbox.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { HooksConfig } from '../../../src/harness/hooks/hookConfig';
import { trustWorkspace } from '../../../src/harness/hooks/trust';
import type { Host } from '../../../src/harness/host';
import { reply, say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Message } from '../../../src/harness/protocol/content';
import type { EventOf, KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature, type RunOptions } from '../../../src/harness/run';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';

export { reply, say, use, ScriptedModel };

const PROGRESS = { goal: 'Greet', log: [], features: [{ id: 'F1', title: 'Write hi.txt', status: 'todo', verify: 'test -f hi.txt', notes: '' }] };

/** Approvals of this test process live in their own state folder, outside every workspace. */
export function useOwnTrustStore(): void {
  const saved = process.env.KITE_STATE_DIR;
  before(() => {
    process.env.KITE_STATE_DIR = tempDir('kite-state-');
  });
  after(() => {
    if (saved === undefined) delete process.env.KITE_STATE_DIR;
    else process.env.KITE_STATE_DIR = saved;
  });
}

/** A committed workspace whose .kite/config.json has these hooks, approved on this machine. */
export function hookedRepo(hooks: HooksConfig, files: Record<string, string> = {}): string {
  const root = tempRepo({ 'kite-progress.json': JSON.stringify(PROGRESS, null, 2), 'README.md': 'hi\n', ...files });
  mkdirSync(join(root, '.kite'), { recursive: true });
  writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ checks: [], hooks }, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'hooks');
  trustWorkspace(root, hooks);
  return root;
}

/** The replies of a run that writes hi.txt and says done. */
export const WRITES_HI = () => [use('write_file', 'w1', { path: 'hi.txt', content: 'hi\n' }), say('Done: wrote hi.txt.')];

export async function runIn(root: string, script: ConstructorParameters<typeof ScriptedModel>[0], extra: Partial<RunOptions> = {}, host: Host = new UnattendedHost()) {
  const model = new ScriptedModel(script);
  const summary = await runFeature({ root, mode: 'unattended', model: '', modelOverride: model, ...extra }, host);
  return { summary, model, events: readEvents(summary.logPath) };
}

export const readEvents = (path: string): KiteEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);

export const ofKind = <K extends KiteEvent['kind']>(events: readonly KiteEvent[], kind: K): EventOf<K>[] => events.filter((e): e is EventOf<K> => e.kind === kind);

/** A one-command hook group. */
export const hook = (command: string, opts: { matcher?: string; timeout?: number } = {}) => [{ ...(opts.matcher !== undefined ? { matcher: opts.matcher } : {}), hooks: [{ type: 'command' as const, command, ...(opts.timeout ? { timeout: opts.timeout } : {}) }] }];

/** All the text of a request's messages (text blocks and tool results). */
export const requestText = (messages: readonly Message[]): string =>
  messages.flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? String(b.content) : ''))).join('\n');

/** Fail closed: each (command, timeout) as the event's only hook ends the run as error before any model call, saying so. */
export async function assertEndsBeforeModel(event: 'SessionStart' | 'PromptSubmit', cases: readonly (readonly [string, number | undefined, RegExp])[]): Promise<void> {
  for (const [command, timeout, said] of cases) {
    const root = hookedRepo({ [event]: hook(command, timeout ? { timeout } : {}) });
    const { summary, model } = await runIn(root, WRITES_HI());
    assert.equal(summary.outcome, 'error', command);
    assert.equal(model.requests.length, 0, command);
    assert.match(summary.error ?? '', said);
  }
}
