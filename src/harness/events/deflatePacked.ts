// A history batch packed for the timeline page and deflated (protocol/packedMessage.ts says why),
// where the log is read: on the reader's worker thread for a big log. Level 1: a 1,000-event batch
// (~250 KB of JSON) takes about a millisecond and comes out 5-10 times smaller; higher levels gain
// little more for two to three times the time.
import { deflateRawSync } from 'node:zlib';
import type { PackedMessage } from '../protocol/packedMessage';

export function packDeflated(message: object): PackedMessage & { deflated: true } {
  const out = deflateRawSync(JSON.stringify(message), { level: 1 });
  // A buffer of exactly these bytes (VS Code posts a view's whole underlying buffer).
  const json = out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  return { type: 'packed', json, deflated: true };
}
