// Known secret values, by the label that names them in a redaction (a variable's name, never the
// value): Kite's own environment, and the values in the workspace's secret files (.env…).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_NAME } from '../events/redact';
import { isSecretFile } from '../policy/policy';
import { secretValues } from '../progress/secretScan';
import { KITE_OWN_SECRETS } from '../sandbox/settings';
import { isSecretName, isSecretValue } from '../sandbox/scrubEnv';
import { looksRandom } from './entropy';
import { KEY_SHAPES } from './shapes';

/** Real secrets are long; short values ("1", "true") would match ordinary text. */
const MIN_CHARS = 8;
const MAX_FILE_BYTES = 256 * 1024;

/**
 * The environment's secrets as the model boundary sees them: what the commit scan checks
 * (secretValues) plus every long value of a secret-sounding name, as the log's Redactor does —
 * so a tool result is never redacted further on its way to disk.
 */
export function envSecrets(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = secretValues(env);
  for (const [name, value] of Object.entries(env)) {
    if (!value || out.has(name)) continue;
    if ((value.length >= MIN_CHARS && SECRET_NAME.test(name)) || (value.length >= 6 && KITE_OWN_SECRETS.includes(name.toUpperCase()))) out.set(name, value);
  }
  for (const [name, value] of [...out]) withParts(out, name, value);
  return out;
}

/**
 * Whether a value of a secret file is a credential. Not every .env value is (NODE_ENV=production,
 * PORT=3000): a secret-sounding name, or a value that looks like a credential whatever its name
 * (DATABASE_URL with a password, CONN_STR with Password=, a Stripe key in STRIPE_SK).
 */
function isCredential(name: string, value: string): boolean {
  if (value.length < MIN_CHARS) return false;
  if (SECRET_NAME.test(name) || isSecretName(name) || isSecretValue(value) || looksRandom(value)) return true;
  if (/(?:^|;)\s*(?:password|pwd)=/i.test(value)) return true;
  return KEY_SHAPES.some((s) => new RegExp(s.re.source, s.re.flags.replace('g', '')).test(value));
}

/** The password inside a URL or a connection string is a secret on its own: a model may quote just it. */
function withParts(out: Map<string, string>, name: string, value: string): void {
  out.set(name, value);
  const part = /:\/\/[^/\s:@]+:([^/\s@]+)@/.exec(value)?.[1] ?? /(?:^|;)\s*(?:password|pwd)=([^;]+)/i.exec(value)?.[1];
  if (part && part.length >= 6 && part !== value) out.set(`${name} password`, part.trim());
}

/** `NAME=value` / `NAME: value` / `"name": "value"` lines (.env, .npmrc, .pypirc, JSON) and .netrc's `password x`. */
export function parseSecretText(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^export\s+/, '');
    if (!line || line.startsWith('#')) continue;
    const netrc = /\bpassword\s+(\S+)/.exec(line);
    if (netrc && !line.includes('=') && !line.includes(':')) {
      if (netrc[1].length >= MIN_CHARS) out.set('password', netrc[1]);
      continue;
    }
    const m = /^"?([^"=:\s][^"=\s]*?)"?\s*[=:]\s*(.*?),?$/.exec(line);
    if (!m) continue;
    let value = m[2].trim();
    const quoted = /^(["'])(.*)\1$/.exec(value);
    value = quoted ? quoted[2] : value.replace(/\s+#.*$/, '');
    if (isCredential(m[1], value)) withParts(out, m[1], value);
  }
  return out;
}

/** Values of one secret file (workspace-relative path); none when it cannot be read as text. */
export function secretFileValues(root: string, rel: string): Map<string, string> {
  try {
    const abs = join(root, rel);
    const st = statSync(abs);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return new Map();
    return parseSecretText(readFileSync(abs, 'utf8'));
  } catch {
    return new Map();
  }
}

/** Values of the secret files at the workspace's top level (.env, .env.local, .npmrc…; templates such as .env.example are not secret). */
export function workspaceSecrets(root: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    if (!isSecretFile(name)) continue;
    // Same name, another value in another file: keep both, under distinct labels.
    for (const [k, v] of secretFileValues(root, name)) out.set(out.has(k) && out.get(k) !== v ? `${k} (${name})` : k, v);
  }
  return out;
}
