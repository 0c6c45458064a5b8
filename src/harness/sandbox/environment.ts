// The environment a command sees is built from an allowlist, not a blocklist: a secret with an
// unusual name (MYSQL_PWD, STRIPE_SK, CONN_STR…) never reaches the agent's code. A project that
// needs a variable names it in sandbox.env.pass.
import { KITE_OWN_SECRETS } from './settings';

/** Names that always pass (when set). LC_* passes by prefix. */
const ALWAYS = ['PATH', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'CI'];

/** Settings that keep tools from waiting for a person who is not there. */
const NON_INTERACTIVE: Record<string, string> = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat', KITE_AGENT: '1' };

export interface CommandEnvInput {
  base: NodeJS.ProcessEnv; // Kite's own environment
  home: string; // the private HOME the command gets
  tmp: string; // its TMPDIR
  pass: readonly string[]; // sandbox.env.pass
  sandbox: string; // KITE_SANDBOX: bwrap | seatbelt | none
  /** Variables the process itself is configured with (an MCP server's `env`); Kite's own keys never. */
  extra?: Readonly<Record<string, string>>;
}

export function commandEnv(input: CommandEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  const own = new Set(KITE_OWN_SECRETS);
  for (const [name, value] of Object.entries(input.base)) {
    if (value === undefined) continue;
    if (ALWAYS.includes(name) || name.startsWith('LC_')) env[name] = value;
  }
  for (const name of input.pass) {
    const value = input.base[name];
    if (value !== undefined && !own.has(name.toUpperCase())) env[name] = value;
  }
  for (const [name, value] of Object.entries(input.extra ?? {})) if (!own.has(name.toUpperCase())) env[name] = value;
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.HOME = input.home;
  env.TMPDIR = input.tmp;
  env.KITE_SANDBOX = input.sandbox;
  return { ...env, ...NON_INTERACTIVE };
}
