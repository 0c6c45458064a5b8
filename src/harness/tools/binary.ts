// "Binary" means a NUL byte in the first 8 KB, like git's heuristic.
import * as fs from 'node:fs';

export const SNIFF_BYTES = 8192;

export function looksBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

/** Reads only the first 8 KB of a file to decide. */
export function fileLooksBinary(abs: string): boolean {
  const fd = fs.openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = fs.readSync(fd, buf, 0, SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
}
