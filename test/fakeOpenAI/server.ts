// A local server that speaks OpenAI's chat completions (POST /v1/chat/completions, JSON and SSE),
// answers from a script keyed by turn, validates every request like the service and answers
// errors in its shape, reports usage with cached prompt tokens, and injects faults on demand
// (429 with retry-after, 500, 503, a cut stream, an error inside the stream, a slow first byte).
// The OpenAI adapter's tests point the real `openai` SDK at it, like test/fakeAnthropic.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fault, ScriptEntry } from './script';
import { validateAuth, validateBody, presentedKey, type OpenAIErrorInfo } from './validation';
import { completionChunks, completionJson, promptUsage, tokensOf, wireReply, type Usage } from './wire';

export interface FakeOpenAIOptions {
  script: ScriptEntry[];
  host?: string;
  port?: number;
  /** Keys the server accepts; null (default) accepts any key or none, like a local server. */
  apiKeys?: string[] | null;
  /** Keys refused with 401 even when apiKeys is null: proves a key was never sent here. */
  forbiddenKeys?: string[];
  chunkChars?: number;
  /** Leave usage out of the stream even when asked (some local servers do). */
  noUsage?: boolean;
}

export type RequestOutcome = 'served' | 'rejected' | 'fault' | 'client_closed';

export interface RecordedRequest {
  n: number;
  turn: number | null; // 1-based script turn (null when rejected before that)
  stream: boolean;
  status: number;
  outcome: RequestOutcome;
  body: unknown;
  error?: OpenAIErrorInfo;
  fault?: Fault;
  usage?: Usage;
  keyPresented: boolean; // never the key itself
}

type Obj = Record<string, unknown>;

export class FakeOpenAIServer extends EventEmitter {
  readonly requests: RecordedRequest[] = [];
  private nextTurn = 0;
  private previousPrompt: string | null = null;
  private readonly faults = new Map<number, Fault[]>();
  private readonly http: Server;
  private address = '';

