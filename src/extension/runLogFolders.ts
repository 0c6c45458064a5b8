// The log folder of each workspace folder (`log_dir` in its .kite/config.json, default .kite/runs)
// and events for the logs in it. The Runs view, the timeline and the debugger's run pick read logs
// through this one object, so a custom log_dir shows everywhere, and an edit of the config moves
// them all to the new folder.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import * as vscode from 'vscode';
import { compareRunLogNames } from '../harness/events/runLogOrder';

// Loaded on first use: the config schema (zod) stays off the activation path.
type Harness = [typeof import('../harness/events/logFiles'), typeof import('../harness/config/config')];
let harnessP: Promise<Harness> | null = null;
const harness = (): Promise<Harness> => (harnessP ??= Promise.all([import('../harness/events/logFiles'), import('../harness/config/config')]));

export interface RunLogFile {
  path: string;
  mtime: number;
}

/** Changes when the config file is written, created or deleted. */
async function fileKey(path: string): Promise<string> {
  const s = await stat(path).catch(() => null);
  return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : 'none';
}

/** What changed: one log grew (the folder's listing is the same), or the listing may have changed
 *  (a log created or deleted, a log folder moved). */
export type RunLogChange = { grew: string } | { listing: true };
const LISTING: RunLogChange = { listing: true };

export class RunLogFolders implements vscode.Disposable {
  private readonly created = new vscode.EventEmitter<vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<RunLogChange>();
  /** A new log appeared in a workspace's log folder, or a run Kite drives started writing one. */
  readonly onDidCreateLog = this.created.event;
  /** A log grew, or was created or deleted, or a log folder moved (config edit, folders added). */
  readonly onDidChange = this.changed.event;
  private readonly dirs = new Map<string, { key: string; dir: string }>();
  /** Logs announced already (by the watcher or by logStarted): each is announced once. */
  private readonly announced = new Set<string>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly output?: vscode.LogOutputChannel) {
    // Every *.jsonl, kept when it lies in its folder's log folder as configured right now: a
    // log_dir edit needs no new watcher, and a run started just after the edit is not missed.
    const logs = vscode.workspace.createFileSystemWatcher('**/*.jsonl');
    const configs = vscode.workspace.createFileSystemWatcher('**/.kite/config.json');
    // The log folder itself, and the folders above it: deleting `.kite/runs` (or `.kite`) by hand is
    // reported as ONE event for the folder, none per log, and the logs a recreated folder gets at
    // once can come before VS Code watches inside it — so the Runs view kept deleted runs and missed
    // the next one. Creates and deletes only (VS Code hands an extension every workspace event and
    // matches the glob here; the check per event is a string comparison).
    const folders = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const fire = (): void => this.changed.fire(LISTING);
    this.disposables = [
      this.created,
      this.changed,
      logs,
      configs,
      folders,
      folders.onDidCreate((u) => this.onFolder(u, true)),
      folders.onDidDelete((u) => this.onFolder(u, false)),
      logs.onDidCreate((u) => void this.onLog(u, 'created')),
      logs.onDidChange((u) => void this.onLog(u, 'grew')),
      logs.onDidDelete((u) => void this.onLog(u, 'deleted')),
      configs.onDidCreate(fire),
      configs.onDidChange(fire),
      configs.onDidDelete(fire),
      vscode.workspace.onDidChangeWorkspaceFolders(fire),
    ];
  }

  /** The log folder of the workspace folder at `root`; the default one while its config is invalid. */
  async dirOf(root: string): Promise<string> {
    const [{ workspaceLogDir }, { CONFIG_FILE, ConfigError, DEFAULTS }] = await harness();
    const key = await fileKey(join(root, CONFIG_FILE));
    const hit = this.dirs.get(root);
    if (hit?.key === key) return hit.dir;
    let dir: string;
    try {
      dir = workspaceLogDir(root);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      dir = join(root, DEFAULTS.log_dir);
      this.output?.warn(`${e.message}; looking for run logs in ${dir}`);
    }
    this.dirs.set(root, { key, dir });
    return dir;
  }

  /** The logs of every workspace folder, newest first (ties: by name, which starts with a timestamp). */
  async logs(): Promise<RunLogFile[]> {
    const out: RunLogFile[] = [];
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const dir = await this.dirOf(f.uri.fsPath);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const n of names.filter((x) => x.endsWith('.jsonl'))) {
        const s = await stat(join(dir, n)).catch(() => null);
        if (s?.isFile()) out.push({ path: join(dir, n), mtime: s.mtimeMs });
      }
    }
    return out.sort((a, b) => b.mtime - a.mtime || compareRunLogNames(basename(b.path), basename(a.path)));
  }

  /**
   * The harness server named the log of a run it drives. The watcher alone is not enough: the
   * first log in a folder the run just created (a fresh log_dir) can come with no event at all.
   */
  logStarted(path: string): void {
    this.announce(vscode.Uri.file(path));
    this.changed.fire(LISTING);
  }

  private announce(uri: vscode.Uri): void {
    if (this.announced.has(uri.fsPath)) return;
    this.announced.add(uri.fsPath);
    this.created.fire(uri);
  }

  /** A path created or deleted: when it is a log folder known here or a folder above one, the
   *  listing changed; a recreated folder's logs are new runs (announced, so the timeline follows). */
  private onFolder(uri: vscode.Uri, created: boolean): void {
    const p = uri.fsPath;
    const hit = [...this.dirs.values()].find(({ dir }) => dir === p || dir.startsWith(p + sep));
    if (!hit) return;
    this.changed.fire(LISTING);
    if (created) void this.announceLogsIn(hit.dir);
  }

  private async announceLogsIn(dir: string): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names.filter((x) => x.endsWith('.jsonl')).sort()) this.announce(vscode.Uri.file(join(dir, n)));
  }

  private async onLog(uri: vscode.Uri, what: 'created' | 'grew' | 'deleted'): Promise<void> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || dirname(uri.fsPath) !== (await this.dirOf(folder.uri.fsPath))) return;
    if (what === 'created') this.announce(uri);
    this.changed.fire(what === 'grew' ? { grew: uri.fsPath } : LISTING);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
