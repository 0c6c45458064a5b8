// The secret guard of one run: every tool result passes through it before it enters the
// conversation (loop/toolCall.ts), and the closing notes and the commit scan use the same
// detectors (progress/finish.ts). Known values (Kite's environment, the workspace's secret files,
// secret files read during the run), key shapes and the high-entropy rule, each with its action.
import { isSecretFile } from '../policy/policy';
import { secretValues } from '../progress/secretScan';
import { actionOf, marker, type DetectorId, type RedactionConfig } from './detectors';
import { highEntropySpans } from './entropy';
import { envSecrets, secretFileValues, workspaceSecrets } from './knownValues';
import { KEY_SHAPES, type KeyShape } from './shapes';

interface Finding {
  id: DetectorId;
  label: string; // the variable's name, or the detector's id: what the marker and messages say
  start: number;
  end: number;
}

export interface ToolResultToScreen {
  id: string; // the call id, for the audit message
  tool: string;
  path: string | null;
  output: string;
  is_error: boolean;
}

export interface Screened {
  output: string;
  blocked: boolean; // the whole result was withheld
  audits: string[]; // one warning message per audited detector (never the value)
}

/** What the commit scan looks for: known values by label, and the key shapes that are not audit-only. */
export interface CommitSecrets {
  values: ReadonlyMap<string, string>;
  shapes: readonly KeyShape[];
}

export interface SecretGuardOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  config?: RedactionConfig;
}

export class SecretGuard {
  private readonly env: Map<string, string>;
  private readonly commitEnv: Map<string, string>;
  private readonly files: Map<string, string>;

  constructor(private readonly opts: SecretGuardOptions) {
    this.env = envSecrets(opts.env);
    this.commitEnv = secretValues(opts.env);
    this.files = workspaceSecrets(opts.root);
  }

  /** A secret file was read (after approval, or by an allow rule): its values are known secrets from now on. */
  learnSecretFile(rel: string): void {
    const known = new Set([...this.env.values(), ...this.files.values()]);
    for (const [name, value] of secretFileValues(this.opts.root, rel)) {
      if (known.has(value)) continue;
      this.files.set(this.files.has(name) ? `${name} (${rel})` : name, value);
    }
  }

  /**
   * A tool result as the model may see it. A read of a secret file the run was allowed to make
   * shows that file (the person's approval is the consent) except Kite's own secrets and
   * credential-shaped values; its values are then withheld from every later result.
   */
  screenToolResult(r: ToolResultToScreen): Screened {
    const secretRead = !r.is_error && r.path !== null && r.path !== '' && isSecretFile(r.path);
    if (secretRead) this.learnSecretFile(r.path ?? '');
    const found = this.find(r.output, secretRead ? new Set<DetectorId>(['secret_values', 'high_entropy']) : new Set<DetectorId>());
    const where = (f: Finding) => `line ${lineOf(r.output, f.start)} of the result of ${r.tool} ${r.id}${r.path ? ` (${r.path})` : ''}`;
    const block = found.find((f) => this.action(f.id) === 'block');
    if (block) {
      return {
        output:
          `Kite withheld this result: it contains a secret (${describe(block)}, ${where(block)}). The tool did run; only its output was withheld, ` +
          'so the secret does not reach the model. Do not try to print or copy the secret another way; refer to it by its name.',
        blocked: true,
        audits: [],
      };
    }
    const audited = found.filter((f) => this.action(f.id) === 'audit');
    const audits = [...new Set(audited.map((f) => f.id))].map((id) => {
      const first = audited.find((f) => f.id === id) as Finding;
      return `secret detector ${id} matched ${audited.filter((f) => f.id === id).length} time(s), first at ${where(first)}; let through to the model (redaction: audit)`;
    });
    const redacted = found.filter((f) => this.action(f.id) === 'redact');
    if (!redacted.length) return { output: r.output, blocked: false, audits };
    const labels = [...new Set(redacted.map((f) => f.label))].join(', ');
    const note =
      `\n\n[Kite redacted ${redacted.length} secret value(s) from this result (${labels}): secrets never reach the model. ` +
      'Refer to a secret by its name; never write a "[… redacted]" marker into a file.]';
    return { output: replace(r.output, redacted) + note, blocked: false, audits };
  }

  /** Text Kite writes itself (notes, progress entries, QUEUE titles): every match not audit-only is replaced. */
  redactText(text: string): string {
    return replace(
      text,
      this.find(text, new Set()).filter((f) => this.action(f.id) !== 'audit'),
    );
  }

  /** For the commit scan: the values (Kite's environment as the commit check has always read it, the secret files') and the shapes. */
  commitSecrets(): CommitSecrets {
    const values = new Map(this.action('env') === 'audit' ? [] : this.commitEnv);
    if (this.action('secret_values') !== 'audit') for (const [k, v] of this.files) if (![...values.values()].includes(v)) values.set(values.has(k) ? `${k} (secret file)` : k, v);
    return { values, shapes: KEY_SHAPES.filter((s) => this.action(s.id) !== 'audit') };
  }

  private action(id: DetectorId): ReturnType<typeof actionOf> {
    return actionOf(this.opts.config, id);
  }

  /** Every finding, earliest first; where two overlap, the one starting first (then the longer) wins. */
  private find(text: string, skip: ReadonlySet<DetectorId>): Finding[] {
    const all: Finding[] = [];
    const values = (id: DetectorId, map: ReadonlyMap<string, string>) => {
      if (skip.has(id)) return;
      for (const [label, value] of map) {
        for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) all.push({ id, label, start: i, end: i + value.length });
      }
    };
    values('env', this.env);
    values('secret_values', this.files);
    for (const s of KEY_SHAPES) {
      if (skip.has(s.id)) continue;
      for (const m of text.matchAll(s.re)) if (m[0]) all.push({ id: s.id, label: s.id, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
    }
    if (!skip.has('high_entropy')) for (const [start, end] of highEntropySpans(text)) all.push({ id: 'high_entropy', label: 'high_entropy', start, end });
    all.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Finding[] = [];
    for (const f of all) if (!kept.length || f.start >= kept[kept.length - 1].end) kept.push(f);
    return kept;
  }
}

function describe(f: Finding): string {
  return f.label === f.id ? `detector ${f.id}` : `detector ${f.id}: the value of ${f.label}`;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function replace(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + marker(f.label);
    at = f.end;
  }
  return out + text.slice(at);
}
