// A failed read or write of one of Kite's own files (the progress file, the run's log, the commit's
// temporary index): the message names the file and the errno, so "ENOSPC on kite-progress.json"
// reaches the person instead of a bare stack trace.
export class KiteFileError extends Error {
  constructor(
    readonly file: string,
    readonly errno: string,
    message: string,
  ) {
    super(message);
    this.name = 'KiteFileError';
  }
}

/** `what` failed on `file`: wrap the system error `e` (its code, e.g. ENOSPC, EROFS, EISDIR). */
export function kiteFileError(what: string, file: string, e: unknown): KiteFileError {
  const code = (e as NodeJS.ErrnoException | null)?.code ?? 'EIO';
  return new KiteFileError(file, code, `could not ${what} ${file}: ${code} (${(e as Error)?.message ?? String(e)})`);
}

/**
 * A system error (errno) that escaped the loop is a failure of one of Kite's own files — the
 * tools turn theirs into tool errors for the model. As a KiteFileError naming the file, else null.
 */
export function asKiteFileError(e: unknown, fallbackFile: string): KiteFileError | null {
  if (e instanceof KiteFileError) return e;
  const err = e as NodeJS.ErrnoException | null;
  if (!err || typeof err.code !== 'string' || typeof err.syscall !== 'string') return null;
  return kiteFileError('write', err.path ?? fallbackFile, e);
}
