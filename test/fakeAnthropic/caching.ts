// Prompt-caching simulation, honest and consistent. A request is a sequence of segments in the
// service's order — tools, system blocks, message blocks — serialized as sent (key order kept,
// cache_control removed), ~4 characters a token. For each cache_control breakpoint the service
// looks for the longest earlier-cached prefix ending at most 20 blocks before it; that prefix is
// read from the cache, the rest up to the last breakpoint is written, and what follows the last
// breakpoint is plain input. Prefixes shorter than the model's minimum are neither read nor written.
import { createHash, type Hash } from 'node:crypto';

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface CacheSimulatorOptions {
  clock?: () => number; // ms
  minCacheTokens?: number; // the service's minimum cacheable prompt (1024 for Sonnet)
}

const LOOKBACK_BLOCKS = 20;
const TTL_MS: Record<string, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Segment {
  text: string;
  ttl: string | null; // non-null when the segment carries a cache_control breakpoint
}

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

function withoutCacheControl(b: unknown): unknown {
  if (!isObj(b)) return b;
  const { cache_control: _cc, ...rest } = b;
  if (Array.isArray(rest.content)) rest.content = rest.content.map(withoutCacheControl);
  return rest;
}

function ttlOf(b: unknown): string | null {
  if (!isObj(b) || !isObj(b.cache_control)) return null;
  const ttl = b.cache_control.ttl;
  return typeof ttl === 'string' && ttl in TTL_MS ? ttl : '5m';
}

/** The request as the cache sees it: one segment per tool, system block and message block. */
export function segmentsOf(body: Obj): Segment[] {
  const out: Segment[] = [];
  const push = (prefix: string, b: unknown) => out.push({ text: prefix + JSON.stringify(withoutCacheControl(b)), ttl: ttlOf(b) });
  if (Array.isArray(body.tools)) for (const t of body.tools) push('tool:', t);
  if (typeof body.system === 'string') out.push({ text: 'system:' + body.system, ttl: null });
  else if (Array.isArray(body.system)) for (const b of body.system) push('system:', b);
  if (Array.isArray(body.messages))
    for (const [i, m] of body.messages.entries()) {
      if (!isObj(m)) continue;
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
      // The message index is part of the text so a block moved to another message is a different prefix.
      for (const [j, b] of blocks.entries()) push(`${String(m.role)}[${i}.${j}]:`, b);
    }
  return out;
}

/** The prompt's size as this server counts it (the same ~4 characters a token as the cache). */
export function promptTokensOf(body: Obj): number {
  let chars = 0;
  for (const s of segmentsOf(body)) chars += s.text.length + 1;
  return tokensOf(chars);
}

export class CacheSimulator {
  private readonly entries = new Map<string, number>(); // prefix hash → expiry (ms)
  private readonly clock: () => number;
  private readonly minTokens: number;

  constructor(opts: CacheSimulatorOptions = {}) {
    this.clock = opts.clock ?? Date.now;
    this.minTokens = opts.minCacheTokens ?? 1024;
  }

  /** Usage for one request; records the request's breakpointed prefixes in the cache. */
  account(body: Obj): CacheUsage {
    const now = this.clock();
    const segs = segmentsOf(body);
    const hashes: string[] = [];
    const tokensAt: number[] = []; // tokens of the prefix ending with segment k
    const running: Hash = createHash('sha256').update(`model:${String(body.model)}\n`);
    let chars = 0;
    for (const s of segs) {
      running.update(s.text).update('\n');
      hashes.push(running.copy().digest('hex'));
      chars += s.text.length + 1;
      tokensAt.push(tokensOf(chars));
    }
    const total = tokensOf(chars);
    const breakpoints = segs.flatMap((s, k) => (s.ttl && tokensAt[k]! >= this.minTokens ? [k] : []));
    if (breakpoints.length === 0) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

    const live = (h: string) => (this.entries.get(h) ?? 0) > now;
    let readEnd = -1;
    for (const b of breakpoints)
      for (let k = b; k >= Math.max(0, b - LOOKBACK_BLOCKS + 1); k--)
        if (k > readEnd && live(hashes[k]!)) {
          readEnd = k;
          break;
        }
    const lastBp = breakpoints[breakpoints.length - 1]!;
    const read = readEnd >= 0 ? tokensAt[readEnd]! : 0;
    const cachedEnd = Math.max(lastBp, readEnd);
    const creation = lastBp > readEnd ? tokensAt[lastBp]! - read : 0;
    // Reading refreshes an entry; writing creates one per breakpoint, each with its own TTL.
    if (readEnd >= 0) this.entries.set(hashes[readEnd]!, now + TTL_MS[segs[readEnd]!.ttl ?? '5m']!);
    for (const b of breakpoints) this.entries.set(hashes[b]!, Math.max(this.entries.get(hashes[b]!) ?? 0, now + TTL_MS[segs[b]!.ttl!]!));
    return { input_tokens: total - tokensAt[cachedEnd]!, cache_creation_input_tokens: creation, cache_read_input_tokens: read };
  }

  clear(): void {
    this.entries.clear();
  }
}
