// `kite init [DIR]` — a starter kite-progress.json and .kite/config.json. Never overwrites.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_FILE, parseConfig } from '../config/config';
import { detectTestCommand } from '../config/detectChecks';
import { DEFAULT_MODEL } from '../model/pricing';
import { isGitRepo } from '../progress/git';
import { currentFeature, loadProgress, PROGRESS_FILE, parseProgress, type Feature } from '../progress/progressFile';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { describeError, stdio, type Out } from './output';

/** The placeholder title `kite init` writes; a run on it would pay a model to guess. */
export const STARTER_TITLE = 'Describe the first feature here';

/** Why the progress file cannot be run yet (still the untouched starter), or null. */
export function starterProblem(progressPath: string): string | null {
  let f: Feature;
  try {
    f = currentFeature(loadProgress(progressPath));
  } catch {
    return null; // the run itself reports a missing or invalid file
  }
  return f.title === STARTER_TITLE ? `${progressPath}: feature ${f.id} is still the starter written by \`kite init\`; give it a real title, notes and a "verify" command first` : null;
}

const FLAGS: FlagSpec[] = [{ name: 'goal', type: 'string', value: 'TEXT', help: 'the project goal written into the progress file' }];
export const INIT_USAGE = `usage: kite init [DIR] [--goal TEXT]\n\nWrites a starter ${PROGRESS_FILE} and ${CONFIG_FILE} in DIR (default: the current folder). Existing files are left unchanged.\n\n${formatFlags(FLAGS)}`;

export async function initMain(argv: string[], out: Out = stdio): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(INIT_USAGE);
      return 0;
    }
    const root = resolve(args.positionals[0] ?? '.');
    if (!existsSync(root)) throw new UsageError(`${root}: no such directory`);
    const progressPath = join(root, PROGRESS_FILE);
    const configPath = join(root, CONFIG_FILE);
    const detected = detectTestCommand(root);
    const checks = detected ? [detected.command] : [];
    const goal = typeof args.flags.goal === 'string' ? args.flags.goal : 'Describe what this project is for and what the agent should keep in mind.';
    const progress = {
      goal,
      log: [],
      features: [{ id: 'F1', title: STARTER_TITLE, status: 'todo', verify: '', notes: '' }],
    };
    const config = {
      model: `anthropic:${DEFAULT_MODEL}`,
      max_tokens: 8192,
      checks,
      command_timeout: 120,
      budget: { turns: 50, tokens: 2000000, usd: 5, wall_s: 1800 },
      max_gate_failures: 3,
    };
    const wrote: string[] = [];
    for (const [path, data, check] of [
      [progressPath, progress, parseProgress],
      [configPath, config, parseConfig],
    ] as const) {
      if (existsSync(path)) {
        out.out(`kept ${path} (already exists)`);
        continue;
      }
      const text = JSON.stringify(data, null, 2) + '\n';
      check(text, path); // what we write must be what we accept
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      wrote.push(path);
      out.out(`wrote ${path}`);
    }
    if (wrote.length) {
      // The gate needs a command: without one no run can end done (it ends unverified).
      if (wrote.includes(configPath)) {
        out.out(
          detected
            ? `\nProposed check: \`${detected.command}\` (found in ${detected.from}); every run must pass it before Kite commits. Change "checks" in ${CONFIG_FILE} if that is not your test command.`
            : `\nNo test command found (package.json scripts.test, pytest, cargo test, go test, make test). Add one to "checks" in ${CONFIG_FILE}, or a "verify" command to each feature: a run with nothing to verify it ends unverified, never done.`,
        );
      }
      out.out(`\nNext: edit the goal and features in ${PROGRESS_FILE} (give each a "verify" command), check "checks" in ${CONFIG_FILE}, commit, then run \`kite run\`.`);
      if (!isGitRepo(root)) {
        out.out(`\n${root} is not a git repository yet. Kite commits each finished feature, so start one first:\n  git init && git add -A && git commit -m "initial"`);
      }
    }
    return 0;
  } catch (e) {
    out.err(`kite: ${describeError(e)}`);
    if (e instanceof UsageError) out.err('Run `kite init --help` for the options.');
    return 2;
  }
}
