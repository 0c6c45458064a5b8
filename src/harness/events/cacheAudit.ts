// `kite cache-audit`: what invalidated the prompt cache. Each run's cached prefix is fingerprinted
// by part (tools, system prompt, briefing); between consecutive runs a changed part is listed with
// a unified diff of its text, and within a run every `prefix_changed` warning and compaction is
// listed. Each comes with what it cost: the cache writes of the next reply priced as writes
// instead of reads (what a stable prefix would have paid).
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import { costOf, priceOf, type PriceTable } from '../model/pricing';
import type { EventOf, KiteEvent } from '../protocol/events';

export type PrefixPart = 'tools' | 'system' | 'briefing';

export interface RunPrefix {
  run: string;
  log: string;
  started_at: string;
  fingerprints: Record<PrefixPart, string>;
  texts: Record<PrefixPart, string>;
  /** Within the run: prefix drift warnings and compactions, with the reply after each. */
  breaks: { seq: number; kind: 'prefix_changed' | 'compaction'; message: string; usd: number }[];
  firstWriteUsd: number; // what the first reply's cache writes cost beyond reading them
}

export interface PrefixChange {
  from: string;
  to: string;
  part: PrefixPart;
  diff: string;
  usd: number; // the later run's first cache write, beyond reading it
}

export interface CacheAudit {
  runs: Omit<RunPrefix, 'texts'>[];
  changes: PrefixChange[];
}

const fp = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

/** What the cache writes of a reply cost beyond reading the same tokens. */
function rewriteUsd(e: EventOf<'model'>, prices: PriceTable): number {
  const p = priceOf(e.model, prices);
  const w = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: e.cache_creation_input_tokens, cache_read_input_tokens: 0 };
  const r = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: e.cache_creation_input_tokens };
  return costOf(w, p) - costOf(r, p);
}

export function prefixOfRun(events: readonly KiteEvent[], log: string, prices: PriceTable = {}): RunPrefix | null {
  const start = events.find((e): e is EventOf<'session_start'> => e.kind === 'session_start');
  if (!start || start.replay_of !== null) return null;
  const briefing = events.find((e): e is EventOf<'user'> => e.kind === 'user' && e.reason === 'briefing')?.text ?? '';
  const texts = { tools: JSON.stringify(start.tools ?? [], null, 2), system: start.system ?? '', briefing };
  const fingerprints = { tools: fp(texts.tools), system: fp(texts.system), briefing: fp(texts.briefing) };
  const models = events.filter((e): e is EventOf<'model'> => e.kind === 'model');
  const next = (seq: number) => models.find((m) => m.seq > seq);
  const breaks: RunPrefix['breaks'] = [];
  for (const e of events) {
    const isBreak = (e.kind === 'warning' && e.code === 'prefix_changed') || e.kind === 'compaction';
    if (!isBreak) continue;
    const m = next(e.seq);
    breaks.push({ seq: e.seq, kind: e.kind === 'compaction' ? 'compaction' : 'prefix_changed', message: e.kind === 'warning' ? e.message : e.note, usd: m ? rewriteUsd(m, prices) : 0 });
  }
  return { run: start.run, log, started_at: start.started_at, fingerprints, texts, breaks, firstWriteUsd: models[0] ? rewriteUsd(models[0], prices) : 0 };
}

export function cacheAudit(prefixes: readonly RunPrefix[]): CacheAudit {
  const runs = [...prefixes].sort((a, b) => a.started_at.localeCompare(b.started_at));
  const changes: PrefixChange[] = [];
  for (let i = 1; i < runs.length; i++) {
    const a = runs[i - 1]!;
    const b = runs[i]!;
    for (const part of ['tools', 'system', 'briefing'] as const) {
      if (a.fingerprints[part] === b.fingerprints[part]) continue;
      changes.push({ from: a.run, to: b.run, part, diff: createTwoFilesPatch(`${a.run}/${part}`, `${b.run}/${part}`, a.texts[part], b.texts[part], '', '', { context: 2 }), usd: b.firstWriteUsd });
    }
  }
  return { runs: runs.map(({ texts: _t, ...r }) => r), changes };
}

export function formatCacheAudit(a: CacheAudit): string {
  const out: string[] = ['Prefix fingerprints (tools / system / briefing):'];
  for (const r of a.runs) out.push(`  ${r.run}  ${r.fingerprints.tools}  ${r.fingerprints.system}  ${r.fingerprints.briefing}`);
  out.push('', a.changes.length ? 'Between runs:' : 'Between runs: the prefix did not change.');
  for (const c of a.changes) out.push(`  ${c.from} → ${c.to}: ${c.part} changed (the first cache write of ${c.to} cost $${c.usd.toFixed(4)} beyond a read)`, c.diff.replace(/^/gm, '    '));
  const within = a.runs.flatMap((r) => r.breaks.map((b) => ({ run: r.run, ...b })));
  out.push('', within.length ? 'Within runs:' : 'Within runs: no prefix drift, no compaction.');
  for (const b of within) out.push(`  ${b.run} #${b.seq} ${b.kind}: ${b.message} ($${b.usd.toFixed(4)} of cache rewrites at the next reply)`);
  return out.join('\n');
}
