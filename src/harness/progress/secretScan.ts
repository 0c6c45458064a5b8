// The last line of defence before a commit: the values of the secrets in Kite's own environment
// (the model API key, tokens…) must never land in the repository — neither in a file the agent
// wrote nor in the notes Kite writes to the progress file.
import { SECRET_NAME } from '../events/redact';
import { isSecretValue } from '../sandbox/scrubEnv';

/** Real secrets are long; short values ("1", "true") would match ordinary text. */
const MIN_SECRET_CHARS = 8;

export interface SecretHit {
  file: string;
  variable: string; // the environment variable whose value was found
}

/**
 * name → value of every variable of env that holds a credential. Narrower than the sandbox's
 * scrubbing (which also drops e.g. GITHUB_REPOSITORY from a command's env): a false hit here
 * blocks a commit, so ordinary values such as paths and sockets (SSH_AUTH_SOCK) are left out.
 */
export function secretValues(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_SECRET_CHARS || value.startsWith('/')) continue;
    if (SECRET_NAME.test(name) || isSecretValue(value)) out.set(name, value);
  }
  return out;
}

/**
 * Secret values found on the added lines of a unified diff (`git diff --cached`), with the file
 * each is in. Only added lines count: a secret already committed earlier is not this run's doing.
 */
export function findSecretsInDiff(diff: string, secrets: ReadonlyMap<string, string>): SecretHit[] {
  const hits: SecretHit[] = [];
  if (!secrets.size) return hits;
  let file = '';
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '');
      continue;
    }
    if (!line.startsWith('+')) continue;
    for (const [variable, value] of secrets) {
      if (line.includes(value) && !hits.some((h) => h.file === file && h.variable === variable)) hits.push({ file, variable });
    }
  }
  return hits;
}

/** Text with every secret value replaced (for notes Kite itself writes). */
export function redactSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [variable, value] of secrets) out = out.split(value).join(`[${variable} redacted]`);
  return out;
}
