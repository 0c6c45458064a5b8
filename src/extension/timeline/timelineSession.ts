// One webview showing one log. After the page's `ready` it reads the log from the start and sends
// a snapshot (in chunks), then follows the file and sends only increments. A reloaded page says
// `ready` again and gets a fresh snapshot. Every message from the page is validated.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { KiteEvent, SessionStart } from '../../harness/protocol/events';
import { ViewMessageSchema, describeIssues, trimEventForView, type HostMessage, type TimelineSource } from '../../harness/protocol/webviewMessages';
import type { FeedReport } from '../../harness/protocol/timelineFeedMessages';
import type { PackedMessage } from '../../harness/protocol/packedMessage';
import { openTimelineFeed, type FeedHandle } from '../../harness/events/timelineFeedThread';
import type { ActionSource, RowActions } from './rowActions';
import { timelineHtml, makeNonce } from './timelineHtml';
import { WriteIndex } from '../../harness/events/writeResolver';
import { logIsBeingWritten } from '../../harness/events/logLock';
import { BatchPacer } from './batchPacer';

export interface AppliedState {
  log: string | null;
  events: number;
  lastSeq: number | null;
  selected: number | null;
  /** The header's turns, tokens and cost. */
  totals: { turns: number; tokens: number; cost_usd: number };
  /** Times the page loaded (said `ready`): more than one means it was reloaded and read the log again. */
  pageLoads: number;
}

/** Sets up a webview for the timeline page: scripts on, resources only from dist/webview. */
export function configureTimelineWebview(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): void {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  webview.options = { enableScripts: true, localResourceRoots: [root] };
  webview.html = timelineHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.css')).toString(),
    nonce: makeNonce(),
    title,
  });
}

export class TimelineSession implements vscode.Disposable, ActionSource {
  /** The log's reader (events/timelineFeed.ts): it sends the page's batches ready to post. */
  private feed: FeedHandle | null = null;
  private ready = false;
  /** A batch reached the page (the snapshot): later batches that are not history mean "live". */
  private snapshotSent = false;
  /** The history has been sent in full (a reveal waits for it). */
  private loaded = false;
  private pendingReveal: number | null = null;
  private generation = 0;
  private pageLoads = 0;
  writes = new WriteIndex();
  start: SessionStart | null = null;
  private readonly applied = new vscode.EventEmitter<AppliedState>();
  /** The page reported what it holds (after each message it applied): a test hook. */
  readonly onDidApply = this.applied.event;
  lastApplied: AppliedState | null = null;
  private readonly subscription: vscode.Disposable;
  /** The reader waits for the page to take and apply what it was sent. */
  private readonly pacer = new BatchPacer();

  constructor(
    private readonly webview: vscode.Webview,
    private readonly actions: RowActions,
    private log: string | null,
    private readonly emptyMessage: string,
    private readonly output?: vscode.LogOutputChannel,
  ) {
    this.subscription = webview.onDidReceiveMessage((m: unknown) => this.receive(m));
  }

  get logPath(): string {
    return this.log ?? '';
  }

  /** Shows another log (or none); the page gets a new snapshot. */
  setLog(path: string | null): void {
    if (path === this.log) return;
    this.log = path;
    if (this.ready) this.restart();
  }

  async event(seq: number): Promise<KiteEvent | null> {
    return this.feed ? this.feed.event(seq) : null;
  }

  async raw(seq: number): Promise<string | null> {
    return this.feed ? this.feed.rawLine(seq) : null;
  }

  /** Handles one message from the page (validated here; also the integration tests' way in). */
  receive(raw: unknown): void {
    const parsed = ViewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.output?.warn(`timeline: ignored an invalid message from the webview: ${describeIssues(parsed.error)}`);
      return;
    }
    const m = parsed.data;
    const act = (p: Promise<void>) => p.catch((e: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Kite timeline: {0}', String(e))));
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.pageLoads++;
        this.restart();
        return;
      case 'applied':
        this.pacer.pageApplied(m.batches);
        this.lastApplied = { log: this.log, events: m.events, lastSeq: m.lastSeq, selected: m.selected, totals: m.totals, pageLoads: this.pageLoads };
        this.applied.fire(this.lastApplied);
        return;
      case 'openDiff':
        void act(this.actions.openDiff(this, m.seq));
        return;
      case 'openOutput':
        void act(this.actions.openOutput(this, m.seq));
        return;
      case 'openRaw':
        void act(this.actions.openRaw(this, m.seq));
        return;
      case 'replayFromHere':
        void act(this.actions.replayFromHere(this, m.seq));
        return;
      case 'steer':
        void this.steer(m.text);
        return;
      case 'addToEvals':
        if (this.log) void act(Promise.resolve(vscode.commands.executeCommand('kite.addToEvals', { log: this.log })).then(() => undefined));
        return;
      case 'restoreToHere':
        void act(this.actions.restoreToHere(this, m.seq));
        return;
      case 'detail':
        void this.sendDetail(m.seq);
        return;
      default:
        m satisfies never;
    }
  }

