// The host of an unattended run: nobody is there to answer. The policy already turns "ask" into
// a refusal in unattended mode; this is the second line of defence if anything still asks.
import type { ApprovalAnswer, Host } from '../host';
import type { KiteEvent } from '../protocol/events';

export class UnattendedHost implements Host {
  constructor(private readonly listener?: (e: KiteEvent) => void) {}

  approve(): Promise<ApprovalAnswer> {
    return Promise.resolve({ decision: 'deny', reason: 'this run is unattended and nobody can approve it; only allowed actions run' });
  }

  onEvent(e: KiteEvent): void {
    this.listener?.(e);
  }
}
