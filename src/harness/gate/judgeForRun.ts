// The judge of one run: models made from their specs (relative script: paths from the workspace
// root, like the config's model), one per spec for the whole run so a scripted judge continues
// across gate attempts and a resume skips the answers its log already has. A replay answers from
// the recorded verdicts, never by asking a model again.
import { createModel } from '../model/index';
import type { Model } from '../model/model';
import type { Price } from '../model/pricing';
import type { ProvidersConfig } from '../model/providers';
import { judgeReplyOf } from '../model/replay';
import { ScriptedModel } from '../model/scripted';
import type { KiteEvent } from '../protocol/events';
import type { Reply } from '../protocol/content';
import { judgeCallsOf } from '../protocol/totals';
import { Judge } from './judge';
import { buildEvidence } from './judgeEvidence';

export interface JudgeForRunInput {
  root: string;
  logDir: string;
  /** The run's starting commit, read when a judge is asked (session_start is written after assembly). */
  base: () => string | null;
  runModelId: string;
  providers?: ProvidersConfig;
  env?: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  price: (answeredBy: string) => Price | null;
  maxTokens: number;
  /** A resume: the events so far. */
  priorEvents?: readonly KiteEvent[];
  /** A replay: the recorded run's events, whose verdicts answer in order. */
  recorded?: readonly KiteEvent[];
}

export function judgeForRun(i: JudgeForRunInput): Judge {
  const models = new Map<string, Model>();
  const prior = (i.priorEvents ?? []).flatMap((e) => (e.kind === 'gate' ? judgeCallsOf(e) : []));
  const replay = i.recorded ? recordedJudge(i.recorded) : null;
  const modelFor = (spec: string): Model => {
    if (replay) return replay;
    let m = models.get(spec);
    if (!m) {
      m = createModel(spec, { cwd: i.root, providers: i.providers, env: i.env });
      if (m instanceof ScriptedModel) m.startAt(prior.filter((j) => j.model === spec).length);
      models.set(spec, m);
    }
    return m;
  };
  return new Judge({
    modelFor,
    defaultSpec: i.runModelId,
    evidence: (rubric) => buildEvidence({ root: i.root, logDir: i.logDir, base: i.base(), rubric }),
    redact: i.redact,
    price: i.price,
    maxTokens: i.maxTokens,
    nowMs: () => performance.now(),
  });
}

/** The recorded judge answers, in the order the recorded gates asked them. */
function recordedJudge(events: readonly KiteEvent[]): Model {
  const replies: Reply[] = events.flatMap((e) => (e.kind === 'gate' ? judgeCallsOf(e).map(judgeReplyOf) : []));
  return new ScriptedModel(replies, 'replay:judge');
}
