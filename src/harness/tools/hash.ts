// Content hashes for intent records and tool results (pre_hash / post_hash).
import { createHash } from 'node:crypto';

/** Hex sha256 of a string (as UTF-8) or of raw bytes. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
