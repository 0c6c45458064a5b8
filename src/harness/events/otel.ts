// `kite export otel LOG`: the run as OpenTelemetry GenAI spans in OTLP JSON — one `invoke_agent`
// span per run, a `chat {model}` span per model call and an `execute_tool {name}` span per tool
// call, with gen_ai.* attributes of the semantic conventions (gen_ai.provider.name, not the
// deprecated gen_ai.system). Ids are derived from the run id and seq, so an export is stable.
import { createHash } from 'node:crypto';
import type { EventOf, KiteEvent } from '../protocol/events';

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } };
export interface OtlpAttribute {
  key: string;
  value: AnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number; // 1 internal, 3 client
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: number; message?: string }; // 0 unset, 1 ok, 2 error
}
export interface OtlpTrace {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[] }[];
}

const SPAN_INTERNAL = 1;
const SPAN_CLIENT = 3;
const PROVIDER = 'anthropic';

function attr(key: string, v: string | number | boolean | string[]): OtlpAttribute {
  if (Array.isArray(v)) return { key, value: { arrayValue: { values: v.map((s) => ({ stringValue: s })) } } };
  if (typeof v === 'string') return { key, value: { stringValue: v } };
  if (typeof v === 'boolean') return { key, value: { boolValue: v } };
  return Number.isInteger(v) ? { key, value: { intValue: String(v) } } : { key, value: { doubleValue: v } };
}

const hex = (s: string, len: number) => createHash('sha256').update(s).digest('hex').slice(0, len);
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString(); // µs precision, no float overflow

export function toOtlp(events: readonly KiteEvent[]): OtlpTrace {
  const run = events[0]?.run ?? 'unknown';
  const traceId = hex(`kite-trace:${run}`, 32);
  const rootId = hex(`kite-span:${run}:root`, 16);
  const start = events.find((e): e is EventOf<'session_start'> => e.kind === 'session_start');
  const end = events.find((e): e is EventOf<'session_end'> => e.kind === 'session_end');
  const base = start?.started_at ? Date.parse(start.started_at) : 0;
  const at = (t: number) => base + t * 1000;
  const requestModel = (start?.model ?? '').replace(/^anthropic:/, '');
  const spans: OtlpSpan[] = [];
  const models = events.filter((e): e is EventOf<'model'> => e.kind === 'model');

  for (const m of models) {
    const input = m.input_tokens + m.cache_read_input_tokens + m.cache_creation_input_tokens; // semconv: input includes cached
    spans.push({
      traceId,
      spanId: hex(`kite-span:${run}:${m.seq}`, 16),
      parentSpanId: rootId,
      name: `chat ${m.model}`,
      kind: SPAN_CLIENT,
      startTimeUnixNano: nanos(at(m.t) - m.ms),
      endTimeUnixNano: nanos(at(m.t)),
      attributes: [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.provider.name', PROVIDER),
        attr('gen_ai.request.model', requestModel || m.model),
        attr('gen_ai.response.model', m.model),
        attr('gen_ai.response.finish_reasons', [m.stop]),
        attr('gen_ai.conversation.id', run),
        attr('gen_ai.usage.input_tokens', input),
        attr('gen_ai.usage.output_tokens', m.output_tokens),
        attr('gen_ai.usage.cache_read.input_tokens', m.cache_read_input_tokens),
        attr('gen_ai.usage.cache_creation.input_tokens', m.cache_creation_input_tokens),
        ...(start ? [attr('gen_ai.request.max_tokens', start.max_tokens)] : []),
        attr('kite.turn', m.turn),
        attr('kite.cost_usd', m.cost_usd),
        attr('kite.retries', m.retries),
      ],
      status: { code: m.stop === 'refusal' ? 2 : 0, ...(m.stop === 'refusal' ? { message: 'the model refused' } : {}) },
    });
  }
  for (const t of events.filter((e): e is EventOf<'tool'> => e.kind === 'tool')) {
    spans.push({
      traceId,
      spanId: hex(`kite-span:${run}:${t.seq}`, 16),
      parentSpanId: rootId,
      name: `execute_tool ${t.name}`,
      kind: SPAN_INTERNAL,
      startTimeUnixNano: nanos(at(t.t) - t.ms),
      endTimeUnixNano: nanos(at(t.t)),
      attributes: [
        attr('gen_ai.operation.name', 'execute_tool'),
        attr('gen_ai.provider.name', PROVIDER),
        attr('gen_ai.tool.name', t.name),
        attr('gen_ai.tool.call.id', t.id),
        attr('gen_ai.tool.type', 'function'),
        attr('gen_ai.conversation.id', run),
        ...(t.is_error ? [attr('error.type', t.error_code ?? 'tool_error')] : []),
        ...(t.exit_code !== undefined && t.exit_code !== null ? [attr('process.exit.code', t.exit_code)] : []),
        ...(t.recovered ? [attr('kite.recovered', true)] : []),
      ],
      status: t.is_error ? { code: 2, message: t.output.split('\n')[0].slice(0, 200) } : { code: 0 },
    });
  }
  const last = events.at(-1);
  const sum = (f: (m: EventOf<'model'>) => number) => models.reduce((a, m) => a + f(m), 0);
  const ok = end?.status === 'done';
  spans.unshift({
    traceId,
    spanId: rootId,
    name: 'invoke_agent kite',
    kind: SPAN_INTERNAL,
    startTimeUnixNano: nanos(at(0)),
    endTimeUnixNano: nanos(at(last?.t ?? 0)),
    attributes: [
      attr('gen_ai.operation.name', 'invoke_agent'),
      attr('gen_ai.provider.name', PROVIDER),
      attr('gen_ai.agent.name', 'kite'),
      attr('gen_ai.agent.id', run),
      attr('gen_ai.conversation.id', run),
      ...(requestModel ? [attr('gen_ai.request.model', requestModel)] : []),
      attr('gen_ai.usage.input_tokens', sum((m) => m.input_tokens + m.cache_read_input_tokens + m.cache_creation_input_tokens)),
      attr('gen_ai.usage.output_tokens', sum((m) => m.output_tokens)),
      ...(start ? [attr('kite.feature', start.feature), attr('kite.mode', start.mode)] : []),
      attr('kite.outcome', end?.status ?? 'unfinished'),
      ...(end?.commit ? [attr('kite.commit', end.commit)] : []),
    ],
    status: end ? (ok ? { code: 1 } : { code: 2, message: `${end.status}: ${end.summary.split('\n')[0].slice(0, 200)}` }) : { code: 0 },
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'kite')] },
        scopeSpans: [{ scope: { name: 'kite', version: '0.1.0' }, spans }],
      },
    ],
  };
}
