// kite.model = vscode-lm:<vendor>/<family> in the real VS Code: the test registers a language model
// chat provider itself (the stable vscode.lm.registerLanguageModelChatProvider; its vendor
// "kite-test" is declared by the test-only extension test/integration/lmVendor, because VS Code
// refuses a vendor no extension declares). The provider answers from a script: tool calls, then a
// done. Kite's harness server asks the extension for each reply over JSON-RPC, the extension calls
// selectChatModels + sendRequest, and the run ends done through the real API with estimated usage.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import type { Reply } from '../../src/harness/protocol/content';
import { costOfRun } from '../../src/harness/events/cost';
import { testEnv } from './env';
import { kite, nextRunEnd, proposalTabs, readEvents, resetWorkspace, stopRuns, toolEvent, waitForPending } from './extensionHelpers';
import { waitFor } from './waitFor';

const VENDOR = 'kite-test';
const FAMILIES = ['scripted', 'slow', 'refuses'] as const;
type Family = (typeof FAMILIES)[number];
const spec = (family: string) => `vscode-lm:${VENDOR}/${family}`;

interface Seen {
  family: string;
  messages: readonly vscode.LanguageModelChatRequestMessage[];
  tools: readonly vscode.LanguageModelChatTool[];
  cancelled: boolean;
}

/** Approximate tokens of what the tokenizer is asked about (the provider's own count, so deterministic). */
function tokens(text: string | vscode.LanguageModelChatRequestMessage): number {
  if (typeof text === 'string') return Math.ceil(text.length / 4);
  const chars = text.content.reduce<number>((n, p) => n + (p instanceof vscode.LanguageModelTextPart ? p.value.length : JSON.stringify(p).length), 0);
  return Math.ceil(chars / 4);
}

/** Answers turn n (= assistant messages so far) with the script's reply n, as parts. */
class ScriptedProvider implements vscode.LanguageModelChatProvider {
  readonly seen: Seen[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly requested = new vscode.EventEmitter<void>();
  readonly onDidRequest = this.requested.event;

  constructor(private readonly script: Reply[]) {}

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return FAMILIES.map((family) => ({ id: `kite-test-${family}`, name: `Kite Test ${family}`, family, version: '1', maxInputTokens: 200_000, maxOutputTokens: 8_192, capabilities: { toolCalling: true } }));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const seen: Seen = { family: model.family, messages, tools: options.tools ?? [], cancelled: false };
    this.seen.push(seen);
    this.requested.fire();
    const family = model.family as Family;
    if (family === 'refuses') throw vscode.LanguageModelError.NoPermissions('the person refused (test provider)');
    if (family === 'slow') {
      progress.report(new vscode.LanguageModelTextPart('Thinking about it'));
      // Until Kite cancels the request: a stopped run must reach this token.
      await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
      seen.cancelled = true;
      return;
    }
    const reply = this.script[messages.filter((m) => m.role === vscode.LanguageModelChatMessageRole.Assistant).length];
    if (!reply) throw new Error('the test script ran out of replies');
    for (const b of reply.content) {
      if (b.type === 'text') progress.report(new vscode.LanguageModelTextPart(b.text));
      else if (b.type === 'tool_use') progress.report(new vscode.LanguageModelToolCallPart(b.id, b.name, b.input as object));
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return tokens(text);
  }

  dispose(): void {
    this.changed.dispose();
    this.requested.dispose();
  }
}

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

/** The sample with a price for the test models: its config sets a dollar budget, and a model with
 *  no known price is refused then (a run cannot count $0 for it). Committed: runs need a clean tree. */
async function pricedWorkspace(families: readonly string[] = FAMILIES): Promise<string> {
  const ws = await resetWorkspace();
  const file = join(ws, '.kite', 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...config, prices: Object.fromEntries(families.map((f) => [spec(f), { input: 0, output: 0 }])) }, null, 2) + '\n');
  git(ws, 'commit', '-qam', 'test: price the kite-test language models');
  return ws;
}

