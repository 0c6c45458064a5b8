// Where the debugger's write frames point: in VS Code a `kite-file:` virtual document (the
// extension renders it with writeSnapshot, read-only); for other DAP clients a source reference
// the adapter serves itself through the `source` request, from the same writeSnapshot.
import { Source } from '@vscode/debugadapter';
import { basename } from 'node:path';
import { LAST_TRANSCRIPT_REF } from './transcriptSource';
import { WRITE_DOC_SCHEME, writeDocPath } from './writeSnapshot';

/** Source references of write documents start above the transcript's and its windows'. */
const FIRST_REF = LAST_TRANSCRIPT_REF + 1;

export class WriteSources {
  private readonly refs = new Map<string, number>();
  private readonly bySeq = new Map<number, number>();

  constructor(private readonly uriFor?: (log: string, seq: number, path: string) => string) {}

  source(log: string, path: string, seq: number): Source {
    if (this.uriFor) return new Source(basename(path), this.uriFor(log, seq, path));
    const key = `${log}\n${seq}`;
    let ref = this.refs.get(key);
    if (ref === undefined) {
      ref = FIRST_REF + this.refs.size;
      this.refs.set(key, ref);
      this.bySeq.set(ref, seq);
    }
    return new Source(basename(path), writeDocPath(log, seq, path), ref, WRITE_DOC_SCHEME);
  }

  /** The write event a source reference stands for, if it is one of ours. */
  seqOf(ref: number | undefined): number | undefined {
    return ref === undefined ? undefined : this.bySeq.get(ref);
  }
}
