// Inline approval of a proposed write: a diff editor (left: the file as it is, read-only; right:
// the proposal, editable), a CodeLens Accept / Reject on every changed hunk, and Accept All /
// Reject All in the editor title. The final content is exactly what is left on the right.
import { nextAfterReject } from './rejectText';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { showControlChars } from '../../harness/protocol/controlChars';
import type { WireApprovalAnswer } from '../../harness/protocol/rpc';
import type { PendingApproval } from './approvalQueue';
import { computeHunks, hunkAnchorLine, hunkKey, hunkLabel, revertHunk, verdictFor } from '../../harness/protocol/hunks';
import { MemoryFs, ORIGINAL_SCHEME, PROPOSAL_SCHEME, sideUri } from './proposalFs';

/** A proposed path in a title or message: control characters escaped (the person sees the real name). */
const shownPath = (p: string) => showControlChars(p, { oneLine: true });

type WritePending = PendingApproval & { request: Extract<PendingApproval['request'], { kind: 'write' }> };

interface Session {
  pending: WritePending;
  original: vscode.Uri;
  proposal: vscode.Uri;
  accepted: Set<string>; // hunk keys the person accepted one by one
  reasons: string[]; // why the person rejected single hunks (optional; the agent reads them)
  finishing: boolean;
  opening: Promise<unknown> | null; // a diff being opened; closing waits for it, or the tab would outlive the session
}

/** Answers go through here (the controller sends them to the harness and shows the next one). */
export type AnswerSink = (p: PendingApproval, answer: WireApprovalAnswer) => Promise<void>;

export interface RejectArgs {
  reason?: string;
  uri?: vscode.Uri | string;
}