  private constructor(private readonly opts: FakeOpenAIOptions) {
    super();
    opts.script.forEach((e, i) => e.faults?.length && this.faults.set(i, [...e.faults]));
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  static async start(opts: FakeOpenAIOptions): Promise<FakeOpenAIServer> {
    const s = new FakeOpenAIServer(opts);
    await new Promise<void>((resolve, reject) => {
      s.http.once('error', reject);
      s.http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
    });
    const a = s.http.address() as AddressInfo;
    s.address = `http://${a.address}:${a.port}`;
    return s;
  }

  /** Base URL for the SDK (OPENAI_BASE_URL), with the /v1 the SDK expects. */
  get url(): string {
    return `${this.address}/v1`;
  }

  get turnsServed(): number {
    return this.nextTurn;
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
    const requestId = 'req_' + randomBytes(12).toString('hex');
    const path = (req.url ?? '/').split('?')[0];
    try {
      const raw = await readBody(req);
      if (path !== '/v1/chat/completions') return sendError(res, { status: 404, type: 'invalid_request_error', message: `Invalid URL (${req.method} ${path})`, param: null, code: null }, requestId);
      if (req.method !== 'POST') return sendError(res, { status: 405, type: 'invalid_request_error', message: `Method ${req.method} not allowed`, param: null, code: null }, requestId);
      await this.completions(req.headers, raw, res, requestId);
    } catch (e) {
      if (!res.headersSent) sendError(res, { status: 500, type: 'server_error', message: `fake-openai: ${(e as Error).message}`, param: null, code: null }, requestId);
      else res.destroy();
    }
  }

  private async completions(headers: IncomingHttpHeaders, raw: string, res: ServerResponse, requestId: string): Promise<void> {
    const base = { n: this.requests.length + 1, turn: null, stream: false, keyPresented: presentedKey(headers) !== null };
    const reject = (error: OpenAIErrorInfo, body: unknown) => {
      this.record({ ...base, body, status: error.status, outcome: 'rejected', error });
      sendError(res, error, requestId);
    };
    const presented = presentedKey(headers);
    const authError =
      presented !== null && this.opts.forbiddenKeys?.includes(presented)
        ? { status: 401, type: 'invalid_request_error' as const, message: 'fake-openai: this key must never reach this server', param: null, code: 'invalid_api_key' }
        : validateAuth(headers, this.opts.apiKeys ?? null);
    if (authError) return reject(authError, null);
    let body: Obj;
    try {
      body = JSON.parse(raw) as Obj;
    } catch {
      return reject({ status: 400, type: 'invalid_request_error', message: 'We could not parse the JSON body of your request.', param: null, code: null }, raw);
    }
    const bodyError = validateBody(body);
    if (bodyError) return reject(bodyError, body);
    const stream = body.stream === true;
    const rec = { ...base, body, stream };
    const turn = this.nextTurn;
    const entry = this.opts.script[turn];
    if (!entry) {
      this.record({ ...rec, status: 400, outcome: 'fault' });
      return sendError(res, { status: 400, type: 'invalid_request_error', message: `fake-openai: the script has ${this.opts.script.length} replies; there is none for turn ${turn + 1}`, param: null, code: null }, requestId);
    }
    const fault = this.faults.get(turn)?.shift();
    const closed = clientClosed(res);
    this.emit('arrived', { ...rec, turn: turn + 1 });
    if (fault?.kind === 'rate_limit' || fault?.kind === 'server_error' || fault?.kind === 'unavailable') {
      const status = fault.kind === 'rate_limit' ? 429 : fault.kind === 'server_error' ? 500 : 503;
      this.record({ ...rec, turn: turn + 1, status, outcome: 'fault', fault });
      if (fault.kind === 'rate_limit')
        return sendError(res, { status, type: 'rate_limit_error' as const, message: 'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1.', param: null, code: 'rate_limit_exceeded' }, requestId, { 'retry-after': String(fault.retry_after_s) });
      return sendError(res, { status, type: 'server_error', message: status === 500 ? 'The server had an error while processing your request. Sorry about that!' : 'The engine is currently overloaded, please try again later', param: null, code: null }, requestId);
    }
    if (fault?.kind === 'slow') await delay(fault.delay_ms, closed.promise);
    if (closed.value) return this.record({ ...rec, turn: turn + 1, status: 0, outcome: 'client_closed', fault });

    const reply = wireReply(entry, turn + 1);
    const p = promptUsage(body.messages, body.tools, this.previousPrompt);
    const completion = entry.usage?.output_tokens ?? tokensOf(reply.text.length + reply.calls.reduce((a, c) => a + c.name.length + c.arguments.length, 0));
    const usage: Usage = { prompt_tokens: p.prompt, completion_tokens: completion, total_tokens: p.prompt + completion, prompt_tokens_details: { cached_tokens: p.cached } };
    const id = 'chatcmpl-' + randomBytes(12).toString('hex');
    const model = String(body.model);
    const done = { ...rec, turn: turn + 1, usage };
    const served = () => {
      this.nextTurn++;
      this.previousPrompt = p.key;
    };
    if (!stream) {
      served();
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId });
      res.end(JSON.stringify(completionJson(id, model, reply, usage)));
      return this.record({ ...done, status: 200, outcome: 'served', fault });
    }
    const includeUsage = (body.stream_options as Obj | undefined)?.include_usage === true && !this.opts.noUsage;
    const chunks = completionChunks(id, model, reply, includeUsage ? usage : null, this.opts.chunkChars);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': requestId });
    const cutAt = fault?.kind === 'drop' || fault?.kind === 'stream_error' ? Math.min(fault.after_chunks, chunks.length - 1) : Infinity;
    for (const [i, c] of chunks.entries()) {
      if (closed.value) return this.record({ ...done, status: 200, outcome: 'client_closed', fault });
      if (i === cutAt && fault?.kind === 'drop') {
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        await new Promise<void>((resolve) => setImmediate(resolve));
        res.socket?.destroy();
        return this.record({ ...done, status: 200, outcome: 'fault', fault });
      }
      if (i === cutAt && fault?.kind === 'stream_error') {
        res.end(`data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } })}\n\n`);
        return this.record({ ...done, status: 200, outcome: 'fault', fault });
      }
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    }
    served();
    res.end('data: [DONE]\n\n');
    this.record({ ...done, status: 200, outcome: 'served', fault });
  }
}

function sendError(res: ServerResponse, e: OpenAIErrorInfo, requestId: string, headers: Record<string, string> = {}): void {
  res.writeHead(e.status, { 'content-type': 'application/json', 'x-request-id': requestId, ...headers });
  res.end(JSON.stringify({ error: { message: e.message, type: e.type, param: e.param, code: e.code } }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

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
