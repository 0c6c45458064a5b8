// Content hashes for intent records and tool results (pre_hash / post_hash).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Hex sha256 of a string (as UTF-8) or of raw bytes. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hex sha256 of a file's bytes now, or null when it is gone (or a folder). */
export function fileSha256(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}
