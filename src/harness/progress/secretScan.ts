// The last line of defence before a commit: known secret values (Kite's own environment — the
// model API key, tokens… —, the workspace's secret files, secret files read during the run) and
// well-known key shapes must never land in the repository — neither in a file the agent wrote
// (text or binary) nor in the notes Kite writes to the progress file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_NAME } from '../events/redact';
import { isSecretValue } from '../sandbox/scrubEnv';
import type { CommitSecrets } from '../secrets/secretGuard';
import { KEY_SHAPES } from '../secrets/shapes';
import { runGit } from './runGit';

/** Real secrets are long; short values ("1", "true") would match ordinary text. */
const MIN_SECRET_CHARS = 8;

export interface SecretHit {
  file: string;
  what: string; // "the value of ANTHROPIC_API_KEY", "a Stripe key (detector stripe_key)" — never the value
}

/** A plain map of values (older callers, tests) is scanned with every key shape too. */
function asCommitSecrets(secrets: CommitSecrets | ReadonlyMap<string, string>): CommitSecrets {
  return secrets instanceof Map ? { values: secrets, shapes: KEY_SHAPES } : (secrets as CommitSecrets);
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
 * Secrets found on the added lines of a unified diff (`git diff --cached`), with the file each is
 * in. Only added lines count: a secret already committed earlier is not this run's doing.
 */
export function findSecretsInDiff(diff: string, secrets: CommitSecrets | ReadonlyMap<string, string>): SecretHit[] {
  const { values, shapes } = asCommitSecrets(secrets);
  const hits: SecretHit[] = [];
  const add = (file: string, what: string) => {
    if (!hits.some((h) => h.file === file && h.what === what)) hits.push({ file, what });
  };
  let file = '';
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '');
      continue;
    }
    if (!line.startsWith('+')) continue;
    for (const [variable, value] of values) if (line.includes(value)) add(file, `the value of ${variable}`);
    for (const s of shapes) if (new RegExp(s.re.source, s.re.flags.replace('g', '')).test(line.slice(1))) add(file, `${s.what} (detector ${s.id})`);
  }
  return hits;
}

/**
 * Secrets in binary files (which a diff shows only as "Binary files differ"): the raw bytes of
 * each file are searched for every known value (as UTF-8 and as UTF-16LE) and every key shape.
 * The work tree's bytes are read: `git add -A` just staged them (a clean filter such as LFS
 * would commit less, never more).
 */
export function findSecretsInBinaries(top: string, files: readonly string[], secrets: CommitSecrets | ReadonlyMap<string, string>): SecretHit[] {
  const { values, shapes } = asCommitSecrets(secrets);
  const hits: SecretHit[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(top, file));
    } catch {
      continue; // deleted: nothing of it is committed
    }
    for (const [variable, value] of values) {
      if (bytes.includes(Buffer.from(value, 'utf8')) || bytes.includes(Buffer.from(value, 'utf16le'))) hits.push({ file, what: `the value of ${variable}` });
    }
    const text = bytes.toString('latin1'); // one char per byte: ASCII shapes match where they sit
    for (const s of shapes) if (new RegExp(s.re.source, s.re.flags.replace('g', '')).test(text)) hits.push({ file, what: `${s.what} (detector ${s.id})` });
  }
  return hits;
}

/** Every secret in what is staged now: the added lines of text files and the bytes of binary ones. */
export function findSecretsInStaged(root: string, secrets: CommitSecrets | ReadonlyMap<string, string>): SecretHit[] {
  // --no-textconv: a textconv driver would run a program, and the scan would read its output, not the committed bytes.
  const diff = runGit(root, ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '-U0']);
  // --numstat shows a binary file as "-<TAB>-<TAB>path".
  const numstat = runGit(root, ['diff', '--cached', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv']);
  const binaries = numstat
    .split('\0')
    .filter((e) => e.startsWith('-\t-\t'))
    .map((e) => e.slice(4));
  const top = runGit(root, ['rev-parse', '--show-toplevel']).trim();
  return [...findSecretsInDiff(diff, secrets), ...findSecretsInBinaries(top, binaries, secrets)];
}

/** For the commit's error: where, and which secret — never its value. */
export function describeHits(hits: readonly SecretHit[]): string {
  const files = [...new Set(hits.map((h) => h.file))];
  return files
    .map((file) => {
      const found = hits.filter((h) => h.file === file).map((h) => h.what);
      // A known value is named by its variable; the shapes it also matches add nothing.
      const all = found.some((w) => w.startsWith('the value of ')) ? found.filter((w) => w.startsWith('the value of ')) : found;
      // "the value of DATABASE_URL password" says nothing more than "the value of DATABASE_URL".
      const whats = all.filter((w) => !(w.endsWith(' password') && all.includes(w.slice(0, -' password'.length))));
      const shown = whats.slice(0, 3).join(', ');
      return `${file} holds ${shown}${whats.length > 3 ? ` and ${whats.length - 3} more` : ''}`;
    })
    .join('; ');
}
