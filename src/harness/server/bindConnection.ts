// Binds a RunManager to a JSON-RPC connection (vscode-languageserver). Every incoming payload is
// parsed with the shared zod schemas in protocol/rpc.ts; a bad one is answered with InvalidParams.
import { CancellationTokenSource, ResponseError, ErrorCodes, type Connection } from 'vscode-languageserver/node';
import type { z } from 'zod';
import {
  AnswerApprovalParamsSchema,
  PersonEditedParamsSchema,
  ConfirmUnsandboxedResultSchema,
  ConfirmDoneResultSchema,
  ResolveSettingsParamsSchema,
  ResumeRunParamsSchema,
  Rpc,
  StartRunParamsSchema,
  StopRunParamsSchema,
  SteerParamsSchema,
  type SteerResult,
  type ResolvedSettings,
  type ServerLog,
} from '../protocol/rpc';
import { layerSettings } from '../config/settingsLayer';
import { LanguageModelRelay } from './lmRelay';
import { RunManager, type Notifier, type RunStarters } from './runManager';
import { bindEvalTrustRequests } from './evalTrustRequests';
import { configureL10n } from './l10nConfig';

function parse<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const r = schema.safeParse(params);
  if (r.success) return r.data;
  const where = r.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ');
  throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${where}`);
}

export function bindConnection(connection: Connection, starters: RunStarters): RunManager {
  const notify: Notifier = {
    event: (n) => void connection.sendNotification(Rpc.event, n),
    approvalRequested: (n) => void connection.sendNotification(Rpc.approvalRequested, n),
    approvalWithdrawn: (n) => void connection.sendNotification(Rpc.approvalWithdrawn, n),
    runEnded: (n) => void connection.sendNotification(Rpc.runEnded, n),
    log: (l: ServerLog) => void connection.sendNotification(Rpc.serverLog, l),
    stream: (n) => void connection.sendNotification(Rpc.stream, n),
    confirmUnsandboxed: async (q, signal) => {
      // A stopped run withdraws the question (the modal stays, but its answer is ignored).
      const cts = new CancellationTokenSource();
      const onAbort = () => cts.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const r = ConfirmUnsandboxedResultSchema.safeParse(await connection.sendRequest(Rpc.confirmUnsandboxed, q, cts.token));
        return r.success && r.data.run && !signal.aborted;
      } finally {
        signal.removeEventListener('abort', onAbort);
        cts.dispose();
      }
    },
  };
  notify.confirmDoneWithoutCheck = async (q, signal) => {
    const cts = new CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const r = ConfirmDoneResultSchema.safeParse(await connection.sendRequest(Rpc.confirmDoneWithoutCheck, q, cts.token));
      return r.success && r.data.done && !signal.aborted;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  };
  const relay = new LanguageModelRelay(connection, (message) => notify.log({ level: 'warn', message }));
  notify.languageModel = (params, onPart, signal) => relay.request(params, onPart, signal);
  const manager = new RunManager(starters, notify);

  connection.onRequest(Rpc.startRun, (params: unknown) => {
    const p = parse(StartRunParamsSchema, params, Rpc.startRun);
    notify.log({ level: 'info', message: `startRun ${p.featureId ?? '(current feature)'} in ${p.root} (${p.mode})` });
    return { token: manager.start(p) };
  });
  connection.onRequest(Rpc.resumeRun, (params: unknown) => {
    const p = parse(ResumeRunParamsSchema, params, Rpc.resumeRun);
    notify.log({ level: 'info', message: `resumeRun ${p.log}` });
    return { token: manager.resume(p) };
  });
  connection.onRequest(Rpc.resolveSettings, (params: unknown): ResolvedSettings => {
    const p = parse(ResolveSettingsParamsSchema, params, Rpc.resolveSettings);
    const { model, summary, warnings, problems } = layerSettings(p.settings, p.root);
    return { model, summary, warnings, problems };
  });
  connection.onRequest(Rpc.stopRun, (params: unknown) => {
    const p = parse(StopRunParamsSchema, params, Rpc.stopRun);
    return { stopped: manager.stop(p.token) };
  });
  connection.onRequest(Rpc.answerApproval, (params: unknown) => {
    const p = parse(AnswerApprovalParamsSchema, params, Rpc.answerApproval);
    return { accepted: manager.answer(p.token, p.id, p.answer) };
  });
  connection.onRequest(Rpc.personEdited, (params: unknown) => {
    const p = parse(PersonEditedParamsSchema, params, Rpc.personEdited);
    return { runs: manager.personEdited(p.paths) };
  });
  connection.onRequest(Rpc.steer, (params: unknown): SteerResult => {
    const p = parse(SteerParamsSchema, params, Rpc.steer);
    const r = manager.steer(p.token, p.text);
    notify.log({ level: 'info', message: `steer ${p.token}: ${r.queued ? `queued (${r.waiting} waiting)` : 'no such run'}` });
    return r;
  });
  connection.onRequest(Rpc.listRuns, () => ({ runs: manager.list() }));
  bindEvalTrustRequests(connection, notify.log);
  connection.onRequest(Rpc.serverInfo, () => ({ pid: process.pid, node: process.version }));
  connection.onInitialize((init) => {
    configureL10n(init.initializationOptions, (message) => notify.log({ level: 'warn', message }));
    return { capabilities: {}, serverInfo: { name: 'kite-harness' } };
  });
  // No cancelling on shutdown: a window reload or close must leave runs resumable (their logs end
  // without session_end, like a crash), so a pending approval is asked again after the reload.
  // Stopping a run is the person's explicit Stop Agent (stopRun).
  connection.onShutdown(() => notify.log({ level: 'info', message: `shutting down; ${manager.list().length} run(s) left resumable` }));
  return manager;
}
