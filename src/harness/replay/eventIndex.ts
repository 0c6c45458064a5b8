// Per-event lookup tables built once per log (O(n)): running totals, the tool call each event
// belongs to, the model reply of each turn, the latest gate and progress snapshot at each point,
// and the writes per file. They make conditions and scopes O(1) at any position, in either
// direction, without folding state.
import { totalTokens } from '../protocol/content';
import { judgeCallsOf } from '../protocol/totals';
import type { EventOf, KiteEvent } from '../protocol/events';
import { argPath } from './eventSummary';
import { groupTurns } from './transcript';

export interface CallInfo {
  id: string;
  name: string;
  start: number; // index of the first event of the call (proposed, else whatever came first)
  proposed: number;
  policy: number;
  approvalRequest: number;
  approval: number;
  intent: number;
  tool: number; // -1 when absent
}

export interface WriteInfo {
  index: number; // the tool event
  path: string; // workspace-relative
  args: unknown; // final args (after a person's edit)
}

const WRITE_TOOLS = new Set(['write_file', 'edit_file']);

export class EventIndex {
  readonly tokens: Float64Array; // cumulative after event i
  readonly cost: Float64Array;
  readonly turns: Int32Array;
  readonly gateFailures: Int32Array;
  readonly tokenDetail: { input: Float64Array; output: Float64Array; cache_write: Float64Array; cache_read: Float64Array };
  readonly retries: Int32Array;
  readonly warnings: Int32Array;
  readonly callOfEvent: Int32Array; // index into calls, -1 when the event is not part of a call
  readonly calls: CallInfo[] = [];
  readonly modelOfGroup: Int32Array;
  readonly modelOrdinal: Int32Array; // for a model event: how many model events came before it // event index of the group's model reply, -1 if none
  readonly groupOfEvent: Int32Array;
  readonly lastGate: Int32Array; // index of the latest gate event at or before i, -1 if none
  readonly lastProgress: Int32Array; // latest progress or session_start at or before i
  readonly writesByPath = new Map<string, WriteInfo[]>();
  readonly sessionStart: EventOf<'session_start'> | null;

