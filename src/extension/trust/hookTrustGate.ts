// Before a run starts, the workspace's hook commands (and, later, MCP servers: one list of things
// needing trust) must be approved on this machine. Like Copilot's MCP trust prompt: a modal naming
// every exact command line, Trust / Don't Trust. The decision is stored by the harness in the same
// store as `kite trust` (outside the workspace); anything but Trust leaves the run unstarted.
import * as vscode from 'vscode';
import type { TrustStatusWire } from '../../harness/protocol/rpc';
import type { HarnessClient } from '../harnessClient';
import { trustPromptText } from './trustPromptText';

export const TRUST = 'Trust';
export const DONT_TRUST = "Don't Trust";

/** Shows the modal; true only for Trust (a dismissed or refused modal is no). */
export type TrustAsker = (s: TrustStatusWire) => Promise<boolean>;

export const askTrustModal: TrustAsker = async (s) => {
  const t = trustPromptText(s);
  const pick = await vscode.window.showWarningMessage(t.message, { modal: true, detail: t.detail }, TRUST, DONT_TRUST);
  return pick === TRUST;
};

export class HookTrustGate {
  constructor(
    private readonly client: HarnessClient,
    private readonly log: vscode.LogOutputChannel,
    /** Replaceable for tests (this test mode refuses modals). */
    public ask: TrustAsker = askTrustModal,
  ) {}

  /** True when the run may start: nothing needs trust, it is already approved, or the person trusts it now. */
  async ensure(root: string): Promise<boolean> {
    const s = await this.client.trustStatus(root);
    if (s.error) {
      this.log.warn(`could not read what ${root} asks to trust: ${s.error}`);
      return true; // the run itself reports the broken config (and fails closed on hooks)
    }
    if (s.trusted) return true;
    let yes = false;
    try {
      yes = await this.ask(s);
    } catch (err) {
      this.log.error(`could not ask to trust the workspace's hooks (${String(err)}); not trusted`);
    }
    if (!yes) {
      this.log.warn(`hooks of ${root} not trusted: the run does not start`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Kite: the run did not start: this workspace\'s hook commands are not trusted on this machine. Start again to review them (or run `kite trust` in a terminal).'));
      return false;
    }
    const r = await this.client.trustWorkspace(root, s.digest);
    if (r.error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite: the hooks were not approved: {0}', r.error));
      return false;
    }
    this.log.info(`hooks of ${root} trusted (recorded in ${r.file})`);
    return true;
  }
}
