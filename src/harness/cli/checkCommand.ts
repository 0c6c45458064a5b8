// `kite check LOG [--contracts FILE] [--json]` — the offline contract check over a past run (also
// a log of the original Python Kite): the same automata the loop steps live (policy/contracts.ts).
// Contracts come from FILE (a JSON array, or a config file with "contracts"), else from the run's
// workspace config and its feature. Exit 0 when every contract held, 1 when any did not.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { formatIssues } from '../config/formatIssues';
import { describeJsonProblem, parseJsonWithComments } from '../config/jsonText';
import { resolveRunLog, workspaceOfLog } from '../events/logFiles';
import { checkContracts, ContractsSchema, type Contract, type ContractVerdict } from '../policy/contracts';
import { loadProgress, PROGRESS_FILE } from '../progress/progressFile';
import type { KiteEvent } from '../protocol/events';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { readForReport, reportError } from './reportCommands';

const FLAGS: FlagSpec[] = [
  { name: 'contracts', type: 'string', value: 'FILE', help: 'the contracts to check: a JSON array of contracts, or a .kite/config.json holding "contracts" (default: the run\'s workspace config and feature)' },
  { name: 'json', type: 'bool', help: 'print the verdicts as JSON' },
];
const USAGE = `usage: kite check <run id | LOG> [--contracts FILE] [--json]\n\nChecks a past run against trajectory contracts (the same check the loop makes live).\n\n${formatFlags(FLAGS)}\n\nExit status: 0 every contract held, 1 one was violated or an "eventually" never happened, 2 usage or a bad contracts file.`;

export class ContractsFileError extends Error {}

export function loadContractsFile(path: string): Contract[] {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ContractsFileError(`${file}: cannot read the contracts: ${(e as Error).message}`);
  }
  const json = parseJsonWithComments(text);
  if (!json.ok) throw new ContractsFileError(describeJsonProblem(file, json.problem));
  const raw = json.value;
  const list = Array.isArray(raw) ? raw : (raw as { contracts?: unknown } | null)?.contracts;
  if (!Array.isArray(list)) throw new ContractsFileError(`${file}: expected a JSON array of contracts, or an object with "contracts"`);
  const parsed = ContractsSchema.safeParse(list);
  if (!parsed.success) throw new ContractsFileError(formatIssues(file, parsed.error, { raw: list }));
  return parsed.data;
}

/** The run's own contracts: its workspace config's and its feature's (as the progress file has them now). */
function contractsOfRun(log: string, events: readonly KiteEvent[]): Contract[] {
  const root = workspaceOfLog(log);
  if (!root) throw new UsageError(`${log} is not in a workspace's log folder; name the contracts with --contracts FILE`);
  const start = events.find((e) => e.kind === 'session_start');
  const feature = start?.kind === 'session_start' ? loadProgress(join(root, PROGRESS_FILE)).features.find((f) => f.id === start.feature) : undefined;
  return [...loadConfig(root).contracts, ...(feature?.contracts ?? [])];
}

const MARK = { held: '✓', violated: '✗', unmet: '✗' } as const;

export function formatVerdicts(vs: readonly ContractVerdict[]): string {
  if (!vs.length) return 'No contracts to check.';
  return vs.map((v) => `${MARK[v.status]} ${v.id} (${v.action}): ${v.status}${v.status === 'held' ? '' : ` — ${v.message}`}${v.seq !== null ? ` (log seq ${v.seq})` : ''}`).join('\n');
}

export async function checkMain(argv: string[], out: Out = stdio): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const arg = args.positionals[0];
    if (!arg) throw new UsageError('which log? give a run id or the path of a .jsonl run log');
    const log = resolveRunLog(arg, process.cwd());
    const { events } = await readForReport(log, out);
    const contracts = typeof args.flags.contracts === 'string' ? loadContractsFile(args.flags.contracts) : contractsOfRun(log, events);
    const verdicts = checkContracts(contracts, events);
    out.out(args.flags.json ? JSON.stringify(verdicts, null, 2) : formatVerdicts(verdicts));
    return verdicts.every((v) => v.status === 'held') ? 0 : 1;
  } catch (e) {
    if (e instanceof ContractsFileError) {
      out.err(`kite: ${e.message}`);
      return 2;
    }
    return reportError(e, out, USAGE);
  }
}
