// `kite restore LOG --to SEQ [--yes] [--force-changed]` — put every file the run touched back to
// its content right after event SEQ (restore/). Lists the files first. On a terminal it asks; without
// one it needs --yes. Files a person changed since the run are never overwritten on --yes alone:
// on a terminal a second question asks for them, otherwise --force-changed is needed.
import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { resolveRunLog } from '../events/logFiles';
import { applyRestore } from '../restore/applyRestore';
import { planRestoreOfLog, RestoreError, type RestoreChange, type RestorePlan } from '../restore/restorePlan';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';
import { shellQuote } from '../protocol/shellQuote';

const FLAGS: FlagSpec[] = [
  { name: 'to', type: 'string', value: 'SEQ', help: 'the event to restore to: the workspace as it was right after it (see `kite timeline LOG`)' },
  { name: 'yes', type: 'bool', help: 'restore without asking (needed without a terminal); files you changed since the run are still kept' },
  { name: 'force-changed', type: 'bool', help: 'also overwrite the files you changed since the run' },
];

export const RESTORE_USAGE = [
  'usage: kite restore LOG|RUN_ID --to SEQ [--yes] [--force-changed]',
  '',
  'Puts every file the run of LOG wrote back to its content right after event SEQ (files it created',
  'later are removed), after listing them. A file you changed since the run is only overwritten with',
  '--force-changed (or your "y" to the second question on a terminal). The restore is logged in LOG.',
  'Exit 0: every file is as it was then; 1: some were kept (listed) or you said no; 2: nothing done.',
  '',
  formatFlags(FLAGS),
].join('\n');

export interface RestoreDeps {
  isTty?: boolean;
  ask?: (question: string) => Promise<string>;
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

function line(c: RestoreChange): string {
  const verb = c.action === 'remove' ? 'remove ' : 'restore';
  return `  ${verb} ${c.path}  (${c.why})${c.changedByPerson ? '  ← CHANGED since the run' : ''}`;
}

function listPlan(plan: RestorePlan, out: Out): void {
  out.out(`Restore ${plan.root} to right after event ${plan.toSeq} of ${plan.log}:`);
  for (const c of plan.changes) out.out(line(c));
  for (const k of plan.kept) out.out(`  keep    ${k.path}  (${k.reason})`);
  if (plan.unchanged.length) out.out(`  ${plural(plan.unchanged.length, 'other file')} already as then: ${plan.unchanged.join(', ')}`);
}

async function askTty(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

export async function restoreMain(argv: string[], out: Out = stdio, deps: RestoreDeps = {}): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(RESTORE_USAGE);
      return 0;
    }
    const [log] = args.positionals;
    if (!log) throw new UsageError('kite restore needs the run log (e.g. kite restore .kite/runs/20260101-120000-F1.jsonl --to 12)');
    const to = args.flags.to;
    if (to === undefined) throw new UsageError('kite restore needs --to SEQ, the event to restore to (see `kite timeline LOG` for the numbers)');
    if (typeof to !== 'string' || !/^\d+$/.test(to)) throw new UsageError(`--to must be an event number (0 or more), got "${String(to)}"`);
    const plan = await planRestoreOfLog(resolveRunLog(log, resolve('.')), Number(to));
    listPlan(plan, out);
    if (!plan.changes.length) {
      out.out(plan.kept.length ? 'Nothing can be restored: the files above are kept.' : `Nothing to restore: every file the run touched is as it was right after event ${plan.toSeq}.`);
      return plan.kept.length ? 1 : 0;
    }
    const changed = plan.changes.filter((c) => c.changedByPerson);
    let overwriteChanged = args.flags['force-changed'] === true;
    const isTty = deps.isTty ?? Boolean(process.stdin.isTTY && process.stderr.isTTY);
    if (!args.flags.yes) {
      if (!isTty) throw new UsageError(`not a terminal, so nobody can confirm: nothing was changed. Run again with --yes to restore the ${plural(plan.changes.length - (overwriteChanged ? 0 : changed.length), 'file')} listed${changed.length && !overwriteChanged ? ` (add --force-changed to also overwrite the ${plural(changed.length, 'file')} you changed)` : ''}`);
      const ask = deps.ask ?? askTty;
      const yes = async (q: string): Promise<boolean> => /^y(es)?$/i.test((await ask(q)).trim());
      const safe = plan.changes.length - changed.length;
      const names = changed.map((c) => c.path).join(', ');
      let go: boolean;
      if (overwriteChanged || !changed.length) go = await yes(`Restore ${plural(plan.changes.length, 'file')}${changed.length ? `, including the ${changed.length} you changed since the run` : ''}? [y/N] `);
      else if (!safe) go = overwriteChanged = await yes(`${plural(changed.length, 'file')} changed since the run (${names}). Overwrite ${changed.length === 1 ? 'it' : 'them'}? [y/N] `);
      else {
        go = await yes(`Restore ${plural(safe, 'file')}? [y/N] `);
        if (go) overwriteChanged = await yes(`Also overwrite the ${plural(changed.length, 'file')} you changed since the run (${names})? [y/N] `);
      }
      if (!go) {
        out.out('Nothing restored.');
        return 1;
      }
    }
    const r = await applyRestore(plan, { overwriteChanged });
    for (const c of r.restored) out.out(`${c.action === 'remove' ? 'removed ' : 'restored'} ${c.path}`);
    for (const k of r.kept) out.out(`kept     ${k.path}: ${k.reason}`);
    if (r.event) {
      out.out(`Logged as event ${r.event.seq} (restore) in ${plan.log}.`);
      // A restore is itself a point in the log: restoring to the event before it is the way back.
      out.out(`To undo: kite restore ${shellQuote(log)} --to ${plan.lastSeq} --yes puts ${r.restored.length === 1 ? 'this file' : 'these files'} back as ${r.restored.length === 1 ? 'it was' : 'they were'} before this restore.`);
    }
    if (r.kept.length) {
      out.err(`kite: ${plural(r.kept.length, 'file')} kept as ${r.kept.length === 1 ? 'it was' : 'they were'} (listed above)${changed.length && !overwriteChanged ? '; --force-changed overwrites the ones you changed' : ''}`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof RestoreError) {
      out.err(`kite: ${e.message}`);
      return 2;
    }
    return reportFailure(e, out, 'Run `kite restore --help` for the usage.');
  }
}