export class WriteApprovals implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly originals = new MemoryFs(true);
  private readonly proposals = new MemoryFs(false);
  private readonly sessions = new Map<string, Session>();
  private readonly lensChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensChanged.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly held = new vscode.EventEmitter<{ key: string; why: 'unsaved' | 'changed_on_disk' }>();
  /** An Accept was held back to protect the person's work (unsaved buffer, or the file changed on disk). */
  readonly onDidHold = this.held.event;

  constructor(
    private readonly answer: AnswerSink,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(ORIGINAL_SCHEME, this.originals, { isReadonly: true, isCaseSensitive: true }),
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.proposals, { isCaseSensitive: true }),
      vscode.languages.registerCodeLensProvider({ scheme: PROPOSAL_SCHEME }, this),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PROPOSAL_SCHEME) this.lensChanged.fire();
      }),
    );
  }

  /** Opens (or reveals) the diff for a pending write. */
  async open(p: WritePending): Promise<void> {
    let s = this.sessions.get(p.key);
    if (!s) {
      const original = sideUri(ORIGINAL_SCHEME, p.key, p.request.path);
      const proposal = sideUri(PROPOSAL_SCHEME, p.key, p.request.path);
      this.originals.set(original, p.request.before ?? '');
      this.proposals.set(proposal, p.request.proposed);
      s = { pending: p, original, proposal, accepted: new Set(), reasons: [], finishing: false, opening: null };
      this.sessions.set(p.key, s);
    }
    const verb = p.request.before === null ? 'new file' : p.request.tool === 'edit_file' ? 'edit' : 'rewrite';
    const title = `${shownPath(path.basename(p.request.path))}: as it is ↔ Kite's proposal (${verb})`;
    const opening = (s.opening = Promise.resolve(vscode.commands.executeCommand('vscode.diff', s.original, s.proposal, title, { preview: false })));
    await opening.finally(() => {
      if (s.opening === opening) s.opening = null;
    });
    if (this.sessions.get(p.key) === s) this.warnIfDirty(p);
  }

  has(key: string): boolean {
    return this.sessions.has(key);
  }

  /** The run no longer waits: close the diff without answering. */
  async withdraw(key: string): Promise<void> {
    const s = this.sessions.get(key);
    if (s) await this.closeSession(s);
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const s = this.sessionFor(doc.uri);
    if (!s) return [];
    const uri = doc.uri.toString();
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: `$(check-all) Accept All`, command: 'kite.acceptAll', arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: `$(close-all) Reject All…`, command: 'kite.rejectAll', arguments: [doc.uri] }),
    ];
    for (const h of computeHunks(s.pending.request.before ?? '', doc.getText())) {
      const key = hunkKey(h);
      const line = Math.min(hunkAnchorLine(h), Math.max(doc.lineCount - 1, 0));
      const range = new vscode.Range(line, 0, line, 0);
      if (s.accepted.has(key)) {
        lenses.push(new vscode.CodeLens(range, { title: `✓ accepted (${hunkLabel(h)})`, command: '' }));
        continue;
      }
      lenses.push(
        new vscode.CodeLens(range, { title: `$(check) Accept (${hunkLabel(h)})`, command: 'kite.acceptHunk', arguments: [uri, key] }),
        new vscode.CodeLens(range, { title: '$(discard) Reject', command: 'kite.rejectHunk', arguments: [uri, key] }),
      );
    }
    return lenses;
  }

  /** Keeps one hunk; when every hunk is decided the approval is answered. */
  async acceptHunk(uri: string, key: string): Promise<void> {
    const s = this.sessionFor(vscode.Uri.parse(uri));
    if (!s) return;
    s.accepted.add(key);
    this.lensChanged.fire();
    await this.finishIfDecided(s);
  }

  /**
   * Puts one hunk back to the file's current text in the proposal, after an optional reason (the
   * agent reads it with the answer). The prompt says what happens next: more hunks to decide, or,
   * for the last one, that Kite answers now. Escape keeps the hunk undecided.
   */
  async rejectHunk(uri: string, key: string, reason?: string): Promise<void> {
    const s = this.sessionFor(vscode.Uri.parse(uri));
    if (!s) return;
    const doc = await vscode.workspace.openTextDocument(s.proposal);
    const hunks = computeHunks(s.pending.request.before ?? '', doc.getText());
    const hunk = hunks.find((h) => hunkKey(h) === key);
    if (!hunk) return;
    const left = hunks.filter((h) => h !== hunk && !s.accepted.has(hunkKey(h))).length;
    reason ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('Reject this change to {0}', shownPath(s.pending.request.path)),
      prompt: vscode.l10n.t('Optional: why? {0}', nextAfterReject(left, s.accepted.size)),
      placeHolder: vscode.l10n.t('e.g. keep this comment as it is'),
      ignoreFocusOut: true,
    });
    if (reason === undefined) return; // Escape: the hunk stays undecided
    if (reason.trim()) s.reasons.push(reason.trim());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(s.proposal, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), revertHunk(doc.getText(), hunk));
    await vscode.workspace.applyEdit(edit);
    await this.finishIfDecided(s);
  }

  /** Writes what is on the right (accepted hunks plus any typing). */
  async acceptAll(target?: vscode.Uri | string): Promise<void> {
    const s = this.resolveTarget(target);
    if (!s) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no proposed write is open.'));
    await this.finish(s, undefined);
  }

  /** Leaves the file as it is and tells the model why. */
  async rejectAll(args?: vscode.Uri | string | RejectArgs): Promise<void> {
    const target = args instanceof vscode.Uri || typeof args === 'string' ? args : args?.uri;
    const s = this.resolveTarget(target);
    if (!s) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no proposed write is open.'));
    let reason = args instanceof vscode.Uri || typeof args === 'string' ? undefined : args?.reason;
    reason ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('Reject the change to {0}', shownPath(s.pending.request.path)),
      prompt: vscode.l10n.t('Why? The agent is told the file was not modified and reads your reason.'),
      placeHolder: vscode.l10n.t('e.g. keep the public API unchanged'),
      ignoreFocusOut: true,
    });
    if (reason === undefined) return; // Escape: still pending
    await this.send(s, { decision: 'deny', reason: reason.trim() || 'The person rejected the change without giving a reason.' });
  }

  private async finishIfDecided(s: Session): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(s.proposal);
    const open = computeHunks(s.pending.request.before ?? '', doc.getText()).filter((h) => !s.accepted.has(hunkKey(h)));
    if (open.length === 0) await this.finish(s, doc.getText());
  }

  private async finish(s: Session, text: string | undefined): Promise<void> {
    const final = text ?? (await vscode.workspace.openTextDocument(s.proposal)).getText();
    const r = s.pending.request;
    const verdict = verdictFor(r.before, r.proposed, final);
    const why = s.reasons.length ? ` Their reasons: ${s.reasons.map((x) => `"${x}"`).join('; ')}.` : '';
    if (verdict.decision === 'unchanged') {
      return this.send(s, { decision: 'deny', reason: `The person rejected every change in the diff.${why}` });
    }
    if (this.warnIfDirty(s.pending)) return; // never overwrite unsaved work behind the person's back
    if (!(await this.confirmIfChangedOnDisk(s.pending))) return;
    await this.send(s, verdict.decision === 'edit' && s.reasons.length ? { ...verdict, reason: s.reasons.join('; ') } : verdict);
  }

  /** The left side is the file as it was when the agent proposed; if it changed on disk since, ask first. */
  private async confirmIfChangedOnDisk(p: WritePending): Promise<boolean> {
    let now: string | null;
    try {
      now = await readFile(path.resolve(p.root, p.request.path), 'utf8');
    } catch {
      now = null; // absent
    }
    if (now === p.request.before) return true;
    this.held.fire({ key: p.key, why: 'changed_on_disk' });
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} changed on disk after the agent proposed this change, so the diff\'s left side is out of date. Accepting replaces the file with what is on the right.', shownPath(p.request.path)),
      vscode.l10n.t('Accept Anyway'),
    );
    return pick === vscode.l10n.t('Accept Anyway');
  }

  private async send(s: Session, answer: WireApprovalAnswer): Promise<void> {
    if (s.finishing) return;
    s.finishing = true;
    try {
      await this.answer(s.pending, answer);
      await this.closeSession(s);
    } catch (err) {
      s.finishing = false;
      this.log.error(`answering ${s.pending.request.path}: ${String(err)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite could not send your answer: {0}', String(err)));
    }
  }

  /** True (and a warning) when the target is open with unsaved changes. */
  private warnIfDirty(p: WritePending): boolean {
    const abs = path.resolve(p.root, p.request.path);
    const dirty = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === abs && d.isDirty);
    if (!dirty) return false;
    this.held.fire({ key: p.key, why: 'unsaved' });
    void vscode.window
      .showWarningMessage(vscode.l10n.t('{0} has unsaved changes. Kite will not write it until you save or revert them; then Accept again.', shownPath(p.request.path)), vscode.l10n.t('Show File'))
      .then((pick) => (pick ? vscode.window.showTextDocument(dirty) : undefined));
    return true;
  }

  private resolveTarget(target?: vscode.Uri | string): Session | undefined {
    if (target) return this.sessionFor(typeof target === 'string' ? vscode.Uri.parse(target) : target);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active) {
      const s = this.sessionFor(active);
      if (s) return s;
    }
    return this.sessions.values().next().value;
  }

  private sessionFor(uri: vscode.Uri): Session | undefined {
    if (uri.scheme !== PROPOSAL_SCHEME && uri.scheme !== ORIGINAL_SCHEME) return undefined;
    for (const s of this.sessions.values()) if (s.proposal.path === uri.path && s.proposal.query === uri.query) return s;
    return undefined;
  }

  private async closeSession(s: Session): Promise<void> {
    this.sessions.delete(s.pending.key);
    this.lensChanged.fire();
    await s.opening?.catch(() => undefined);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === s.proposal.toString());
    if (doc?.isDirty) await doc.save(); // to memory only; avoids a "save changes?" prompt on close
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === s.proposal.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
    this.originals.delete(s.original);
    this.proposals.delete(s.proposal);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.lensChanged.dispose();
    this.held.dispose();
  }
}

