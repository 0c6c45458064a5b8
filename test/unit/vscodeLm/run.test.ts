// A whole run with kite.model = vscode-lm:<vendor>/<family> through the host's language models (here
// a scripted host answering as the extension does: parts, then counted tokens): it ends done, the
// log records the provider and model with usage marked estimated, `kite cost` shows the counts as
// estimates, a replay reproduces it from the recorded replies, and the CLI refuses vscode-lm.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMain } from '../../../src/harness/cli/runCommand';
import { resumeMain } from '../../../src/harness/cli/resumeCommand';
import type { Out } from '../../../src/harness/cli/output';
import { costOfRun, costReport, formatCostReport } from '../../../src/harness/events/cost';
import { formatTimeline } from '../../../src/harness/events/timeline';
import type { Host, LanguageModelHost } from '../../../src/harness/host';
import { RunError, runFeature } from '../../../src/harness/run';
import type { Reply } from '../../../src/harness/protocol/content';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import type { LmAsk } from '../../../src/harness/protocol/languageModel';
import { loadProgress } from '../../../src/harness/progress/progressFile';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { resumeRun } from '../../../src/harness/resume';
import { CannedHost, git, tempRepo } from '../loop/kit';

const SCRIPT = join(__dirname, '..', '..', 'fixtures', 'scripts', 'extension-accept.json');
const SPEC = 'vscode-lm:kite-test/scripted';
/** The chat model the scripted host says answered (as selectChatModels names it). */
const ANSWERED_BY = { id: 'scripted-1', name: 'Scripted', version: '1' };

/** Answers like the extension: each recorded reply's blocks as streamed parts, then a token count. */
class ScriptedLanguageModels implements LanguageModelHost {
  readonly asks: LmAsk[] = [];
  private next = 0;
  constructor(private readonly replies: Reply[]) {}
  async request(ask: LmAsk, onPart: Parameters<LanguageModelHost['request']>[1]) {
    this.asks.push(ask);
    const r = this.replies[this.next++];
    if (!r) return { ok: false as const, code: 'unknown' as const, message: 'the script ran out' };
    let out = 0;
    for (const b of r.content) {
      if (b.type === 'text') onPart({ type: 'text', text: b.text });
      if (b.type === 'tool_use') onPart({ type: 'tool_call', callId: b.id, name: b.name, input: b.input });
      out += JSON.stringify(b).length;
    }
    return { ok: true as const, input_tokens: Math.ceil(JSON.stringify(ask.messages).length / 4), output_tokens: Math.ceil(out / 4), model: ANSWERED_BY };
  }
}

class Capture implements Out {
  stdout = '';
  stderr = '';
  out(t: string) {
    this.stdout += t + '\n';
  }
  err(t: string) {
    this.stderr += t + '\n';
  }
}

const events = (log: string): KiteEvent[] => readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);
const script = (): Reply[] => JSON.parse(readFileSync(SCRIPT, 'utf8')) as Reply[];

/** The sample project with a price for the test model (its config sets a dollar budget). */
function pricedRepo(): string {
  const root = tempRepo();
  const file = join(root, '.kite', 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...config, prices: { [SPEC]: { input: 0, output: 0 } } }, null, 2));
  git(root, 'commit', '-qam', 'price the test model');
  return root;
}

