// In-memory documents for the two sides of an approval diff:
//   kite-original:/<path>?<key>   read-only, the file as it was when the model proposed the write
//   kite-proposal:/<path>?<key>   editable, the proposal; what the person keeps is what gets written
// (the path is the workspace-relative file, so breadcrumbs and language detection read naturally;
// the query tells apart two approvals for the same file)
// Saving a proposal (Ctrl+S) only updates this memory: nothing touches the disk until Accept.
import * as vscode from 'vscode';

export const ORIGINAL_SCHEME = 'kite-original';
export const PROPOSAL_SCHEME = 'kite-proposal';

export function sideUri(scheme: string, key: string, relPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${relPath.replace(/\\/g, '/')}`, query: key });
}

const id = (uri: vscode.Uri): string => `${uri.path}?${uri.query}`;

export class MemoryFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number; ctime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(private readonly readonly: boolean) {}

  set(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    const existed = this.files.has(id(uri));
    this.files.set(id(uri), { data: Buffer.from(text, 'utf8'), mtime: now, ctime: now });
    this.emitter.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri): void {
    if (this.files.delete(id(uri))) this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(id(uri));
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
    const f = this.files.get(id(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    if (this.readonly) throw vscode.FileSystemError.NoPermissions('the left side shows the file as it is; edit the right side');
    const f = this.files.get(id(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    this.files.set(id(uri), { data: content, mtime: Date.now(), ctime: f.ctime });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposals cannot be renamed');
  }
}
