// Messages a person sends to a running agent ("Kite: Tell the Agent…", the timeline's box, steering
// lines in a terminal). They wait in a queue and the loop delivers them at the next turn as `user`
// events with reason `steer` (session.ts). A replay delivers the recorded ones at the same point
// (after the same number of model replies and gate verdicts), so it sends the same requests.
import type { EventSink } from '../events/sink';
import type { KiteEvent } from '../protocol/events';

/** Where the run is: model replies so far (RunState.modelCalls) and gate verdicts so far. */
export interface SteerPoint {
  modelCalls: number;
  gates: number;
}

export interface SteerSource {
  /** The messages to deliver now, at this point of the run. */
  take(at: SteerPoint): string[];
  /** Messages still waiting (the run ended before its next turn). */
  readonly pending?: readonly string[];
}

/** The run ended with messages nobody delivered: the log says so, with their words. */
export function logUndelivered(source: SteerSource | undefined, log: EventSink): void {
  const left = source?.pending ?? [];
  if (!left.length) return;
  const words = left.map((t) => JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}…` : t)).join(', ');
  log.append({ kind: 'warning', code: 'steer_undelivered', message: `the run ended before its next turn, so ${left.length === 1 ? 'this message was' : `these ${left.length} messages were`} not delivered to the agent: ${words}` });
}

/** The live queue the host fills (the harness server, the CLI). */
export class SteerQueue implements SteerSource {
  private readonly waiting: string[] = [];

  /** Queues a message; returns how many are waiting now. */
  push(text: string): number {
    this.waiting.push(text);
    return this.waiting.length;
  }

  take(): string[] {
    return this.waiting.splice(0);
  }

  /** Messages not delivered yet (the run ended first). */
  get pending(): readonly string[] {
    return this.waiting;
  }
}

const keyOf = (p: SteerPoint) => `${p.modelCalls}:${p.gates}`;

/** The steer messages of a recorded log, each at the point it was delivered. */
export class RecordedSteer implements SteerSource {
  private readonly at: Map<string, string[]>;

  constructor(events: readonly KiteEvent[]) {
    // Messages a PromptSubmit hook blocked are offered again too (their hooks answer from the recording).
    this.at = recordedAt(events, (e) =>
      (e.kind === 'user' && e.reason === 'steer') || (e.kind === 'warning' && e.code === 'steer_blocked' && e.text !== undefined) ? (e.text ?? '') : undefined,
    );
  }

  take(at: SteerPoint): string[] {
    const list = this.at.get(keyOf(at)) ?? [];
    this.at.delete(keyOf(at));
    return list;
  }
}

/** A replay of a run that was resumed: how many times the recording resumed at each point, so its
 *  resume SessionStart hooks answer there again (hookSteps.ts) and the model is told the same. */
export class RecordedResumes {
  private readonly at: Map<string, true[]>;

  constructor(events: readonly KiteEvent[]) {
    this.at = recordedAt(events, (e) => (e.kind === 'resumed' ? true : undefined));
  }

  take(at: SteerPoint): number {
    const n = this.at.get(keyOf(at))?.length ?? 0;
    this.at.delete(keyOf(at));
    return n;
  }
}

/** What `pick` finds in the recording, by the point of the run it sits at. */
function recordedAt<T>(events: readonly KiteEvent[], pick: (e: KiteEvent) => T | undefined): Map<string, T[]> {
  const at = new Map<string, T[]>();
  const p: SteerPoint = { modelCalls: 0, gates: 0 }; // counted as the reducer counts them
  for (const e of events) {
    if (e.kind === 'model' || (e.kind === 'compaction' && e.summary)) p.modelCalls++;
    else if (e.kind === 'gate') p.gates++;
    else {
      const found = pick(e);
      if (found === undefined) continue;
      const list = at.get(keyOf(p)) ?? [];
      list.push(found);
      at.set(keyOf(p), list);
    }
  }
  return at;
}
