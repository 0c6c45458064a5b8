// A local server that speaks the Anthropic Messages API (POST /v1/messages, JSON and SSE), answers
// from a script keyed by turn, validates every request like the service, simulates prompt caching
// and injects faults on demand. Used by the adapter tests, the benchmark and by hand (cli.ts).
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { AssistantBlock } from '../../src/harness/protocol/content';
import { CacheSimulator, promptTokensOf, tokensOf } from './caching';
import { newRequestId, sendError, sendHttpFault } from './faults';
import { FaultSchema, type Fault, type ScriptEntry } from './script';
import { formatSse, messageEvents, type FakeMessage, type FullUsage } from './sse';
import { countCacheControl, presentedKey, validateAuth, validateBody, type ApiErrorInfo } from './validation';

export interface FakeAnthropicOptions {
  script: ScriptEntry[];
  host?: string;
  port?: number; // 0 (default): any free port
  /** Keys the server accepts; null (default) accepts any non-empty key. */
  apiKeys?: string[] | null;
  clock?: () => number;
  minCacheTokens?: number;
  chunkChars?: number; // size of text/json pieces in the stream
  eventDelayMs?: number; // pause between SSE events, so a test can act mid-stream
  /** Context window in tokens, one for every model or per model id: a longer prompt gets the
   *  service's 400 "prompt is too long". Absent: no limit. */
  contextWindow?: number | Record<string, number>;
  /** Replies for requests that carry no tools (Kite's compaction summaries), in order, so a
   *  script of turns need not know when compaction happens. Absent: such requests use the script. */
  summaries?: ScriptEntry[];
}

export type RequestOutcome = 'served' | 'rejected' | 'fault' | 'client_closed';

export interface RecordedRequest {
  n: number; // 1-based request number
  turn: number | null; // 1-based script turn it was answered from (null when rejected before that)
  stream: boolean;
  status: number;
  outcome: RequestOutcome;
  body: unknown;
  error?: ApiErrorInfo;
  fault?: Fault;
  usage?: FullUsage;
  cacheControlBlocks: number;
  keyPresented: boolean; // never the key itself
}

const ControlFaultsSchema = z.object({ turn: z.number().int().positive().optional(), faults: z.array(FaultSchema) });

type Obj = Record<string, unknown>;

export class FakeAnthropicServer extends EventEmitter {
  readonly requests: RecordedRequest[] = [];
  readonly cache: CacheSimulator;
  private nextTurn = 0; // 0-based index of the script entry the next reply comes from
  private nextSummary = 0; // 0-based index into opts.summaries
  private readonly faults = new Map<number, Fault[]>();
  private readonly http: Server;
  private address = '';

