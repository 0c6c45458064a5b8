// A small, strict argv parser: known flags only, typed values, positionals; anything else is a
// UsageError (exit 2) naming the offending argument.

import { closestKey } from '../config/formatIssues';

export type FlagType = 'bool' | 'string' | 'int' | 'number';

export interface FlagSpec {
  name: string; // without the leading --
  type: FlagType;
  help: string;
  value?: string; // placeholder shown in usage, e.g. "ID"
}

export class UsageError extends Error {
  readonly code = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  flags: Record<string, string | number | boolean | undefined>;
  positionals: string[];
  help: boolean;
}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[], maxPositionals: number): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags: ParsedArgs['flags'] = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-h' || a === '--help') {
      help = true;
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? a.slice(2, eq === -1 ? undefined : eq) : '';
    const spec = byName.get(name);
    if (!spec) {
      const near = name ? closestKey(name, specs.map((x) => x.name)) : null;
      throw new UsageError(`unknown option ${eq === -1 ? a : a.slice(0, eq)}${near ? ` (did you mean --${near}?)` : ''}`);
    }
    if (spec.type === 'bool') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let raw: string | undefined = eq === -1 ? argv[++i] : a.slice(eq + 1);
    if (raw === undefined || (eq === -1 && raw.startsWith('--'))) throw new UsageError(`--${name} needs a value (${spec.value ?? spec.type})`);
    raw = raw.trim();
    if (spec.type === 'string') {
      if (!raw) throw new UsageError(`--${name} needs a non-empty value`);
      flags[name] = raw;
    } else {
      const v = Number(raw);
      if (!Number.isFinite(v) || v <= 0 || (spec.type === 'int' && !Number.isInteger(v))) {
        throw new UsageError(`--${name} must be a positive ${spec.type === 'int' ? 'whole number' : 'number'}, got "${raw}"`);
      }
      flags[name] = v;
    }
  }
  if (positionals.length > maxPositionals) throw new UsageError(`unexpected argument "${positionals[maxPositionals]}"`);
  return { flags, positionals, help };
}

export function formatFlags(specs: readonly FlagSpec[]): string {
  const left = specs.map((s) => `  --${s.name}${s.type === 'bool' ? '' : ` ${s.value ?? s.type.toUpperCase()}`}`);
  const w = Math.max(...left.map((l) => l.length)) + 2;
  return specs.map((s, i) => `${left[i].padEnd(w)}${s.help}`).join('\n');
}
