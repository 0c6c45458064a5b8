// What the per-hunk Reject prompt says happens next (issue 18 item 8). Pure, so it is unit-tested.
/** What rejecting a hunk leads to, said before the person confirms it. */
export function nextAfterReject(undecidedAfter: number, accepted: number): string {
  if (undecidedAfter > 0) return `This change goes back to the file's text; ${undecidedAfter} more change${undecidedAfter === 1 ? '' : 's'} to decide before Kite answers the agent.`;
  return accepted > 0
    ? 'This is the last undecided change: Kite then writes the changes you accepted and tells the agent which ones you rejected and why.'
    : 'This is the last undecided change: you rejected them all, so Kite leaves the file as it is and tells the agent why.';
}
