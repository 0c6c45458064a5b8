// Content hashes: intent records and tool results (pre_hash / post_hash), the log's hash chain
// (events/chain.ts) and its stored-arguments references (protocol/argsRef.ts).
import * as crypto from 'node:crypto';
import { readFileSync } from 'node:fs';

// One-shot crypto.hash (Node ≥ 20.12) is about twice as fast as createHash for a short input, and
// every line of every log read is hashed, and every call's arguments once (issue 17); createHash
// where it is missing.
const oneShot = (crypto as { hash?: (alg: string, data: string | Buffer, enc: 'hex') => string }).hash;

/** Hex sha256 of a string (as UTF-8) or of raw bytes. */
export function sha256(text: string | Buffer): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/** Hex sha256 of a file's bytes now, or null when it is gone (or a folder). */
export function fileSha256(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}
