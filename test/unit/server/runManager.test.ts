// RunManager without a transport: fake starters capture the options a run gets and hand back the
// Host the loop would use, so the wire mapping of approvals and settings is checked directly.
import assert from 'node:assert/strict';
import type { ApprovalAnswer, Host } from '../../../src/harness/host';
import {
  ApprovalRequestedSchema,
  ResumeRunParamsSchema,
  StartRunParamsSchema,
  type ApprovalRequested,
  type RunEnded,
  type RunSummaryWire,
} from '../../../src/harness/protocol/rpc';
import { overridesOf } from '../../../src/harness/config/settingsLayer';
import { RunManager, type Notifier, type ResumeOptions, type StartOptions } from '../../../src/harness/server/runManager';

interface Captured {
  start?: StartOptions;
  resume?: ResumeOptions;
  host?: Host;
  ready: Promise<void>;
}

function harness(extra: Partial<Notifier> = {}) {
  let resolveReady!: () => void;
  const cap: Captured = { ready: new Promise((r) => (resolveReady = r)) };
  let finish!: (s: RunSummaryWire) => void;
  const summary: RunSummaryWire = { feature: 'F1', outcome: 'done', turns: 1, tokens: 0, cost_usd: 0, commit: null, logPath: '/ws/.kite/runs/x.jsonl', proposals: [] };
  const go = (host: Host) => {
    cap.host = host;
    resolveReady();
    return new Promise<RunSummaryWire>((r) => (finish = r));
  };
  const approvals: ApprovalRequested[] = [];
  const ended: RunEnded[] = [];
  const notify: Notifier = {
    event: () => undefined,
    approvalRequested: (n) => void approvals.push(ApprovalRequestedSchema.parse(n)), // what goes on the wire must parse
    approvalWithdrawn: () => undefined,
    runEnded: (e) => void ended.push(e),
    log: () => undefined,
    ...extra,
  };
  const manager = new RunManager(
    {
      runFeature: (opts, host) => ((cap.start = opts), go(host)),
      resumeRun: (opts, host) => ((cap.resume = opts), go(host)),
    },
    notify,
    {},
  );
  return { manager, cap, approvals, ended, done: () => finish(summary) };
}

/** A value set in the user's own settings, as VS Code's inspect() reports it. */
const user = (globalValue: unknown) => ({ globalValue });
const scripted = { model: user('script:/s.json') };

