// Before a run starts, what the workspace asks to trust — its hook commands and its MCP servers
// not approved on this machine — is shown in one modal (like Copilot's MCP trust prompt: every
// exact command line, env variables by name only; Trust / Don't Trust). The decision is stored by
// the harness in the same store as `kite trust` (outside the workspace). Hooks not trusted: the
// run does not start. Only servers not trusted: the run starts without their tools (its start says
// so), and this window does not ask again for the same servers until the person asks to review them.
import * as vscode from 'vscode';
import type { TrustStatusWire } from '../../harness/protocol/rpc';
import type { HarnessClient } from '../harnessClient';
import { trustPromptText } from './trustPromptText';

export const TRUST = vscode.l10n.t('Trust');
export const DONT_TRUST = vscode.l10n.t("Don't Trust");

/** Shows the modal; true only for Trust (a dismissed or refused modal is no). */
export type TrustAsker = (s: TrustStatusWire) => Promise<boolean>;

export const askTrustModal: TrustAsker = async (s) => {
  const t = trustPromptText(s);
  const pick = await vscode.window.showWarningMessage(t.message, { modal: true, detail: t.detail }, TRUST, DONT_TRUST);
  return pick === TRUST;
};

const serverNames = (s: TrustStatusWire) => s.items.filter((i) => i.kind === 'mcp_server').map((i) => i.label.replace(/^MCP server /, ''));

export class HookTrustGate implements vscode.Disposable {
  /** Servers the person refused in this window (by digest): runs start without them, unasked. */
  private readonly declined = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** An approval was recorded (the MCP view refreshes). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly client: HarnessClient,
    private readonly log: vscode.LogOutputChannel,
    /** Replaceable for tests (this test mode refuses modals). */
    public ask: TrustAsker = askTrustModal,
  ) {}

  /**
   * True when the run may start: nothing needs trust, it is approved, the person trusts it now, or
   * only MCP servers were refused (the run goes without them). review: ask even if refused before.
   */
  async ensure(root: string, o: { review?: boolean } = {}): Promise<boolean> {
    const s = await this.client.trustStatus(root);
    if (s.error) {
      this.log.warn(`could not read what ${root} asks to trust: ${s.error}`);
      return true; // the run itself reports the broken config (and fails closed on hooks and servers)
    }
    if (s.trusted) return true;
    const serversOnly = s.hooks_trusted === true;
    if (serversOnly && !o.review && this.declined.has(s.digest)) {
      this.log.info(`MCP servers of ${root} were not trusted earlier in this window; the run starts without them`);
      return true;
    }
    let yes = false;
    try {
      yes = await this.ask(s);
    } catch (err) {
      this.log.error(`could not ask to trust the workspace's hooks and MCP servers (${String(err)}); not trusted`);
    }
    if (!yes && serversOnly) {
      this.declined.add(s.digest);
      const names = serverNames(s).join(', ');
      // No notification of our own: the run's start says which servers it goes without (runTracker).
      this.log.warn(`MCP servers of ${root} not trusted (${names}): runs start without their tools`);
      return !o.review;
    }
    if (!yes) {
      this.log.warn(`hooks of ${root} not trusted: the run does not start`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Kite: the run did not start: this workspace\'s hook commands are not trusted on this machine. Start again to review them (or run `kite trust` in a terminal).'));
      return false;
    }
    const r = await this.client.trustWorkspace(root, s.digest);
    if (r.error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite: nothing was approved: {0}', r.error));
      return false;
    }
    this.declined.delete(s.digest);
    this.log.info(`hooks and MCP servers of ${root} trusted (recorded in ${r.file})`);
    this.changed.fire();
    return true;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
