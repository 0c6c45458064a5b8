// The abort wiring and silence timer every streaming adapter needs around one HTTP call: the
// caller's cancel aborts the request, a stream silent for `timeoutMs` aborts it too, and after the
// stream ends `throwIfCut()` says which of the two stopped it (the SDKs end iteration quietly on abort).
import { ModelError } from './model';
import { StreamInterrupted } from './retry';

export class StreamWatchdog {
  private readonly ctl = new AbortController();
  private readonly cancel = () => this.ctl.abort();
  private idle: NodeJS.Timeout | undefined;
  private stalled = false;

  constructor(
    private readonly outer: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (outer?.aborted) this.ctl.abort();
    outer?.addEventListener('abort', this.cancel, { once: true });
  }

  /** The signal to give the SDK's request. */
  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** (Re)starts the silence timer: call when the stream starts and on every chunk. */
  arm(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.stalled = true;
      this.ctl.abort();
    }, this.timeoutMs);
  }

  /** After the stream ended: a cancel or a stall that cut it short, as the error to throw. */
  throwIfCut(): void {
    if (this.outer?.aborted) throw new ModelError('cancelled', 'The model call was cancelled.');
    if (this.stalled) throw new StreamInterrupted('timeout', `the reply stream was silent for ${this.timeoutMs} ms`);
  }

  /** Stops the timer and releases the connection (if reading stopped early). */
  dispose(): void {
    clearTimeout(this.idle);
    this.outer?.removeEventListener('abort', this.cancel);
    this.ctl.abort();
  }
}
