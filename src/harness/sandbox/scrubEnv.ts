// What looks like a secret in an environment: names matched against secret-ish words, and values
// that carry credentials (URLs with a password, well-known token prefixes) whatever the variable
// is called. Kite's own git runs with scrubEnv; commands get an allowlist instead (environment.ts).

/** Words that make a variable name secret (matched case-insensitively anywhere in the name). */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|AUTH(?!OR)|SESSION|COOKIE|PRIVATE|SIGNATURE|(^|_)PAT($|_)|(^|_)PWD_|DSN$/i;

/** Whole families of variables that belong to cloud or model providers. */
const SECRET_PREFIX = /^(ANTHROPIC_|OPENAI_|AWS_|AZURE_|GOOGLE_|GCP_|GCLOUD_|CLOUDSDK_|GITHUB_|GH_|GITLAB_|NPM_|NODE_AUTH|DOCKER_|HF_|HUGGING|VAULT_|KITE_SECRET)/i;

/** Variables that match nothing above but still carry credentials. */
const SECRET_NAMES = new Set(['DATABASE_URL', 'REDIS_URL', 'MONGO_URL', 'MONGODB_URI', 'SENTRY_DSN', 'KUBECONFIG', 'NETRC', 'SSH_AGENT_PID']);

/** Always kept even if a pattern above would match (none do today; this documents intent). */
const KEEP = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TMPDIR', 'TZ', 'PWD', 'OLDPWD']);

/** Values that are credentials whatever their variable is named. */
const SECRET_VALUE = [
  /:\/\/[^/\s:@]+:[^/\s@]+@/, // scheme://user:password@host
  /^sk-[A-Za-z0-9_-]{16,}/, // Anthropic / OpenAI style keys
  /^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /^github_pat_/,
  /^xox[abpr]-/, // Slack
  /^AKIA[0-9A-Z]{16}$/, // AWS access key id
  /^npm_[A-Za-z0-9]{30,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export function isSecretName(name: string, extra: ReadonlySet<string> = new Set()): boolean {
  if (KEEP.has(name)) return false;
  return extra.has(name.toUpperCase()) || SECRET_NAMES.has(name.toUpperCase()) || SECRET_PREFIX.test(name) || SECRET_NAME.test(name);
}

export function isSecretValue(value: string): boolean {
  return SECRET_VALUE.some((re) => re.test(value));
}

/** A copy of env without secret-looking variables. extraSecretNames are dropped too. */
export function scrubEnv(env: NodeJS.ProcessEnv, extraSecretNames: readonly string[] = []): NodeJS.ProcessEnv {
  const extra = new Set(extraSecretNames.map((n) => n.toUpperCase()));
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretName(name, extra) || isSecretValue(value)) continue;
    out[name] = value;
  }
  return out;
}
