// The write snapshot for a log on disk (the extension's `kite-file:` documents): the log is
// indexed lazily and only its write calls are parsed (writeSnapshotIndexed); a Python Kite log is
// read whole. Its own file: writeSnapshot.ts loads at activation, this pulls in the schemas.
import { readLog } from '../events/reader';
import { openLazyLog } from './lazyLog';
import { writeSnapshot, writeSnapshotIndexed, type WriteSnapshot } from './writeSnapshot';

export async function writeDocumentSnapshot(log: string, seq: number): Promise<WriteSnapshot> {
  const lazy = await openLazyLog(log);
  if (!lazy) return writeSnapshot((await readLog(log)).events, seq);
  try {
    return await writeSnapshotIndexed(lazy.index, seq);
  } finally {
    lazy.log.close();
  }
}
