// Dispatch `kite <command> …` through the command table; usage errors exit 2.
import { COMMANDS, runCommandOf } from './commands';
import { stdio, type Out } from './output';

declare const KITE_VERSION: string | undefined;

export function usage(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'usage: kite <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(w)}${c.summary}`),
    '',
    'Getting started, in a git repository:',
    '  kite init --goal "what the project is for"   then list features in kite-progress.json',
    '  kite run                                      work on the next feature (asks before writes and commands)',
    '  kite timeline <run id>                        what a run did, one row per turn, tool call and gate',
    '',
    'Run `kite <command> --help` for the options of a command. `kite --version` prints the version.',
  ].join('\n');
}

export async function cliMain(argv: string[], out: Out = stdio): Promise<number> {
  const [name, ...rest] = argv;
  // `kite help run` is `kite run --help`
  const topic = name === 'help' && rest[0] ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
  if (topic) return runCommandOf(topic, ['--help']);
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    if (name === undefined) {
      out.err(usage());
      return 2;
    }
    out.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    out.out(typeof KITE_VERSION === 'string' ? KITE_VERSION : '0.1.0');
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    const hint = name.startsWith('-') ? ` (options go after the command, e.g. kite run ${name})` : '';
    out.err(`kite: unknown command "${name}"${hint}; commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run \`kite --help\` for more.`);
    return 2;
  }
  return runCommandOf(cmd, rest);
}
