// The MCP suite's kit: a throw-away git project whose .kite/config.json (or .mcp.json) declares the
// REAL reference servers installed from npm (@modelcontextprotocol/server-filesystem and
// server-everything), run by the real runFeature with a scripted model, in the real bubblewrap
// sandbox. Approvals live in a private KITE_STATE_DIR outside the workspace.
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../../../src/harness/host';
import { ScriptedModel } from '../../../src/harness/model/scripted';
import type { Reply } from '../../../src/harness/protocol/content';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature, type RunSummary } from '../../../src/harness/run';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
/** The real node_modules (a symlink in a worktree): made visible read-only inside the sandbox. */
export const NODE_MODULES = realpathSync(join(ROOT, 'node_modules'));
export const FS_SERVER = join(NODE_MODULES, '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
export const EVERYTHING_SERVER = join(NODE_MODULES, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export type ServerSpec = { command: string; args?: string[]; env?: Record<string, string> };

export const fsServer = (root: string): ServerSpec => ({ command: process.execPath, args: [FS_SERVER, root] });
export const everythingServer = (env?: Record<string, string>): ServerSpec => ({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...(env ? { env } : {}) });

export interface McpProject {
  repo: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
}

/** A repo with one feature whose gate is `true`; `config` is merged into .kite/config.json. */
export function mcpProject(config: Record<string, unknown> = {}, files: Record<string, string> = {}): McpProject {
  const repo = tempRepo({
    'README.md': '# mcp test\n',
    'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: ['F1', 'F2', 'F3'].map((id) => ({ id, title: `Use MCP tools (${id})`, status: 'todo', verify: null, notes: '', expects_no_change: true })) }, null, 2) + '\n',
    '.kite/config.json': JSON.stringify({ checks: ['true'], sandbox: { mounts: { read_only: [NODE_MODULES] } }, ...config }, null, 2) + '\n',
    ...files,
  });
  const stateDir = tempDir('kite-mcp-state-');
  return { repo, stateDir, env: { ...process.env, KITE_STATE_DIR: stateDir } };
}

/** Replaces .kite/config.json (`config` over the kit's defaults) and commits it: runs need a clean tree. */
export function writeConfig(p: McpProject, config: Record<string, unknown>): void {
  writeFiles(p, { '.kite/config.json': JSON.stringify({ checks: ['true'], sandbox: { mounts: { read_only: [NODE_MODULES] } }, ...config }, null, 2) + '\n' });
}

export function writeFiles(p: McpProject, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(p.repo, rel)), { recursive: true });
    writeFileSync(join(p.repo, rel), text);
  }
  git(p.repo, 'add', '-A');
  git(p.repo, 'commit', '-q', '--allow-empty', '-m', 'test setup');
}

/** Answers every approval from a function; records what it was asked. */
export class AnsweringHost implements Host {
  readonly asked: ApprovalRequest[] = [];
  readonly events: KiteEvent[] = [];
  constructor(private readonly answer: (r: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer> = () => ({ decision: 'approve' })) {}
  approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return Promise.resolve(this.answer(request));
  }
  onEvent(e: KiteEvent): void {
    this.events.push(e);
  }
}

export function runScript(p: McpProject, replies: Reply[], host: Host = new AnsweringHost(), mode: 'attended' | 'unattended' = 'attended'): Promise<RunSummary> {
  return runFeature({ root: p.repo, mode, model: '', modelOverride: new ScriptedModel(replies), env: p.env }, host);
}

export async function logOf(path: string): Promise<KiteEvent[]> {
  return (await readLog(path)).events;
}

export function latestLog(repo: string): string {
  const dir = join(repo, '.kite', 'runs');
  const logs = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : [];
  if (!logs.length) throw new Error(`no log in ${dir}`);
  return join(dir, logs[logs.length - 1]);
}

export const warnings = (events: readonly KiteEvent[], code: string) => events.filter((e): e is Extract<KiteEvent, { kind: 'warning' }> => e.kind === 'warning' && e.code === code);
export const toolEvent = (events: readonly KiteEvent[], id: string) => events.find((e): e is Extract<KiteEvent, { kind: 'tool' }> => e.kind === 'tool' && e.id === id);
export const kindsFor = (events: readonly KiteEvent[], id: string) => events.filter((e) => 'id' in e && e.id === id && e.kind !== 'divergence').map((e) => e.kind);

/** Pids of live processes whose command line contains `needle` (the servers run inside bwrap). */
export function pidsRunning(needle: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ').includes(needle)) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export { readFileSync };
