// `kite run --replay LOG --live-mcp`: the approved servers start again and answer each recorded MCP
// call live; an answer that differs from the recording is a divergence naming the call, its seq and
// the first differing line. Without the flag the same replay starts nothing (mcpRunModes.test.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayMain } from '../../../src/harness/cli/replayCommand';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { say, use } from '../../../src/harness/model/scripted';
import { EVERYTHING_SERVER, fsServer, logOf, mcpProject, runScript, toolEvent, warnings, writeConfig, type McpProject } from './kit';

const countedEverything = { command: '/bin/sh', args: ['-c', `echo started >> starts.log; exec ${process.execPath} ${EVERYTHING_SERVER} stdio`] };
const starts = (p: McpProject) => readFileSync(join(p.repo, 'starts.log'), 'utf8').split('\n').filter(Boolean).length;

async function replayCli(p: McpProject, argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const saved = process.env.KITE_STATE_DIR;
  process.env.KITE_STATE_DIR = p.stateDir; // the CLI reads approvals from the process environment
  try {
    const code = await replayMain(argv, { out: (t) => lines.push(t), err: (t) => lines.push(t) });
    return { code, out: lines.join('\n') };
  } finally {
    if (saved === undefined) delete process.env.KITE_STATE_DIR;
    else process.env.KITE_STATE_DIR = saved;
  }
}

describe('replay with --live-mcp (system)', function () {
  this.timeout(120_000);

  it('calls the servers again and reports the one call whose live answer differs', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything, fs: fsServer('.') } } });
    approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
    const r = await runScript(p, [use('mcp__everything__echo', 'e1', { message: 'same' }), use('mcp__fs__list_directory', 'l1', { path: p.repo }), say('Done.')]);
    assert.equal(r.outcome, 'done', r.summary);
    const recorded = await logOf(r.logPath);
    assert.equal(starts(p), 1);

    // Unchanged world: the live answers are the recorded ones.
    const same = await replayCli(p, ['--replay', r.logPath, p.repo, '--live-mcp', '--on-divergence', 'continue']);
    assert.equal(starts(p), 2, 'the live replay started the server');
    assert.doesNotMatch(same.out, /divergence:/, same.out);
    assert.equal(same.code, 0, same.out);

    writeFileSync(join(p.repo, 'appeared.txt'), 'new\n'); // the fs server now lists one more entry
    const live = await replayCli(p, ['--replay', r.logPath, p.repo, '--live-mcp', '--on-divergence', 'continue']);
    assert.equal(live.code, 1, live.out);
    const l1 = toolEvent(recorded, 'l1');
    assert.ok(l1);
    assert.match(live.out, new RegExp(`divergence: replay diverged at recorded seq ${l1.seq}: MCP call mcp__fs__list_directory \\(l1\\) answered differently live, line \\d+: .*appeared\\.txt`), live.out);
    const replayLog = /Log (\S+-replay(?:-\d+)?\.jsonl)/.exec(live.out)?.[1];
    assert.ok(replayLog, live.out);
    const replayed = await logOf(replayLog);
    const divergences = replayed.filter((e) => e.kind === 'divergence');
    assert.equal(divergences.length, 1, JSON.stringify(divergences));
    assert.ok(divergences[0].kind === 'divergence' && divergences[0].id === 'l1' && divergences[0].at_seq === l1.seq);
    assert.match(toolEvent(replayed, 'l1')?.output ?? '', /appeared\.txt/, 'the live answer is in the replay log');
    assert.equal(toolEvent(replayed, 'e1')?.output, 'Echo: same');
    assert.equal(warnings(replayed, 'mcp_started').length, 2, 'both servers started for the live replay');

    // Without the flag the same replay uses the recording: no server, no divergence.
    const plain = await replayCli(p, ['--replay', r.logPath, p.repo, '--on-divergence', 'continue']);
    assert.equal(plain.code, 0, plain.out);
    assert.equal(starts(p), 3, 'no server started without --live-mcp');
  });

  it('in a scratch worktree (--worktree, and the debugger\'s live mode) the servers count as approved in the person\'s checkout', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything } } });
    approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
    const r = await runScript(p, [use('mcp__everything__echo', 'e1', { message: 'in a worktree' }), say('Done.')]);
    assert.equal(r.outcome, 'done', r.summary);
    const res = await replayCli(p, ['--replay', r.logPath, p.repo, '--worktree', '--live-mcp']);
    assert.equal(res.code, 0, res.out);
    const replayed = await logOf(/Log (\S+-replay(?:-\d+)?\.jsonl)/.exec(res.out)?.[1] ?? '');
    assert.equal(warnings(replayed, 'mcp_unapproved').length, 0, JSON.stringify(warnings(replayed, 'mcp_unapproved')));
    assert.equal(warnings(replayed, 'mcp_started').length, 1);
    assert.equal(toolEvent(replayed, 'e1')?.output, 'Echo: in a worktree');
  });
});