  /** The reply being generated, when it belongs to the log this page shows. */
  stream(n: { log: string | null; turn: number; text: string; thinking: string }): void {
    if (this.ready && n.log !== null && n.log === this.log) this.post({ type: 'stream', turn: n.turn, text: n.text, thinking: n.thinking });
  }

  /** The box's message goes where "Kite: Tell the Agent…" sends it; the page announces the outcome. */
  private async steer(text: string): Promise<void> {
    try {
      const r = (await vscode.commands.executeCommand('kite.tellAgent', { text, log: this.log })) as { status?: string; message?: string } | undefined;
      this.post({ type: 'steerResult', ok: r?.status === 'queued', message: r?.message ?? 'Nothing was sent.' });
    } catch (e) {
      this.post({ type: 'steerResult', ok: false, message: `The message could not be sent: ${String(e)}` });
    }
  }

  /** The page keeps only recent events: it asks for an older one when a person selects it. */
  private async sendDetail(seq: number): Promise<void> {
    const gen = this.generation;
    const event = await this.event(seq).catch(() => null);
    if (gen === this.generation) this.post({ type: 'detail', seq, event: event ? trimEventForView(event) : null });
  }

  private post(msg: HostMessage): void {
    void this.webview.postMessage(msg);
  }

  /** Posts a batch of events, packed by the reader (one buffer for VS Code to copy, not a value
   *  tree to walk); resolves when the page took it (false when it could not). */
  private postBatch(message: PackedMessage): Promise<unknown> {
    return Promise.resolve(this.webview.postMessage(message)).catch(() => false);
  }

  private restart(): void {
    this.feed?.dispose();
    this.feed = null;
    this.writes = new WriteIndex();
    this.start = null;
    this.snapshotSent = false;
    this.loaded = false;
    this.lastApplied = null;
    this.pacer.reset();
    const gen = ++this.generation;
    const path = this.log;
    if (!path) {
      this.post({ type: 'empty', message: this.emptyMessage });
      return;
    }
    void Promise.resolve()
      .then(() => logIsBeingWritten(path))
      .then((live) => {
        if (gen !== this.generation) return;
        // "Live" = a Kite holds the log's lock now (not: written lately, which an interrupted run
        // also was); a quiet log becomes live again when something is appended.
        const source: TimelineSource = { log: path, title: basename(path, '.jsonl'), live };
        this.feed = openTimelineFeed({ log: path, source }, (r) => this.onFeed(gen, source, r));
      })
      .catch((e: unknown) => this.post({ type: 'status', live: false, message: `Cannot read ${path}: ${String(e)}` }));
  }

  private onFeed(gen: number, source: TimelineSource, r: FeedReport): Promise<void> | undefined {
    if (gen !== this.generation) return;
    switch (r.type) {
      case 'batch':
        return this.sendBatch(source, r);
      case 'reset':
        this.output?.info(`timeline: ${source.log} shrank or was replaced; reading it again`);
        this.restart();
        return;
      case 'gone':
        this.post({ type: 'status', live: false, message: `The log file ${source.log} was removed.` });
        return;
      case 'error':
        this.post({ type: 'status', live: false, message: r.message });
        return;
      case 'answer':
        return; // the reader's own business (FeedHandle)
      default:
        r satisfies never;
    }
  }

  /** Resolves when the reader may go on (the page is taking the messages). */
  private sendBatch(source: TimelineSource, batch: FeedReport & { type: 'batch' }): Promise<void> {
    if (!batch.initial && batch.events > 0 && !source.live && this.snapshotSent) {
      source.live = true;
      this.post({ type: 'status', live: true, message: null });
    }
    for (const fact of batch.writes) this.writes.addFact(fact);
    if (batch.start) this.start = batch.start;
    if (batch.initial && batch.done) this.loaded = true;
    this.snapshotSent = true;
    const posted = this.postBatch(batch.message);
    if (this.loaded && this.pendingReveal !== null) {
      this.post({ type: 'reveal', seq: this.pendingReveal });
      this.pendingReveal = null;
    }
    return this.pacer.posted(posted);
  }

  /** Selects the event with this seq in the page (once the history is there). */
  reveal(seq: number): void {
    if (this.ready && this.loaded) this.post({ type: 'reveal', seq });
    else this.pendingReveal = seq;
  }

  dispose(): void {
    this.generation++;
    this.pacer.reset();
    this.feed?.dispose();
    this.subscription.dispose();
    this.applied.dispose();
  }
}
