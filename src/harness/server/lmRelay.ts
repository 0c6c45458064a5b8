// The server's side of VS Code's language models: each reply is one Rpc.lmRequest to the extension,
// whose streamed parts come back as Rpc.lmPart notifications (same connection, so in order and
// before the answer). A stopped run cancels the request; the extension cancels the model's
// CancellationToken. Transport-free enough to test with a pair of in-memory connections.
import * as l10n from '@vscode/l10n';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import type { CancellationToken } from 'vscode-languageserver/node';
import { LmPartNotificationSchema, LmRequestResultSchema, type LmReplyPart, type LmRequestParams, type LmRequestResult } from '../protocol/languageModel';
import { Rpc } from '../protocol/rpc';

/** What the relay needs of a vscode-languageserver Connection. */
export interface LmConnection {
  sendRequest(method: string, params: unknown, token: CancellationToken): Promise<unknown>;
  onNotification(method: string, handler: (params: unknown) => void): unknown;
}

export class LanguageModelRelay {
  private readonly streams = new Map<string, (part: LmReplyPart) => void>();
  private counter = 0;

  constructor(
    private readonly connection: LmConnection,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    connection.onNotification(Rpc.lmPart, (p: unknown) => {
      const n = LmPartNotificationSchema.safeParse(p);
      if (!n.success) return this.warn(`bad ${Rpc.lmPart} from the extension: ${n.error.message}`);
      // A part of a request that already ended (cancelled) is dropped.
      this.streams.get(n.data.requestId)?.(n.data.part);
    });
  }

  async request(params: Omit<LmRequestParams, 'requestId'>, onPart: (part: LmReplyPart) => void, signal: AbortSignal): Promise<LmRequestResult> {
    const requestId = `lm${++this.counter}`;
    const cts = new CancellationTokenSource();
    const onAbort = () => {
      this.streams.delete(requestId); // what still streams in is for nobody
      cts.cancel();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.streams.set(requestId, onPart);
    try {
      const answer = await this.connection.sendRequest(Rpc.lmRequest, { ...params, requestId }, cts.token);
      const r = LmRequestResultSchema.safeParse(answer);
      if (r.success) return r.data;
      return { ok: false, code: 'unknown', message: l10n.t('the extension answered {0} with something Kite cannot read ({1})', Rpc.lmRequest, r.error.issues[0]?.message ?? 'invalid') };
    } catch (err) {
      if (signal.aborted) return { ok: false, code: 'cancelled', message: l10n.t('the run was stopped') };
      // No handler (an older extension), or the window went away mid-request.
      return { ok: false, code: 'unknown', message: l10n.t('the VS Code window could not answer ({0})', err instanceof Error ? err.message : String(err)) };
    } finally {
      this.streams.delete(requestId);
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}
