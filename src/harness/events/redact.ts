// Secrets never reach a log: values of environment variables whose names look secret, and
// well-known key shapes (Anthropic, GitHub, AWS, Slack, bearer tokens), are replaced before an
// event is written. Applied to the serialized line, so every field of every event is covered.

export const REDACTED = '[REDACTED]';

/** Variable names that suggest a credential (shared idea with the sandbox's env scrubbing). */
export const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|AUTH|SESSION|COOKIE)/i;

const KEY_SHAPES = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g.source,
  /gh[pousr]_[A-Za-z0-9]{20,}/g.source,
  /github_pat_[A-Za-z0-9_]{20,}/g.source,
  /AKIA[0-9A-Z]{16}/g.source,
  /xox[abprs]-[A-Za-z0-9-]{10,}/g.source,
  /(?<=Bearer )[A-Za-z0-9._~+/-]{16,}=*/g.source,
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Redactor {
  private readonly re: RegExp;

  constructor(env: NodeJS.ProcessEnv = process.env, extraSecrets: string[] = []) {
    const values = new Set<string>(extraSecrets.filter((v) => v.length >= 6));
    for (const [name, value] of Object.entries(env)) {
      // Short values (e.g. "1", "true") would redact ordinary text; real secrets are long.
      if (value && value.length >= 8 && SECRET_NAME.test(name)) values.add(value);
    }
    // Match the JSON-escaped form too, since redaction runs on the serialized line.
    const literals = [...values].flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]).sort((a, b) => b.length - a.length);
    this.re = new RegExp([...literals.map(escapeRegExp), ...KEY_SHAPES].join('|'), 'g');
  }

  redact(text: string): string {
    this.re.lastIndex = 0;
    return text.replace(this.re, REDACTED);
  }
}
