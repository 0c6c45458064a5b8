// Where a key set in VS Code lasts (issue 18 item 9): a browser-based VS Code may forget Secret
// Storage after a reload, and Kite says so — with the variable that keeps the key — instead of
// a run failing later for a reason nobody was told.
import assert from 'node:assert/strict';
import { keyPersistenceNote } from '../../../src/extension/keyPersistence';

describe('API keys: where they persist', () => {
  it('in a browser-based VS Code: may be gone after a reload; names the server variable that keeps it', () => {
    const note = keyPersistenceNote('web', 'ANTHROPIC_API_KEY');
    assert.match(note, /browser-based VS Code/);
    assert.match(note, /gone after a reload/);
    assert.match(note, /set ANTHROPIC_API_KEY in the environment of the VS Code server/);
  });

  it('on the desktop: kept in Secret Storage across reloads; the environment variable works too', () => {
    const note = keyPersistenceNote('desktop', 'OPENAI_API_KEY');
    assert.match(note, /survives reloads/);
    assert.match(note, /OPENAI_API_KEY/);
    assert.doesNotMatch(note, /browser/);
  });
});
