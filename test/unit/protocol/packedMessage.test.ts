// A history batch reaches the webview packed (protocol/packedMessage.ts): VS Code sends a typed
// array's whole underlying buffer, so the buffer must hold the message's JSON and nothing else.
import assert from 'node:assert/strict';
import { pack, unpack } from '../../../src/harness/protocol/packedMessage';

describe('packed webview messages', () => {
  it('the buffer is exactly the JSON of the message, non-ASCII text included, and unpacks to an equal message', () => {
    const msg = { type: 'append', events: [{ kind: 'user', text: 'naïve — 費用 🪁' }], problems: [], loading: false };
    const p = pack(msg);
    assert.equal(p.type, 'packed');
    assert.ok(p.json instanceof ArrayBuffer);
    assert.equal(Buffer.from(p.json).toString('utf8'), JSON.stringify(msg));
    assert.deepEqual(unpack(p), { message: msg });
    assert.deepEqual(unpack({ type: 'packed', json: new Uint8Array(p.json) }), { message: msg }, 'a view of the bytes too');
  });

  it('passes other messages through, and names what is wrong with a broken one', () => {
    const plain = { type: 'status', live: true, message: null };
    assert.deepEqual(unpack(plain), { message: plain });
    assert.deepEqual(unpack(null), { message: null });
    assert.deepEqual(unpack({ type: 'packed' }), { error: 'a packed message without its bytes' });
    const cut = unpack({ type: 'packed', json: new TextEncoder().encode('{"type":').buffer });
    assert.ok('error' in cut && /^a packed message that is not JSON \(/.test(cut.error), JSON.stringify(cut));
  });
});
