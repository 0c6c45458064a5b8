// The harness server and a custom log_dir: the log path it reports for a new run is in the
// configured folder, and a resumed log in that folder belongs to its workspace (the root that
// approvals name and "Always allow" writes to).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src/harness/host';
import type { ApprovalRequested, EventNotification, RunSummaryWire } from '../../../src/harness/protocol/rpc';
import { RunManager } from '../../../src/harness/server/runManager';
import { ev } from '../../helpers/events';
import { tempDir } from '../loop/kit';

function workspace(logDir: string): string {
  const root = tempDir('kite-server-logdir-');
  mkdirSync(join(root, '.kite'));
  writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ log_dir: logDir }));
  return root;
}

function manager() {
  const events: EventNotification[] = [];
  const approvals: ApprovalRequested[] = [];
  let host!: (h: Host) => void;
  const gotHost = new Promise<Host>((r) => (host = r));
  const never = (h: Host) => (host(h), new Promise<RunSummaryWire>(() => undefined));
  const m = new RunManager(
    { runFeature: (_o, h) => never(h), resumeRun: (_o, h) => never(h) },
    { event: (n) => void events.push(n), approvalRequested: (n) => void approvals.push(n), approvalWithdrawn: () => undefined, runEnded: () => undefined, log: () => undefined },
    {},
  );
  return { m, events, approvals, gotHost };
}

describe('server: RunManager with a custom log_dir', () => {
  it('a new run reports its log in the configured folder (logs/agent)', async () => {
    const root = workspace('logs/agent');
    const h = manager();
    const token = h.m.start({ root, mode: 'attended' });
    const host = await h.gotHost;
    host.onEvent?.(ev.sessionStart({ root, run: 'r1' }));
    assert.equal(h.events[0]?.log, join(root, 'logs', 'agent', 'r1.jsonl'));
    assert.deepEqual(h.m.list(), [{ token, log: join(root, 'logs', 'agent', 'r1.jsonl'), feature: 'F4' }]);
  });

  it('a resumed log in the configured folder (build/kite/logs) is a run of its workspace: approvals name that root', async () => {
    const root = workspace('build/kite/logs');
    const h = manager();
    h.m.resume({ log: join(root, 'build', 'kite', 'logs', 'r1.jsonl') });
    const host = await h.gotHost;
    void host.approve({ kind: 'read', id: 'r1', tool: 'read_file', path: '.env', reason: '".env" usually holds secrets' }, new AbortController().signal);
    assert.equal(h.approvals[0]?.root, root);
  });
});