/** The proposal diff's right side for `rel`, once its tab is open (this window may not focus it). */
function proposalTab(rel: string): Promise<vscode.Uri> {
  const find = () => proposalTabs().map((t) => (t.input as vscode.TabInputTextDiff).modified).find((u) => u.path.endsWith(`/${rel}`));
  return waitFor(`the approval diff for ${rel}`, find, [vscode.window.tabGroups.onDidChangeTabs], 20_000);
}

const useModel = (family: string) => vscode.workspace.getConfiguration('kite').update('model', spec(family), vscode.ConfigurationTarget.Global);

describe('extension: VS Code language models (vscode-lm:)', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let provider: ScriptedProvider;
  let registration: vscode.Disposable | undefined;

  before(async () => {
    k = await kite();
    const script = JSON.parse(readFileSync(join(testEnv().repo, 'test', 'fixtures', 'scripts', 'extension-accept.json'), 'utf8')) as Reply[];
    provider = new ScriptedProvider(script);
    registration = vscode.lm.registerLanguageModelChatProvider(VENDOR, provider);
    // The models appear once VS Code has asked the provider for them.
    await waitForModels(FAMILIES.length);
  });
  after(async () => {
    await stopRuns(k);
    registration?.dispose();
    provider?.dispose();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    await resetWorkspace();
    k.refreshViews();
  });

  async function waitForModels(n: number): Promise<vscode.LanguageModelChat[]> {
    let models: vscode.LanguageModelChat[] = [];
    const refresh = async () => (models = await vscode.lm.selectChatModels({ vendor: VENDOR }));
    await refresh();
    if (models.length >= n) return models;
    const bump = new vscode.EventEmitter<void>();
    const sub = vscode.lm.onDidChangeChatModels(() => void refresh().then(() => bump.fire()));
    try {
      return await waitFor(`${n} kite-test models in vscode.lm.selectChatModels`, () => models.length >= n && models, [bump.event], 20_000);
    } finally {
      sub.dispose();
      bump.dispose();
    }
  }

  it('Kite: Select Model… lists what selectChatModels returns and writes the pick to kite.model', async () => {
    let offered: string[] = [];
    const chosen = await k.selectModel((items) => {
      offered = items.map((i) => i.spec);
      return items.find((i) => i.spec === spec('scripted'));
    });
    assert.deepEqual(offered.filter((s) => s.startsWith(`vscode-lm:${VENDOR}/`)).sort(), FAMILIES.map(spec).sort());
    assert.equal(chosen, spec('scripted'));
    assert.equal(vscode.workspace.getConfiguration('kite').inspect<string>('model')?.globalValue, spec('scripted'));
  });

  it('a run with kite.model = vscode-lm:kite-test/scripted ends done through the real API: tool calls, results back to the model, usage estimated in the log and the status bar', async () => {
    const ws = await pricedWorkspace();
    await useModel('scripted');
    const before = provider.seen.length;
    let estimatedShown = false;
    const watch = k.onDidChangeRuns(() => (estimatedShown ||= k.activeRuns().some((r) => r.tokensEstimated === true)));
    const ended = nextRunEnd(k, 90_000);
    try {
      assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'), 'the run did not start');
      // The model's write_file calls are proposals like any model's: accept both, run the command once.
      await vscode.commands.executeCommand('kite.acceptAll', await proposalTab('src/ledger.js'));
      await vscode.commands.executeCommand('kite.acceptAll', await proposalTab('test/fees.test.js'));
      const cmd = await waitForPending(k, 'the command approval', (p) => p.kind === 'command');
      await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
      const end = await ended;
      assert.equal(end.error, null, end.error?.message);
      assert.equal(end.summary?.outcome, 'done', end.summary?.why);
      assert.ok(end.summary?.commit, 'no commit');

      const events = readEvents(end.summary.logPath);
      const start = events[0];
      assert.ok(start?.kind === 'session_start');
      assert.equal(start.model, spec('scripted'));
      const models = events.filter((e) => e.kind === 'model');
      assert.equal(models.length, 4);
      for (const m of models) {
        assert.ok(m.kind === 'model');
        assert.equal(m.model, spec('scripted'));
        assert.equal(m.estimated, true, 'usage not marked estimated');
        assert.ok(m.input_tokens > 0 && m.output_tokens > 0, `turn ${m.turn}: ${m.input_tokens}/${m.output_tokens}`);
      }
      assert.equal(costOfRun(events, end.summary.logPath).tokens_estimated, true);
      assert.ok(estimatedShown, 'the status bar never showed the tokens as estimated');
      assert.equal(toolEvent(events, 'toolu_acc_3').is_error, false);

      // What the provider received through sendRequest: the system prompt in the first user
      // message, Kite's tools with their schemas, and each call's result as a ToolResultPart.
      const seen = provider.seen.slice(before);
      assert.equal(seen.length, 4);
      const first = seen[0]!.messages[0]!;
      assert.equal(first.role, vscode.LanguageModelChatMessageRole.User);
      assert.ok(first.content[0] instanceof vscode.LanguageModelTextPart && /Kite/.test(first.content[0].value), 'no system prompt first');
      const write = seen[0]!.tools.find((t) => t.name === 'write_file');
      assert.ok(write && (write.inputSchema as { type?: string }).type === 'object', 'write_file not offered with its schema');
      const last = seen[1]!.messages.at(-1)!;
      const result = last.content.find((p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart);
      assert.equal(result?.callId, 'toolu_acc_1');
      const call = seen[1]!.messages.at(-2)!.content.find((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
      assert.equal(call?.name, 'write_file');
      assert.ok(readFileSync(join(ws, 'test/fees.test.js'), 'utf8').length > 0);
    } finally {
      watch.dispose();
    }
  });

  it('Stop Agent cancels the language model request: the provider sees its CancellationToken fire and the run ends cancelled', async () => {
    await pricedWorkspace();
    await useModel('slow');
    const before = provider.seen.length;
    const ended = nextRunEnd(k, 60_000);
    const token = await vscode.commands.executeCommand<string>('kite.startAgent');
    assert.ok(token, 'the run did not start');
    const asked = await waitFor('the slow model to be asked', () => provider.seen.slice(before).find((s) => s.family === 'slow'), [provider.onDidRequest], 30_000);
    assert.equal(await vscode.commands.executeCommand<boolean>('kite.stopAgent', { token }), true);
    const end = await ended;
    assert.equal(end.summary?.outcome, 'cancelled', end.error?.message ?? end.summary?.why);
    assert.equal(asked.cancelled, true, 'the provider never saw the cancellation');
  });

  it('a refused consent (LanguageModelError.NoPermissions) ends the run with a sentence that says VS Code asks once per extension and how to allow Kite', async () => {
    await pricedWorkspace();
    await useModel('refuses');
    const ended = nextRunEnd(k, 60_000);
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'));
    const end = await ended;
    assert.equal(end.summary?.outcome, 'error');
    const events = readEvents(end.summary!.logPath);
    const last = events.at(-1);
    assert.ok(last?.kind === 'session_end');
    assert.match(last.error ?? '', /model error \(no_permission\): VS Code did not let Kite use vscode-lm:kite-test\/refuses: it asks once per extension/);
    assert.match(last.error ?? '', /Manage Language Model Access…/);
  });

  it('a model VS Code does not have: the run ends error naming the models it offers', async () => {
    await pricedWorkspace([...FAMILIES, 'nope']);
    await useModel('nope');
    const ended = nextRunEnd(k, 60_000);
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'));
    const end = await ended;
    assert.equal(end.summary?.outcome, 'error');
    const last = readEvents(end.summary!.logPath).at(-1);
    assert.ok(last?.kind === 'session_end');
    assert.match(last.error ?? '', /model error \(model_not_found\): VS Code has no language model kite-test\/nope \(it offers: [^)]*kite-test\/scripted[^)]*\)\. Pick one of the models this VS Code offers with "Kite: Select Model…"/);
  });
});
