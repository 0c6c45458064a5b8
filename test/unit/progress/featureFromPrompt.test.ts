import assert from 'node:assert/strict';
import { featureFromPrompt, titleFromPrompt } from '../../../src/harness/progress/featureFromPrompt';
import { FeatureSchema, type ProgressFile } from '../../../src/harness/progress/progressFile';

const progress = (ids: string[]): ProgressFile => ({ goal: 'g', log: [], features: ids.map((id) => ({ id, title: id, status: 'done' })) });

describe('New Feature from Prompt: a typed request becomes a feature', () => {
  it('takes a free id, a title from the first line, the whole request as notes and the confirmed verify command', () => {
    const request = 'Add a late fee of 2% to overdue invoices.\nRound half-up to the paisa, like addFee.';
    const f = featureFromPrompt(progress(['F1', 'F2', 'Q1']), request, ' npm test ');
    assert.deepEqual(f, { id: 'F3', title: 'Add a late fee of 2% to overdue invoices', status: 'todo', notes: request, verify: 'npm test' });
    assert.equal(FeatureSchema.safeParse(f).success, true, 'a valid feature of the progress file');
  });

  it('without a verify command the feature has none (the config checks decide; nothing at all ends unverified)', () => {
    const f = featureFromPrompt(progress([]), 'Fix the typo in the README', null);
    assert.equal(f.id, 'F1');
    assert.equal('verify' in f, false);
  });

  it('a long first line is cut at a word with an ellipsis; an empty request is refused with the reason', () => {
    const t = titleFromPrompt('Please refactor the ledger module so that every amount is stored in paise as an integer and never as a float');
    assert.ok(t.length <= 61, t);
    assert.match(t, /^Please refactor the ledger module so that every amount is…$/);
    assert.throws(() => featureFromPrompt(progress([]), '  \n ', null), /the request is empty/);
  });
});
