// The status bar's observation-budget part (issue 14): a run with `budget.observation_tokens`
// shows how much of it tool results used; the tooltip always says the count.
import assert from 'node:assert/strict';
import { observationStatus, observationTooltip } from '../../../src/extension/observationText';
import { formatTokens, formatUsd } from '../../../src/extension/tokenText';

describe('status bar: observation tokens', () => {
  it('shows used / budget when the run has an observation budget, nothing in the text otherwise', () => {
    assert.equal(observationStatus(3240, 20_000), ' · obs 3.2k/20.0k');
    assert.equal(observationStatus(0, 500), ' · obs 0/500');
    assert.equal(observationStatus(3240, null), '');
  });

  it('the tooltip says what tool results put into the conversation, with the budget when there is one', () => {
    assert.equal(observationTooltip(12_345, 20_000), 'Tool results put ~12,345 tokens into the conversation of 20,000 (budget.observation_tokens).');
    assert.equal(observationTooltip(80, null), 'Tool results put ~80 tokens into the conversation.');
  });

  it('tokens and dollars read the same everywhere (status bar, Runs view)', () => {
    assert.deepEqual([formatTokens(999), formatTokens(1500), formatTokens(2_340_000)], ['999', '1.5k', '2.3M']);
    assert.deepEqual([formatUsd(0.0042), formatUsd(1.2)], ['$0.004', '$1.20']);
  });
});