  private constructor(private readonly opts: FakeAnthropicOptions) {
    super();
    this.cache = new CacheSimulator({ clock: opts.clock, minCacheTokens: opts.minCacheTokens });
    opts.script.forEach((e, i) => e.faults?.length && this.faults.set(i, [...e.faults]));
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  static async start(opts: FakeAnthropicOptions): Promise<FakeAnthropicServer> {
    const s = new FakeAnthropicServer(opts);
    await new Promise<void>((resolve, reject) => {
      s.http.once('error', reject);
      s.http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
    });
    const a = s.http.address() as AddressInfo;
    s.address = `http://${a.address}:${a.port}`;
    return s;
  }

  /** Base URL for the SDK (ANTHROPIC_BASE_URL). */
  get url(): string {
    return this.address;
  }

  /** How many replies have been served completely. */
  get turnsServed(): number {
    return this.nextTurn;
  }

  /** Queue faults for a 1-based turn (default: the next turn to be served). */
  addFaults(faults: Fault[], turn = this.nextTurn + 1): void {
    this.faults.set(turn - 1, [...(this.faults.get(turn - 1) ?? []), ...faults]);
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private record(r: RecordedRequest): void {
    this.requests.push(r);
    this.emit('request', r);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const path = (req.url ?? '/').split('?')[0];
    try {
      const raw = await readBody(req);
      if (path?.startsWith('/_control/')) return this.control(path, req.method ?? 'GET', raw, res, requestId);
      if (path !== '/v1/messages') return sendError(res, 404, 'not_found_error', `Not found: ${req.method} ${path}`, requestId);
      if (req.method !== 'POST') return sendError(res, 405, 'invalid_request_error', `Method ${req.method} not allowed`, requestId);
      await this.messages(req.headers, raw, res, requestId);
    } catch (e) {
      if (!res.headersSent) sendError(res, 500, 'api_error', `fake-anthropic: ${(e as Error).message}`, requestId);
      else res.destroy();
    }
  }

  private async messages(headers: IncomingHttpHeaders, raw: string, res: ServerResponse, requestId: string): Promise<void> {
    const base = { n: this.requests.length + 1, turn: null, stream: false, keyPresented: presentedKey(headers) !== null, cacheControlBlocks: 0 };
    const reject = (error: ApiErrorInfo, body: unknown) => {
      this.record({ ...base, body, status: error.status, outcome: 'rejected', error });
      sendError(res, error.status, error.type, error.message, requestId);
    };
    const authError = validateAuth(headers, this.opts.apiKeys ?? null);
    if (authError) return reject(authError, null);
    let body: Obj;
    try {
      body = JSON.parse(raw) as Obj;
    } catch {
      return reject({ status: 400, type: 'invalid_request_error', message: 'There was an error parsing the body of your request: invalid JSON' }, raw);
    }
    const bodyError = validateBody(body);
    if (bodyError) return reject(bodyError, body);
    const tooLong = this.overWindow(body);
    if (tooLong) return reject(tooLong, body);
    const stream = body.stream === true;
    const rec = { ...base, body, stream, cacheControlBlocks: countCacheControl(body) };
    const summaries = this.opts.summaries;
    if (summaries && !(Array.isArray(body.tools) && body.tools.length)) return this.serveSummary(summaries, body, rec, res, requestId);
    const turn = this.nextTurn;
    const entry = this.opts.script[turn];
    if (!entry) {
      this.record({ ...rec, status: 500, outcome: 'fault' });
      const msg = `fake-anthropic: the script has ${this.opts.script.length} replies; there is none for request turn ${turn + 1}`;
      return sendError(res, 500, 'api_error', msg, requestId, { 'x-should-retry': 'false' });
    }
    const fault = this.faults.get(turn)?.shift();
    const closed = clientClosed(res);
    this.emit('arrived', { ...rec, turn: turn + 1 });
    if (fault && (fault.kind === 'rate_limit' || fault.kind === 'overloaded' || fault.kind === 'server_error')) {
      this.record({ ...rec, turn: turn + 1, status: fault.kind === 'rate_limit' ? 429 : fault.kind === 'overloaded' ? 529 : 500, outcome: 'fault', fault });
      return sendHttpFault(res, fault, requestId);
    }
    if (fault?.kind === 'slow') await delay(fault.delay_ms, closed.promise);
    if (closed.value) return this.record({ ...rec, turn: turn + 1, status: 0, outcome: 'client_closed', fault });

    const cache = this.cache.account(body);
    const content = normalize(entry.content);
    const usage: FullUsage = { ...cache, output_tokens: entry.usage?.output_tokens ?? tokensOf(JSON.stringify(content).length) };
    const message: FakeMessage = {
      id: 'msg_' + randomBytes(12).toString('hex'),
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content,
      stop_reason: entry.stop_reason,
      stop_sequence: entry.stop_reason === 'stop_sequence' ? String((body.stop_sequences as string[] | undefined)?.[0] ?? '###') : null,
      usage,
    };
    const done = { ...rec, turn: turn + 1, usage };
    if (!stream) {
      this.nextTurn++;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify(message));
      return this.record({ ...done, status: 200, outcome: 'served', fault });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId });
    const events = messageEvents(message, this.opts.chunkChars);
    const cutAt = fault?.kind === 'drop' || fault?.kind === 'stream_error' ? Math.min(fault.after_events, events.length - 1) : Infinity;
    for (const [i, e] of events.entries()) {
      if (closed.value) return this.record({ ...done, status: 200, outcome: 'client_closed', fault });
      if (i === cutAt && fault?.kind === 'drop') {
        // Let the events already written reach the client, then cut the connection.
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        await new Promise<void>((resolve) => setImmediate(resolve));
        res.socket?.destroy();
        return this.record({ ...done, status: 200, outcome: 'fault', fault });
      }
      if (i === cutAt && fault?.kind === 'stream_error') {
        res.end(formatSse({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));
        return this.record({ ...done, status: 200, outcome: 'fault', fault });
      }
      res.write(formatSse(e));
      if (this.opts.eventDelayMs && i < events.length - 1) await delay(this.opts.eventDelayMs, closed.promise);
    }
    this.nextTurn++; // synchronously with the final write: the next request is for the next turn
    res.end();
    this.record({ ...done, status: 200, outcome: 'served', fault });
  }

  /** A request without tools answered from `summaries` (no faults, never advances the script). */
  private serveSummary(summaries: ScriptEntry[], body: Obj, rec: Omit<RecordedRequest, 'status' | 'outcome' | 'turn'>, res: ServerResponse, requestId: string): void {
    const entry = summaries[this.nextSummary];
    if (!entry) {
      this.record({ ...rec, turn: null, status: 500, outcome: 'fault' });
      return sendError(res, 500, 'api_error', `fake-anthropic: no summary reply left (${summaries.length} given)`, requestId, { 'x-should-retry': 'false' });
    }
    this.nextSummary++;
    const content = normalize(entry.content);
    const usage: FullUsage = { ...this.cache.account(body), output_tokens: entry.usage?.output_tokens ?? tokensOf(JSON.stringify(content).length) };
    const message: FakeMessage = { id: 'msg_' + randomBytes(12).toString('hex'), type: 'message', role: 'assistant', model: String(body.model), content, stop_reason: entry.stop_reason, stop_sequence: null, usage };
    if (rec.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId });
      for (const e of messageEvents(message, this.opts.chunkChars)) res.write(formatSse(e));
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify(message));
    }
    this.record({ ...rec, turn: null, usage, status: 200, outcome: 'served' });
  }

  /** The service's answer to a prompt longer than the model's window (same type and wording). */
  private overWindow(body: Obj): ApiErrorInfo | null {
    const w = this.opts.contextWindow;
    const max = typeof w === 'number' ? w : w?.[String(body.model)];
    if (max === undefined) return null;
    const n = promptTokensOf(body);
    return n > max ? { status: 400, type: 'invalid_request_error', message: `prompt is too long: ${n} tokens > ${max} maximum` } : null;
  }

  private control(path: string, method: string, raw: string, res: ServerResponse, requestId: string): void {
    if (path === '/_control/state' && method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const requests = this.requests.map(({ body: _b, ...r }) => r);
      res.end(JSON.stringify({ turnsServed: this.nextTurn, scriptLength: this.opts.script.length, requests }));
      return;
    }
    if (path === '/_control/faults' && method === 'POST') {
      let parsed: z.infer<typeof ControlFaultsSchema>;
      try {
        parsed = ControlFaultsSchema.parse(JSON.parse(raw));
      } catch (e) {
        return sendError(res, 400, 'invalid_request_error', `faults: ${(e as Error).message}`, requestId);
      }
      this.addFaults(parsed.faults, parsed.turn);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, turn: parsed.turn ?? this.nextTurn + 1 }));
      return;
    }
    sendError(res, 404, 'not_found_error', `Not found: ${method} ${path}`, requestId);
  }
}

/** Thinking blocks always carry a signature in real replies. */
function normalize(content: AssistantBlock[]): AssistantBlock[] {
  return content.map((b, i) => (b.type === 'thinking' && !b.signature ? { ...b, signature: `sig_${i}_${b.thinking.length}` } : b));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Tracks whether the client went away before the response finished. */
function clientClosed(res: ServerResponse): { value: boolean; promise: Promise<void> } {
  const state = { value: false, promise: Promise.resolve() };
  state.promise = new Promise<void>((resolve) =>
    res.on('close', () => {
      if (!res.writableFinished) state.value = true;
      resolve();
    }),
  );
  return state;
}

function delay(ms: number, cancel: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    void cancel.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
