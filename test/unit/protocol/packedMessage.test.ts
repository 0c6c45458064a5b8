// A history batch reaches the webview packed (protocol/packedMessage.ts): VS Code sends a typed
// array's whole underlying buffer, so the buffer must hold the message's JSON and nothing else.
import assert from 'node:assert/strict';
import { isDeflated, pack, unpack, unpackDeflated } from '../../../src/harness/protocol/packedMessage';
import { packDeflated } from '../../../src/harness/events/deflatePacked';

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

  it('a deflated message (a history batch) is several times smaller and inflates to an equal message, as the page reads it', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => ({ v: 1, seq: i, run: '', t: i / 10, kind: 'policy', id: `toolu_${i}`, name: 'read_file', decision: 'allow', rule: 'allow:reads', reason: 'reads inside the workspace are allowed — naïve 費用' }));
    const msg = { type: 'append', events, problems: [], loading: true, rowsOnly: true };
    const p = packDeflated(msg);
    assert.ok(isDeflated(p) && !isDeflated(pack(msg)) && !isDeflated(null));
    assert.ok(p.json.byteLength * 5 < pack(msg).json.byteLength, `${p.json.byteLength} of ${pack(msg).json.byteLength} bytes`);
    assert.deepEqual(await unpackDeflated(p), { message: msg });
    assert.deepEqual(await unpackDeflated({ ...p, json: new Uint8Array(p.json) }), { message: msg }, 'a view of the bytes too');
    assert.deepEqual(unpack(p), { error: 'a deflated message read as a plain one' });
  });

  it('names what is wrong with deflated bytes that do not inflate or are not JSON', async () => {
    const garbage = await unpackDeflated({ type: 'packed', deflated: true, json: new Uint8Array([0xff, 0xfe, 0x01, 0x02]).buffer });
    assert.ok('error' in garbage && /^a deflated message that does not inflate \(/.test(garbage.error), JSON.stringify(garbage));
    const notJson = packDeflated({});
    const cut = await unpackDeflated({ ...notJson, json: (await import('node:zlib')).deflateRawSync('{"type":').buffer });
    assert.ok('error' in cut && /^a packed message that is not JSON/.test(cut.error), JSON.stringify(cut));
    assert.deepEqual(await unpackDeflated({ type: 'packed', deflated: true }), { error: 'a packed message without its bytes' });
  });
});
