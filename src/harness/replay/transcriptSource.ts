// Where the transcript of the replayed log lives for the DAP client, and recognizing it in
// requests. In VS Code it is a `kite-transcript:` virtual document (a URI the extension renders);
// for other clients it is served by reference through the `source` request.
import { Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';

export const TRANSCRIPT_REF = 1;

export class TranscriptLocator {
  log = '';

  constructor(private readonly uriFor?: (log: string) => string) {}

  path(): string {
    return this.uriFor ? this.uriFor(this.log) : `${this.log}.kite-transcript`;
  }

  source(): Source {
    const name = `${basename(this.log)}.kite-transcript`;
    if (this.uriFor) return new Source(name, this.path());
    return new Source(name, this.path(), TRANSCRIPT_REF, 'kite-transcript');
  }

  /** Does a source in a request mean this transcript? (URIs may arrive encoded or not.) */
  matches(s: DebugProtocol.Source): boolean {
    if (!this.uriFor && s.sourceReference === TRANSCRIPT_REF) return true;
    if (!s.path) return false;
    const norm = (p: string) => {
      try {
        return decodeURIComponent(p).replace(/^kite-transcript:(\/\/)?/, '');
      } catch {
        return p;
      }
    };
    return norm(s.path) === norm(this.path());
  }
}
