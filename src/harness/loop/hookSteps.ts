// Where the loop runs the hooks that are not about one tool call (toolCall.ts has PreToolUse and
// PostToolUse, hooks/stopHookGate.ts Stop, run.ts SessionEnd). Each decision is a `hook` event,
// and what it changes follows from the log: a replay answers every hook from the recording and
// folds to the same state.
//   SessionStart   at every start of the loop (source startup, or resume): a block ends the run
//                  before any model call; its context reaches the model as `user` hook_context.
//   PromptSubmit   on the briefing (a block ends the run) and on each message a person sends (a
//                  block drops the message: a steer_blocked warning tells the person).
//   PostModelReply after each reply: a block refuses the reply's calls (toolsStep.ts answers them
//                  from the fold), or, for a reply without calls, tells the model before the gate.
import type { HookVerdict } from '../hooks/hookRunner';
import type { LoopDeps } from './session';

/** Why the run must end now (a hook blocked its start), or null. */
export async function startHooks(deps: LoopDeps, signal: AbortSignal): Promise<string | null> {
  const s = deps.state;
  const start = deps.hooks ? await deps.hooks.sessionStart(s.resumed > 0 ? 'resume' : 'startup', signal) : null;
  if (start?.blocked) return startBlocked(start);
  if (deps.opening && s.progressCount === 0) deps.opening.progress();
  let prompt: HookVerdict | null = null;
  if (deps.opening && !s.briefed) {
    const briefing = deps.opening.briefing();
    prompt = deps.hooks ? await deps.hooks.promptSubmit(briefing, 'briefing', signal) : null;
    if (prompt?.blocked) return `a PromptSubmit hook blocked the briefing, so the model was not called: ${blockText(prompt)}`;
    deps.log.append({ kind: 'user', reason: 'briefing', text: briefing });
  }
  for (const text of [...(start?.context ?? []), ...(prompt?.context ?? [])]) tellModel(deps, text);
  return null;
}

/** A replay of a resumed run, where the recording resumed: its resume SessionStart hooks answer
 *  again (from the recording) and their context reaches the model at the same point; a block ends
 *  the replay as it ended the resumed run. Why the run must end now, or null. */
export async function replayedResumeHooks(deps: LoopDeps, signal: AbortSignal): Promise<string | null> {
  const times = deps.resumes?.take({ modelCalls: deps.state.modelCalls, gates: deps.state.gates.length }) ?? 0;
  for (let i = 0; i < times && deps.hooks; i++) {
    const start = await deps.hooks.sessionStart('resume', signal);
    if (start.blocked) return startBlocked(start);
    for (const text of start.context) tellModel(deps, text);
  }
  return null;
}

/** Writes the person's waiting messages as `user` events (reason steer), word for word but with
 *  secrets withheld like any text the model reads, each once its PromptSubmit hooks let it
 *  through. Returns whether any reached the model. */
export async function deliverSteer(deps: LoopDeps, signal: AbortSignal): Promise<boolean> {
  const texts = deps.steer?.take({ modelCalls: deps.state.modelCalls, gates: deps.state.gates.length }) ?? [];
  let delivered = false;
  for (const raw of texts) {
    const text = deps.secrets?.redactText(raw) ?? raw;
    const v = deps.hooks ? await deps.hooks.promptSubmit(text, 'steer', signal) : null;
    if (v?.blocked) {
      // The message itself is kept (`text`): a replay offers it to the hooks again at this point.
      deps.log.append({ kind: 'warning', code: 'steer_blocked', message: `a PromptSubmit hook blocked your message, so it was NOT delivered to the agent: ${blockText(v)}`, text });
      continue;
    }
    deps.log.append({ kind: 'user', reason: 'steer', text });
    for (const c of v?.context ?? []) tellModel(deps, c);
    delivered = true;
  }
  return delivered;
}

/** The last reply's PostModelReply hooks, unless the log already has their verdict (a resume).
 *  A block of a reply without calls is told to the model, which answers it before the gate
 *  (the fold moves the run back to awaiting_model); returns whether that happened. */
export async function replyHooks(deps: LoopDeps, signal: AbortSignal): Promise<boolean> {
  const r = deps.state.replyHooks;
  if (!deps.hooks || !r) return false;
  if (r.blocked === null && r.allowed < deps.hooks.count('PostModelReply')) {
    await deps.hooks.postModelReply({ turn: r.turn, text: r.text, stop_reason: r.stop, tool_calls: r.calls }, signal);
  }
  if (r.blocked === null || deps.state.phase !== 'awaiting_gate') return false;
  tellModel(deps, `[Kite] A PostModelReply hook blocked your reply: ${r.blocked}\nYour work is not checked yet (the gate did not run); answer this first.`);
  return true;
}

/** What a refused call of a blocked reply returns to the model (toolsStep.ts). */
export const replyBlockedResult = (reason: string) => `Blocked by a PostModelReply hook: ${reason.trim().replace(/\.+$/, '')}. This call did NOT run.`;

const startBlocked = (v: HookVerdict) => `a SessionStart hook blocked the run before the model was called: ${blockText(v)}`;
const blockText = (v: HookVerdict) => `${v.blocked?.reason ?? ''} (hook: \`${v.blocked?.command ?? ''}\`)`;

function tellModel(deps: LoopDeps, text: string): void {
  deps.log.append({ kind: 'user', reason: 'hook_context', text: deps.secrets?.redactText(text) ?? text });
}
