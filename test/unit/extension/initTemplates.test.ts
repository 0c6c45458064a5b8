import assert from 'node:assert/strict';
import { starterConfig, starterProgress } from '../../../src/extension/initTemplates';
import { parseConfig } from '../../../src/harness/config/config';
import { currentFeature, parseProgress } from '../../../src/harness/progress/progressFile';

describe('extension/initTemplates (Initialize Kite in This Workspace)', () => {
  it('writes a kite-progress.json the harness accepts, with a first feature to work on', () => {
    const p = parseProgress(starterProgress('/home/me/ledger'));
    assert.match(p.goal, /ledger/);
    assert.equal(currentFeature(p).id, 'F1');
  });

  it('writes a .kite/config.json the harness accepts', () => {
    const c = parseConfig(starterConfig());
    assert.equal(c.max_gate_failures, 3);
    assert.equal(c.budget.turns, 30);
  });
});
