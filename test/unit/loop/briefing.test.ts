import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBriefing, readAgentsMd } from '../../../src/harness/prompts/briefing';
import { SYSTEM_PROMPT } from '../../../src/harness/prompts/system';
import type { ProgressFile } from '../../../src/harness/progress/progressFile';
import { tempDir } from './kit';

const progress: ProgressFile = {
  goal: 'Ledger: exact money.',
  log: [{ date: '2026-03-01 10:15', feature: 'F0', outcome: 'done', turns: 4, tokens: 1000, cost: 0.01, commit: 'abcdef1234' }],
  features: [
    { id: 'F0', title: 'Balances', status: 'done' },
    { id: 'F1', title: 'Fees round half-up', status: 'in_progress', verify: 'node --test test/fees.test.js', notes: '[2026-03-01 gate_failed] tried toFixed' },
  ],
};

describe('briefing and system prompt', () => {
  it('the briefing names goal, feature, earlier notes, other features, recent log, AGENTS.md and every gate command', () => {
    const b = buildBriefing({ progress, feature: progress.features[1], checks: ['npm test'], commandTimeoutS: 60, agentsMd: 'Use integer paise.' });
    for (const needle of [
      'Ledger: exact money.',
      'Your feature: F1 — Fees round half-up',
      'tried toFixed',
      'F0 [done] Balances',
      '2026-03-01 10:15 F0: done, 4 turns, commit abcdef1',
      'Use integer paise.',
      '`npm test` (project check)',
      "`node --test test/fees.test.js` (this feature's verify command)",
      '60 s time limit',
    ])
      assert.ok(b.includes(needle), `briefing lacks: ${needle}`);
  });

  it('without checks or verify it says how done is judged; without notes it says this is the first session', () => {
    const b = buildBriefing({ progress: { goal: 'g', log: [], features: [{ id: 'F1', title: 't', status: 'todo' }] }, feature: { id: 'F1', title: 't', status: 'todo' }, checks: [], commandTimeoutS: 60 });
    assert.match(b, /No checks are configured/);
    assert.match(b, /first session/);
    assert.doesNotMatch(b, /AGENTS\.md/);
  });

  it('says whether a person is watching, the budget and how many failed gates end the session', () => {
    const feature = progress.features[1];
    const un = buildBriefing({ progress, feature, checks: ['npm test'], commandTimeoutS: 60, mode: 'unattended', limits: { turns: 20, tokens: 2_000_000, usd: 1, wall_s: 1800 }, maxGateFailures: 3 });
    assert.match(un, /## This session\n- Unattended: nobody is watching\. .*the only commands that run are the gate commands below/);
    assert.match(un, /- Budget: at most 20 model turns, 2,000,000 tokens, \$1\.00, 30 minutes\. When one runs out, the session ends as budget_exceeded/);
    assert.match(un, /- The gate may fail 3 times: failure number 3 ends the session as gate_failed\./);
    const at = buildBriefing({ progress, feature, checks: [], commandTimeoutS: 60, mode: 'attended', limits: { turns: null, tokens: null, usd: null, wall_s: 90 }, maxGateFailures: 1 });
    assert.match(at, /- A person is watching: your writes and commands are shown to them for approval/);
    assert.match(at, /- Budget: at most 90 seconds\./);
    assert.match(at, /- The gate may fail once: failure number 1 ends/);
    // byte-stable: the same input gives the same text (no clock in it)
    assert.equal(buildBriefing({ progress, feature, checks: [], commandTimeoutS: 60, mode: 'attended' }), buildBriefing({ progress, feature, checks: [], commandTimeoutS: 60, mode: 'attended' }));
  });

  it('reads AGENTS.md when present and caps a huge one', () => {
    const dir = tempDir();
    assert.equal(readAgentsMd(dir), null);
    writeFileSync(join(dir, 'AGENTS.md'), 'x'.repeat(20_000));
    const a = readAgentsMd(dir) ?? '';
    assert.ok(a.length < 12_200);
    assert.match(a, /AGENTS\.md cut: 8000 more characters/);
  });

  it('the system prompt explains done, the gate, refusals, edits by the person and QUEUE lines', () => {
    for (const needle of ['claiming the feature is done', 'the gate', 'did NOT happen', 'diff against your proposal', 'QUEUE: <short title', 'Kite commits your work']) assert.ok(SYSTEM_PROMPT.includes(needle), needle);
  });

  it('the system prompt says how to be blocked (no questions mid-run), what unattended allows, and holds nothing run-specific', () => {
    for (const needle of ['Nobody answers questions during the session', 'first line says what blocks you', 'When nobody is watching', 'read_file, list_files and search', 'Claim done only when you have seen the gate', 'need a person\'s approval', 'Kite refuses to commit work that contains a secret'])
      assert.ok(SYSTEM_PROMPT.includes(needle), needle);
    assert.doesNotMatch(SYSTEM_PROMPT, /\d{4}-\d{2}-\d{2}|\d{2}:\d{2}/); // no dates or times: the cached prefix must not move
  });
});
