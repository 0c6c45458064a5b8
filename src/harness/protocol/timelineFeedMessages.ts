// Messages between a timeline view (TimelineSession, on the extension host's main thread) and the
// reader that feeds it (events/timelineFeed.ts), which runs on a worker thread for a big log: one
// typed table for both sides, as with the webview's messages. Batches arrive packed for the page
// (their bytes are moved, not copied, across threads); the host keeps only what row actions need.
import type { KiteEvent, SessionStart } from './events';
import type { PackedMessage } from './packedMessage';
import type { TimelineSource } from './webviewMessages';

/** Of an event, what the host's WriteIndex keeps (events/writeResolver.ts writeFactOf): a step of
 *  a write call, or an approval. */
export type WriteFact =
  | { kind: 'proposed' | 'intent' | 'tool'; id: string; name: 'write_file' | 'edit_file'; path: string | null; seq: number; applied: boolean }
  | { kind: 'approval'; id: string; seq: number };

/** What the reader is asked to read (structured-cloned into the worker). */
export interface FeedJob {
  log: string;
  /** As the page's snapshot names it. */
  source: TimelineSource;
}

/** From the reader to the view. */
export type FeedReport =
  | {
      type: 'batch';
      /** A snapshot or append message, packed and deflated (events/deflatePacked.ts), ready to post. */
      message: PackedMessage;
      /** As TailBatch's: part of the history, and its last part. */
      initial: boolean;
      done: boolean;
      events: number;
      /** The write calls' steps in this batch (for the diff actions), and the run's first event when it is in it. */
      writes: WriteFact[];
      start: SessionStart | null;
    }
  /** The file shrank or was replaced: the view starts over. */
  | { type: 'reset' }
  | { type: 'gone' }
  | { type: 'error'; message: string }
  | { type: 'answer'; id: number; event?: KiteEvent | null; raw?: string | null; error?: string };

/** From the view to a reader on a worker thread. */
export type FeedRequest =
  /** The page took the last batch: read on. */
  | { type: 'next' }
  | { type: 'event'; id: number; seq: number }
  | { type: 'raw'; id: number; seq: number };
