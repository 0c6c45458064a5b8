// The replay sessions of big recorded logs, by log. Their adapter (a process of its own: see
// adapterPlacement.ts) has already indexed the log — a 1M-event log takes it tens of seconds and
// hundreds of MB — so a transcript document of that log is asked of it, with the `source` request
// it answers any DAP client with, instead of indexing the same log again on the extension host.
// The adapter made the frames' lines, so the document matches them by construction. When a
// document's text changes — a problem found later (the background chain check), or the index
// complete after a big log's first window was served with its header's counts "so far" — a
// custom event says so: that log's documents are then re-rendered. A session is asked only
// between its first stop and the moment it starts to end: a session torn down with a request of
// ours in flight kept VS Code's focus, and the next session's transcript never opened. A small log is read here as before (it takes milliseconds).
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { adapterRunsOutOfProcess } from '../../harness/replay/adapterPlacement';
import { LOG_PROBLEMS_EVENT, TRANSCRIPT_CHANGED_EVENT } from '../../harness/replay/transcriptWindow';
import { DEBUG_TYPE } from './transcriptDocuments';

/** Documents re-rendered at most this often while a chain check keeps finding problems. */
const REFRESH_MS = 500;

export class ReplaySessions implements vscode.Disposable {
  /** Sessions that stopped at least once and are not ending, with the log they replay. */
  private readonly logOf = new Map<string, { session: vscode.DebugSession; log: string }>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    /** The text of this log's documents changed: a problem found, or the index complete. */
    onTextChanged: (log: string) => void,
    /** A session that has not answered by then (stuck) is not waited for: the log is read here.
     *  Long, because reading a log this big here costs the extension host far more than waiting:
     *  with a 1M-event timeline loading on two busy cores, the adapter's answer to the first
     *  window's `source` request took 18-20 s while it waited for the whole log (0.8-2.3 s since
     *  it waits only for the window's lines). */
    private readonly answerMs = 60_000,
  ) {
    this.subscriptions = [
      vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
        createDebugAdapterTracker: (session) => {
          const log = servedLog(session);
          if (!log) return undefined;
          const ending = () => this.logOf.delete(session.id);
          return {
            onDidSendMessage: (m: DebugProtocol.ProtocolMessage) => {
              const e = m.type === 'event' ? (m as DebugProtocol.Event).event : null;
              if (e === 'stopped' && !this.logOf.has(session.id)) this.logOf.set(session.id, { session, log });
              else if (e === 'terminated' || e === 'exited') ending();
            },
            onWillReceiveMessage: (m: DebugProtocol.ProtocolMessage) => {
              const command = m.type === 'request' ? (m as DebugProtocol.Request).command : null;
              if (command === 'disconnect' || command === 'terminate') ending();
            },
            onWillStopSession: ending,
            onExit: ending,
            onError: ending,
          };
        },
      }),
      vscode.debug.onDidTerminateDebugSession((s) => this.logOf.delete(s.id)),
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        const log = this.logOf.get(e.session.id)?.log;
        if ((e.event !== LOG_PROBLEMS_EVENT && e.event !== TRANSCRIPT_CHANGED_EVENT) || !log || this.pending.has(log)) return;
        this.pending.set(
          log,
          setTimeout(() => {
            this.pending.delete(log);
            onTextChanged(log);
          }, REFRESH_MS),
        );
      }),
    ];
  }

  /** The text a replay session of `log` serves for this document, or why none did (the caller then reads the log itself). */
  async transcript(log: string, uri: vscode.Uri): Promise<{ text: string; ms: number } | { why: string }> {
    const whys: string[] = [];
    const t0 = performance.now();
    // The latest session first: the one whose frames VS Code is showing now.
    for (const { session, log: replayed } of [...this.logOf.values()].reverse()) {
      if (replayed !== log) continue;
      try {
        const r = (await within(this.answerMs, session.customRequest('source', { source: { path: uri.toString() } }))) as { content?: unknown } | undefined;
        if (typeof r?.content === 'string') return { text: r.content, ms: performance.now() - t0 };
        whys.push(r === undefined ? `session "${session.name}" did not answer within ${this.answerMs} ms` : `session "${session.name}" answered without text`);
      } catch (e) {
        // The session ended meanwhile, or the window is not one it made.
        whys.push(`session "${session.name}" could not: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return { why: whys.join('; ') || 'no replay session that has stopped holds this log' };
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The promise's value, or undefined once `ms` passed without one. */
async function within<T>(ms: number, p: Thenable<T>): Promise<T | undefined> {
  let timer: number | NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<undefined>((done) => (timer = setTimeout(done, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The log whose transcript a session's adapter serves: a recorded replay (a live one shows the
 *  live run's log) in the adapter's own process (a log big enough to be worth not reading twice). */
function servedLog(s: vscode.DebugSession): string | null {
  const c = s.configuration;
  if (c.request !== 'launch' || c.mode === 'live' || typeof c.log !== 'string') return null;
  const log = resolve(c.log);
  return adapterRunsOutOfProcess(c.mode, log) ? log : null;
}
