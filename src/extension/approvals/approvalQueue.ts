// Pending approvals in arrival order. The Kite view lists them until answered; the first one is
// the one shown (diff editor or command prompt).
import * as vscode from 'vscode';
import type { WireApprovalRequest } from '../../harness/protocol/rpc';

export interface PendingApproval {
  key: string; // `${token}/${id}`
  token: string;
  id: string;
  root: string;
  log: string | null;
  request: WireApprovalRequest;
  receivedAt: number;
}

export function approvalKey(token: string, id: string): string {
  return `${token}/${id}`;
}

export class ApprovalQueue implements vscode.Disposable {
  private readonly items: PendingApproval[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  add(p: Omit<PendingApproval, 'key' | 'receivedAt'>): PendingApproval {
    const item: PendingApproval = { ...p, key: approvalKey(p.token, p.id), receivedAt: Date.now() };
    if (!this.get(item.key)) {
      this.items.push(item);
      this.changed.fire();
    }
    return item;
  }

  remove(key: string): PendingApproval | undefined {
    const i = this.items.findIndex((p) => p.key === key);
    if (i < 0) return undefined;
    const [gone] = this.items.splice(i, 1);
    this.changed.fire();
    return gone;
  }

  /** Drops every approval of the given runs (they ended or their server died). */
  removeRuns(tokens: readonly string[]): PendingApproval[] {
    const gone = this.items.filter((p) => tokens.includes(p.token));
    for (const g of gone) this.items.splice(this.items.indexOf(g), 1);
    if (gone.length) this.changed.fire();
    return gone;
  }

  get(key: string): PendingApproval | undefined {
    return this.items.find((p) => p.key === key);
  }

  all(): readonly PendingApproval[] {
    return this.items;
  }

  head(): PendingApproval | undefined {
    return this.items[0];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
