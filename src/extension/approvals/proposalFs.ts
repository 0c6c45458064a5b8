// In-memory documents for the two sides of an approval diff:
//   kite-original:/<key>/<path>   read-only, the file as it was when the model proposed the write
//   kite-proposal:/<key>/<path>   editable, the proposal; what the person keeps is what gets written
// Saving a proposal (Ctrl+S) only updates this memory: nothing touches the disk until Accept.
import * as vscode from 'vscode';

export const ORIGINAL_SCHEME = 'kite-original';
export const PROPOSAL_SCHEME = 'kite-proposal';

export function sideUri(scheme: string, key: string, relPath: string): vscode.Uri {
  // The path ends with the real file name so the editor picks the right language.
  return vscode.Uri.from({ scheme, path: `/${encodeURIComponent(key)}/${relPath.replace(/\\/g, '/')}` });
}

export class MemoryFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number; ctime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(private readonly readonly: boolean) {}

  set(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    const existed = this.files.has(uri.path);
    this.files.set(uri.path, { data: Buffer.from(text, 'utf8'), mtime: now, ctime: now });
    this.emitter.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri): void {
    if (this.files.delete(uri.path)) this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return {
      type: vscode.FileType.File,
      ctime: f.ctime,
      mtime: f.mtime,
      size: f.data.byteLength,
      permissions: this.readonly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {}

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    if (this.readonly) throw vscode.FileSystemError.NoPermissions('the left side shows the file as it is; edit the right side');
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    this.files.set(uri.path, { data: content, mtime: Date.now(), ctime: f.ctime });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposals cannot be renamed');
  }
}
