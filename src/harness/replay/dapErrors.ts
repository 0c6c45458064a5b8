// Error ids of failed DAP responses (stable, for clients and tests), and the mapping from the
// typed errors of opening a log.
import { LogReadError } from '../events/reader';
import { ReplayOpenError } from './openReplay';

export const DapError = {
  badLaunchArgs: 2001,
  logNotFound: 2002,
  unsupportedVersion: 2003,
  notALog: 2004,
  emptyLog: 2005,
  notLaunched: 2010,
  badExpression: 2020,
  badTarget: 2030,
  liveUnavailable: 2040,
} as const;

/** The error response for a log that cannot be opened, or null when `e` is not such an error. */
export function openErrorOf(log: string, e: unknown): { id: number; message: string } | null {
  if (e instanceof LogReadError) {
    const id = e.code === 'not_found' ? DapError.logNotFound : e.code === 'unsupported_version' ? DapError.unsupportedVersion : DapError.notALog;
    return { id, message: `cannot replay ${log}: ${e.message}` };
  }
  if (e instanceof ReplayOpenError) return { id: DapError.emptyLog, message: `cannot replay ${log}: ${e.message}` };
  return null;
}