  constructor(readonly events: readonly KiteEvent[]) {
    const n = events.length;
    this.tokens = new Float64Array(n);
    this.cost = new Float64Array(n);
    this.turns = new Int32Array(n);
    this.gateFailures = new Int32Array(n);
    this.tokenDetail = { input: new Float64Array(n), output: new Float64Array(n), cache_write: new Float64Array(n), cache_read: new Float64Array(n) };
    this.retries = new Int32Array(n);
    this.warnings = new Int32Array(n);
    const td = { input: 0, output: 0, cache_write: 0, cache_read: 0 };
    let retries = 0;
    let warnings = 0;
    this.callOfEvent = new Int32Array(n).fill(-1);
    this.modelOrdinal = new Int32Array(n).fill(-1);
    let models = 0;
    this.lastGate = new Int32Array(n).fill(-1);
    this.lastProgress = new Int32Array(n).fill(-1);
    const { groups, groupOfEvent } = groupTurns(events);
    this.groupOfEvent = groupOfEvent;
    this.modelOfGroup = new Int32Array(groups.length).fill(-1);
    const callById = new Map<string, number>();
    let tokens = 0;
    let cost = 0;
    let turns = 0;
    let gateFailures = 0;
    let gate = -1;
    let progress = -1;
    let start: EventOf<'session_start'> | null = null;
    const callFor = (id: string, name: string, i: number): number => {
      let c = callById.get(id);
      if (c === undefined) {
        c = this.calls.length;
        this.calls.push({ id, name, start: i, proposed: -1, policy: -1, approvalRequest: -1, approval: -1, intent: -1, tool: -1 });
        callById.set(id, c);
      }
      this.callOfEvent[i] = c;
      return c;
    };
    for (let i = 0; i < n; i++) {
      const e = events[i];
      switch (e.kind) {
        case 'session_start':
          start ??= e;
          progress = i;
          break;
        case 'progress':
          progress = i;
          break;
        case 'model':
          tokens += totalTokens(e);
          this.modelOrdinal[i] = models++;
          td.input += e.input_tokens;
          td.output += e.output_tokens;
          td.cache_write += e.cache_creation_input_tokens;
          td.cache_read += e.cache_read_input_tokens;
          cost += e.cost_usd;
          turns = Math.max(turns, e.turn); // as the reducer counts: the highest turn number
          if (this.modelOfGroup[groupOfEvent[i]] < 0) this.modelOfGroup[groupOfEvent[i]] = i;
          break;
        case 'model_retry':
          retries++;
          break;
        case 'warning':
          warnings++;
          break;
        case 'gate':
          gate = i;
          if (!e.passed) gateFailures++;
          // Judged checks' calls count in the run's totals, as the reducer counts them.
          for (const j of judgeCallsOf(e)) {
            tokens += totalTokens(j);
            td.input += j.input_tokens;
            td.output += j.output_tokens;
            td.cache_write += j.cache_creation_input_tokens;
            td.cache_read += j.cache_read_input_tokens;
            cost += j.cost_usd;
          }
          break;
        case 'proposed':
          this.calls[callFor(e.id, e.name, i)].proposed = i;
          break;
        case 'policy':
          this.calls[callFor(e.id, e.name, i)].policy = i;
          break;
        case 'approval_request':
          this.calls[callFor(e.id, e.name, i)].approvalRequest = i;
          break;
        case 'approval': {
          const c = callById.get(e.id);
          if (c !== undefined) {
            this.calls[c].approval = i;
            this.callOfEvent[i] = c;
          }
          break;
        }
        case 'intent':
          this.calls[callFor(e.id, e.name, i)].intent = i;
          break;
        case 'tool': {
          const c = callFor(e.id, e.name, i);
          this.calls[c].tool = i;
          const call = this.calls[c];
          const intent = call.intent >= 0 ? (events[call.intent] as EventOf<'intent'>) : null;
          const isWrite = intent ? intent.effect === 'write' : WRITE_TOOLS.has(e.name);
          const path = e.path ?? intent?.path ?? argPath(intent?.args ?? e.args);
          if (isWrite && !e.is_error && path) {
            const list = this.writesByPath.get(path) ?? [];
            list.push({ index: i, path, args: intent?.args ?? e.args });
            this.writesByPath.set(path, list);
          }
          break;
        }
        case 'compaction':
          // A summary is a model call: its tokens and dollars count in the run's totals (as the reducer does).
          if (e.summary) {
            tokens += totalTokens(e.summary);
            td.input += e.summary.input_tokens;
            td.output += e.summary.output_tokens;
            td.cache_write += e.summary.cache_creation_input_tokens;
            td.cache_read += e.summary.cache_read_input_tokens;
            cost += e.summary.cost_usd;
          }
          break;
        case 'budget_stop':
        case 'divergence':
        case 'paused':
        case 'resumed':
        case 'session_end':
        case 'user':
        case 'hook':
        case 'person_edit':
        case 'restore':
        default:
          break;
      }
      this.tokens[i] = tokens;
      this.cost[i] = cost;
      this.turns[i] = turns;
      this.gateFailures[i] = gateFailures;
      this.tokenDetail.input[i] = td.input;
      this.tokenDetail.output[i] = td.output;
      this.tokenDetail.cache_write[i] = td.cache_write;
      this.tokenDetail.cache_read[i] = td.cache_read;
      this.retries[i] = retries;
      this.warnings[i] = warnings;
      this.lastGate[i] = gate;
      this.lastProgress[i] = progress;
    }
    this.sessionStart = start;
  }

  callAt(i: number): CallInfo | null {
    const c = this.callOfEvent[i];
    return c >= 0 ? this.calls[c] : null;
  }

  /** The path a write call edits, when the event at i belongs to one (any of its events). */
  writePathAt(i: number): string | null {
    const call = this.callAt(i);
    if (!call) return null;
    const intent = call.intent >= 0 ? (this.events[call.intent] as EventOf<'intent'>) : null;
    if (intent) return intent.effect === 'write' ? intent.path ?? argPath(intent.args) : null;
    if (!WRITE_TOOLS.has(call.name)) return null;
    const e = this.events[i];
    return 'args' in e ? argPath(e.args) : argPath((this.events[call.start] as { args?: unknown }).args);
  }
}