describe('server: RunManager wire mapping', () => {
  it("the person's saves reach every running run that listens, and stop reaching it once it unsubscribes", async () => {
    const h = harness();
    assert.equal(h.manager.personEdited(['/ws/a.txt']), 0, 'no run yet: nobody told');
    h.manager.start(StartRunParamsSchema.parse({ root: '/ws', mode: 'attended', settings: scripted }));
    await h.cap.ready;
    const heard: string[][] = [];
    const stop = h.cap.host?.onPersonEdit?.((p) => void heard.push([...p]));
    assert.equal(h.manager.personEdited(['/ws/a.txt', '/ws/b.txt']), 1);
    stop?.();
    assert.equal(h.manager.personEdited(['/ws/c.txt']), 0);
    assert.deepEqual(heard, [['/ws/a.txt', '/ws/b.txt']]);
    h.done();
  });

  it('a read approval goes out as kind "read" with the file, tool and reason, and the answer comes back as given', async () => {
    const h = harness();
    const token = h.manager.start({ root: '/ws', mode: 'attended', settings: scripted });
    await h.cap.ready;
    const asked = h.cap.host!.approve({ kind: 'read', id: 'r1', tool: 'read_file', path: '.env', reason: '".env" usually holds secrets' }, new AbortController().signal);
    assert.deepEqual(h.approvals.map((a) => a.request), [{ kind: 'read', id: 'r1', tool: 'read_file', path: '.env', reason: '".env" usually holds secrets' }]);
    assert.equal(h.approvals[0]!.root, '/ws');
    assert.equal(h.manager.answer(token, 'r1', { decision: 'approve', always: true }), true);
    assert.deepEqual(await asked, { decision: 'approve', always: true } satisfies ApprovalAnswer);
    h.done();
  });

  it('settings reach runFeature as config overrides; params without them keep working', async () => {
    const h = harness();
    const settings = { model: user('script:/s.json'), maxGateFailures: user(2), 'policy.denyCommands': user(['npm publish']), 'policy.allowCommands': user(['npm test']) };
    h.manager.start(StartRunParamsSchema.parse({ root: '/ws', mode: 'attended', settings }));
    await h.cap.ready;
    // The user's sandbox switch ("on" when unset) always comes with settings.
    assert.deepEqual(h.cap.start?.overrides, { max_gate_failures: 2, policy: { deny: ['npm publish'], allow_attended: ['npm test'] }, sandbox: 'on' });
    assert.equal(h.cap.start?.model, 'script:/s.json');
    h.done();

    const old = harness();
    old.manager.start(StartRunParamsSchema.parse({ root: '/ws', mode: 'attended' }));
    await old.cap.ready;
    assert.equal(old.cap.start?.overrides, undefined);
    assert.equal(old.cap.start?.model, ''); // the workspace's model, else the default
    old.done();
  });

  it('resume gets the settings too (the run continues under the current ones)', async () => {
    const h = harness();
    h.manager.resume(ResumeRunParamsSchema.parse({ log: '/ws/.kite/runs/x.jsonl', mode: 'attended', settings: { 'policy.denyCommands': user(['rm .*']) } }));
    await h.cap.ready;
    assert.deepEqual(h.cap.resume?.overrides, { policy: { deny: ['rm .*'], allow_attended: [] }, sandbox: 'on' });
    h.done();
  });

  it('unusable settings end the run as invalid_settings, naming the setting, before it starts', async () => {
    let onEnded!: (e: RunEnded) => void;
    const ended = new Promise<RunEnded>((resolve) => (onEnded = resolve));
    const h = harness({ runEnded: (e) => onEnded(e) });
    const token = h.manager.start(StartRunParamsSchema.parse({ root: '/ws', mode: 'attended', settings: { 'policy.denyCommands': user(['ok', '(unclosed']) } }));
    const e = await ended;
    assert.equal(h.cap.start, undefined, 'runFeature was not called');
    assert.equal(e.token, token);
    assert.equal(e.summary, null);
    assert.equal(e.error?.code, 'invalid_settings');
    assert.match(e.error?.message ?? '', /kite\.policy\.denyCommands\[1\]: not a valid regular expression/);
  });

  it('the kite.sandbox switch reaches the run as overrides.sandbox, on start and on resume', async () => {
    const h = harness();
    h.manager.start(StartRunParamsSchema.parse({ root: '/ws', mode: 'attended', settings: { model: user('script:/s.json'), sandbox: user('on') } }));
    await h.cap.ready;
    assert.deepEqual(h.cap.start?.overrides, { sandbox: 'on' });
    h.done();
    const r = harness();
    r.manager.resume(ResumeRunParamsSchema.parse({ log: '/ws/.kite/runs/x.jsonl', settings: { sandbox: user('off') } }));
    await r.cap.ready;
    assert.deepEqual(r.cap.resume?.overrides, { sandbox: 'off' });
    r.done();
  });

  it('"run without a sandbox?" is asked of the extension with the run token, reason and fix; no notifier or a failure is no', async () => {
    const asked: unknown[] = [];
    const h = harness({ confirmUnsandboxed: async (q) => (asked.push(q), true) });
    const token = h.manager.start({ root: '/ws', mode: 'attended', settings: scripted });
    await h.cap.ready;
    assert.equal(await h.cap.host!.confirmUnsandboxed!({ reason: 'no bwrap', fix: 'install bubblewrap' }, new AbortController().signal), true);
    assert.deepEqual(asked, [{ token, root: '/ws', reason: 'no bwrap', fix: 'install bubblewrap' }]);
    h.done();

    const none = harness();
    none.manager.start({ root: '/ws', mode: 'attended', settings: scripted });
    await none.cap.ready;
    assert.equal(await none.cap.host!.confirmUnsandboxed!({ reason: 'r', fix: 'f' }, new AbortController().signal), false);
    none.done();

    const broken = harness({ confirmUnsandboxed: () => Promise.reject(new Error('no window')) });
    broken.manager.start({ root: '/ws', mode: 'attended', settings: scripted });
    await broken.cap.ready;
    assert.equal(await broken.cap.host!.confirmUnsandboxed!({ reason: 'r', fix: 'f' }, new AbortController().signal), false);
    broken.done();
  });

  it('a command approval carries where it will run on the wire', async () => {
    const h = harness();
    h.manager.start({ root: '/ws', mode: 'attended', settings: scripted });
    await h.cap.ready;
    const sandbox = { kind: 'bwrap' as const, network: 'none' as const, limits: null, note: null };
    void h.cap.host!.approve({ kind: 'command', id: 'c1', command: 'npm test', cwd: '/ws', sandbox }, new AbortController().signal).catch(() => undefined);
    assert.deepEqual(h.approvals[0]!.request, { kind: 'command', id: 'c1', command: 'npm test', cwd: '/ws', sandbox });
    h.done();
  });

  it('empty settings add nothing', () => {
    assert.equal(overridesOf({}), undefined);
    assert.equal(overridesOf({ policy: { deny: [], allowAttended: [] } }), undefined);
    assert.deepEqual(overridesOf({ maxGateFailures: 5 }), { max_gate_failures: 5 });
  });

  it('the wire schema rejects a read approval without its path or reason', () => {
    const bad = ApprovalRequestedSchema.safeParse({ token: 't', log: null, root: '/ws', request: { kind: 'read', id: 'r1', tool: 'read_file' } });
    assert.equal(bad.success, false);
    assert.deepEqual(bad.error?.issues.map((i) => i.path.join('.')).sort(), ['request.path', 'request.reason']);
  });
});