describe('vscode-lm: a run through the host’s language models', function () {
  this.timeout(120_000);

  it('ends done: writes approved, gate passed; the log names provider and model and marks every reply’s usage estimated', async () => {
    const root = pricedRepo();
    const lm = new ScriptedLanguageModels(script());
    const host: Host = Object.assign(new CannedHost([{ decision: 'approve' }, { decision: 'approve' }, { decision: 'approve' }]), { languageModels: lm });
    const s = await runFeature({ root, mode: 'attended', model: SPEC }, host);
    assert.equal(s.outcome, 'done', s.why);
    assert.ok(s.commit);
    const ev = events(s.logPath);
    const start = ev[0];
    assert.ok(start?.kind === 'session_start');
    assert.equal(start.model, SPEC);
    const models = ev.filter((e) => e.kind === 'model');
    assert.equal(models.length, 4);
    for (const m of models) {
      assert.equal(m.model, SPEC);
      assert.equal(m.estimated, true);
      assert.ok(m.input_tokens > 0 && m.output_tokens > 0);
      assert.deepEqual(m.model_info, ANSWERED_BY, 'the log says which chat model selectChatModels gave');
    }
    // The model saw the tool results of its calls on the next turn (the conversation crossed the seam).
    const second = lm.asks[1]!.messages;
    assert.deepEqual(second.at(-1)?.parts.map((p) => p.type), ['tool_result']);
    assert.equal(lm.asks[0]!.tools.some((t) => t.name === 'write_file'), true);

    const cost = costOfRun(ev, s.logPath);
    assert.equal(cost.provider, 'vscode-lm');
    assert.equal(cost.tokens_estimated, true);
    const text = formatCostReport(costReport([cost]));
    assert.match(text, new RegExp(`~${cost.tokens.total.toLocaleString('en-US')}`));
    assert.match(text, /^vscode-lm\s+kite-test\/scripted\s+1\s+~[\d,]+\s+\$0\.0000$/m);
    assert.match(text, /~ marks estimated token counts: VS Code's language models \(vscode-lm:\) report no usage/);
    assert.match(formatTimeline(ev), /turn 1 +tool_use +in=~[\d,]+ out=~[\d,]+/);

    // A replay uses the recorded replies: no language model is asked, the counts stay marked estimated.
    const r = await replayRun({ log: s.logPath, root, onDivergence: 'stop', worktree: true }, new CannedHost());
    assert.equal(r.divergences, 0);
    assert.equal(r.outcome, 'done');
    assert.equal(lm.asks.length, 4);
    assert.ok(events(r.logPath).filter((e) => e.kind === 'model').every((e) => e.kind === 'model' && e.estimated === true && e.model_info?.id === ANSWERED_BY.id));
  });

  it('with a dollar budget and no price for the model the run does not start (price unknown, with the fix)', async () => {
    const root = tempRepo(); // the sample's config has budget.usd = 1
    const host: Host = Object.assign(new CannedHost(), { languageModels: new ScriptedLanguageModels([]) });
    await assert.rejects(runFeature({ root, mode: 'attended', model: SPEC }, host), (e: unknown) => e instanceof RunError && e.code === 'price_unknown' && /"prices": \{"vscode-lm:kite-test\/scripted"/.test(e.message));
  });

  it('the CLI cannot use vscode-lm: `kite run --model vscode-lm:…` and `kite resume` of such a run exit 2 with a clear line, nothing started; with the host it resumes to done', async () => {
    const root = pricedRepo();
    const c = new Capture();
    assert.equal(await runMain([root, '--model', 'vscode-lm:copilot/gpt-4o'], { out: c, isTty: false }), 2);
    assert.equal(
      c.stderr,
      'kite: model "vscode-lm:copilot/gpt-4o" is one of VS Code\'s language models: only the Kite extension inside VS Code can use it. Here use anthropic:<id>, openai:<id>, ollama:<model> (or another local preset) or script:<file>.\n',
    );
    assert.equal(loadProgress(join(root, 'kite-progress.json')).features[0]!.status, 'todo');
    const bad = new Capture();
    assert.equal(await runMain([root, '--model', 'vscode-lm:copilot'], { out: bad, isTty: false }), 2);
    assert.match(bad.stderr, /^kite: model "vscode-lm:copilot": expected vscode-lm:<vendor>\/<family>, e\.g\. vscode-lm:copilot\/gpt-4o/);

    // A run of the extension, paused at its first approval: the CLI cannot resume it either.
    const lm = new ScriptedLanguageModels(script());
    const paused = await runFeature({ root, mode: 'attended', model: SPEC }, Object.assign(new CannedHost([]), { languageModels: lm }));
    assert.equal(paused.paused, true);
    const r = new Capture();
    assert.equal(await resumeMain([paused.logPath], { out: r, isTty: false }), 2);
    assert.match(r.stderr, /^kite: model "vscode-lm:kite-test\/scripted" is one of VS Code's language models: only the Kite extension inside VS Code can use it\./);

    // Where the host has the language models (VS Code), the same log resumes and ends done; the
    // model's first reply comes from the log, so the host is asked only for the turns after it.
    const resumed = await resumeRun({ log: paused.logPath }, Object.assign(new CannedHost([{ decision: 'approve' }, { decision: 'approve' }, { decision: 'approve' }]), { languageModels: lm }));
    assert.equal(resumed.outcome, 'done', resumed.why);
    assert.equal(lm.asks.length, 4);
    const after = events(paused.logPath).filter((e) => e.kind === 'model');
    assert.equal(after.length, 4);
    assert.ok(after.every((e) => e.kind === 'model' && e.estimated === true && e.model === SPEC));
  });
});
