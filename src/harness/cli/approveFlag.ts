// `kite resume … --approve ID[,ID]` names the calls it approves (issue 13, item 16): a blanket
// "yes" to calls nobody looked at is how a hidden command gets approved. Taken out of argv before
// the strict parser, because a bare `--approve` (allowed when exactly one call waits) takes no value.
import { UsageError, type FlagSpec } from './args';
import { pendingCallsText, type PendingCall } from './pendingCalls';

/** argv without the --approve flags, and the ids they name (null: no --approve; [] a bare one). */
export function takeApprove(argv: readonly string[], specs: readonly FlagSpec[]): { rest: string[]; approve: string[] | null } {
  const takesValue = new Set(specs.filter((s) => s.type !== 'bool' && s.name !== 'approve').map((s) => `--${s.name}`));
  const ids = (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean);
  const rest: string[] = [];
  let approve: string[] | null = null;
  let seenTarget = false; // `kite resume RUN --approve c3`: after the run, a plain word is a call id
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--approve') {
      approve ??= [];
      const next = argv[i + 1];
      if (seenTarget && next !== undefined && !next.startsWith('-')) approve.push(...ids(argv[++i]));
      continue;
    }
    if (a.startsWith('--approve=')) {
      const named = ids(a.slice('--approve='.length));
      if (!named.length) throw new UsageError('--approve= needs call ids (e.g. --approve=toolu_1,toolu_2)');
      (approve ??= []).push(...named);
      continue;
    }
    rest.push(a);
    if (takesValue.has(a) && i + 1 < argv.length) rest.push(argv[++i]);
    else if (!a.startsWith('-')) seenTarget = true;
  }
  return { rest, approve };
}

/**
 * The ids `--approve` approves: the ones it names (each must be waiting), or — bare — the one call
 * that waits (shown in the pause message and again as it is approved). A bare --approve with
 * several waiting calls is a usage error that shows them all.
 */
export function approvedIds(named: readonly string[], pending: readonly PendingCall[], run: string): string[] {
  const waiting = new Set(pending.map((c) => c.id));
  const listing = () => `\n\n${pendingCallsText(pending)}`;
  if (!named.length) {
    if (pending.length <= 1) return pending.map((c) => c.id);
    throw new UsageError(`${pending.length} calls are waiting; name the ones you approve, e.g. kite resume ${run} --approve ${pending.map((c) => c.id).join(',')}${listing()}`);
  }
  const unknown = named.filter((id) => !waiting.has(id));
  if (unknown.length) {
    throw new UsageError(`${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not waiting for approval; waiting: ${pending.map((c) => c.id).join(', ') || 'none'}${pending.length ? listing() : ''}`);
  }
  return [...new Set(named)];
}
