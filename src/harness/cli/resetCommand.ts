// `kite reset ID [DIR]` — put a feature back to `todo` after a run that did not end done (error,
// gate_failed, unverified, …), so the next `kite run` picks it up. Its notes stay (they tell the
// next run what happened); nothing is committed and the work tree is not touched.
import { join, resolve } from 'node:path';
import { PROGRESS_FILE } from '../progress/progressFile';
import { resetFeature } from '../progress/resetFeature';
import { parseArgs, UsageError } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';

export const RESET_USAGE = [
  'usage: kite reset ID [DIR]',
  '',
  `Sets feature ID in DIR/${PROGRESS_FILE} (default: the current folder) back to "todo". Its notes are`,
  'kept; nothing is committed and no other file changes. The next `kite run` works on it again.',
].join('\n');

export async function resetMain(argv: string[], out: Out = stdio): Promise<number> {
  try {
    const args = parseArgs(argv, [], 2);
    if (args.help) {
      out.out(RESET_USAGE);
      return 0;
    }
    const [id, dir] = args.positionals;
    if (!id) throw new UsageError('kite reset needs the id of the feature to reset (e.g. kite reset F1)');
    const r = resetFeature(join(resolve(dir ?? '.'), PROGRESS_FILE), id);
    out.out(r.was === 'todo' ? `${id} is already todo; nothing changed.` : `${id}: ${r.was} → todo (notes kept, nothing committed). Run \`kite run\` to work on it again.`);
    return 0;
  } catch (e) {
    return reportFailure(e, out, 'Run `kite reset --help` for the usage.');
  }
}
