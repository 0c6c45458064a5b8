// A fast structural check compiled from a zod schema: JSON types, object keys, literals, enums,
// unions, arrays, tuples and records — everything except value refinements (ranges, regexes, lengths).
// Why: a one-shot reader (`kite timeline`, the reports, the debugger's index) spends most of its
// time in zod's first, cold pass over a big log, and zod copies every object it parses. A view
// only needs to know that each field has the type the code reads; where the check fails the
// caller falls back to the full zod parse, which says exactly what is wrong (protocol/parse.ts).
// Derived from the schema, so the schema stays the one definition of an event.
import type { z } from 'zod';

export type ShapeCheck = (value: unknown) => boolean;

interface Def {
  type: string;
  [k: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Thrown at compile time for a schema construct this checker does not know: use zod for it. */
export class UnsupportedShape extends Error {}

export function compileShapeCheck(schema: z.ZodType): ShapeCheck {
  return compile(defOf(schema));
}

/** Which options of a discriminated union this checker cannot compile (they always go to zod). */
export function unsupportedOptions(schema: z.ZodType): string[] {
  const def = defOf(schema);
  const options = (def.options as unknown[] | undefined) ?? [];
  return options.flatMap((o) => {
    try {
      compileObject(defOf(o));
      return [];
    } catch (e) {
      if (!(e instanceof UnsupportedShape)) throw e;
      return [`${JSON.stringify((defOf((defOf(o).shape as Record<string, unknown>)[def.discriminator as string]).values as unknown[])[0])}: ${e.message}`];
    }
  });
}

/** An option with a construct this checker does not know always fails the check: zod decides it. */
function compileOrZod(def: Def): ShapeCheck {
  try {
    return compileObject(def);
  } catch (e) {
    if (e instanceof UnsupportedShape) return () => false;
    throw e;
  }
}

function compile(def: Def): ShapeCheck {
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'unknown':
    case 'any':
      return () => true;
    case 'number': {
      const checks = (def.checks as { _zod: { def: { format?: string } } }[] | undefined) ?? [];
      const int = checks.some((c) => INT_FORMATS.has(c._zod.def.format ?? ''));
      return int ? (v) => typeof v === 'number' && Number.isInteger(v) : (v) => typeof v === 'number' && Number.isFinite(v);
    }
    case 'literal': {
      const values = def.values as unknown[];
      if (values.length === 1) {
        const only = values[0];
        return (v) => v === only;
      }
      const set = new Set(values);
      return (v) => set.has(v);
    }
    case 'enum': {
      const set = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => set.has(v);
    }
    case 'optional': {
      const inner = compile(defOf(def.innerType));
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compile(defOf(def.innerType));
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const element = compile(defOf(def.element));
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'tuple': {
      const items = (def.items as unknown[]).map((x) => compile(defOf(x)));
      const rest = def.rest ? compile(defOf(def.rest)) : null;
      return (v) => {
        if (!Array.isArray(v) || v.length < items.length || (rest === null && v.length > items.length)) return false;
        for (let i = 0; i < v.length; i++) if (!(i < items.length ? items[i] : rest!)(v[i])) return false;
        return true;
      };
    }
    case 'record': {
      if (defOf(def.keyType).type !== 'string') throw new UnsupportedShape(`record keys of type ${defOf(def.keyType).type}`);
      const value = compile(defOf(def.valueType));
      return (v) => {
        if (!isRecord(v)) return false;
        for (const k in v) if (!value(v[k])) return false;
        return true;
      };
    }
    case 'object':
      return compileObject(def);
    case 'union':
      return compileUnion(def);
    default:
      throw new UnsupportedShape(`zod type "${def.type}"`);
  }
}

function compileObject(def: Def): ShapeCheck {
  const catchall = def.catchall ? defOf(def.catchall).type : undefined;
  if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any' && catchall !== 'never') throw new UnsupportedShape(`object catchall ${catchall}`);
  const shape = def.shape as Record<string, unknown>;
  // zod requires a key typed unknown to be present (only .optional() may be absent).
  const field = (d: Def): ShapeCheck => (d.type === 'unknown' || d.type === 'any' ? (v) => v !== undefined : compile(d));
  const fields = Object.entries(shape).map(([key, s]) => [key, field(defOf(s))] as const);
  const strict = catchall === 'never'; // z.strictObject: no other keys
  return (v) => {
    if (!isRecord(v)) return false;
    for (let i = 0; i < fields.length; i++) if (!fields[i][1](v[fields[i][0]])) return false;
    if (strict) for (const k in v) if (!Object.hasOwn(shape, k)) return false;
    return true;
  };
}

function compileUnion(def: Def): ShapeCheck {
  const options = (def.options as unknown[]).map(defOf);
  const discriminator = def.discriminator as string | undefined;
  if (discriminator) {
    // One option per discriminator value: look it up instead of trying each.
    const byValue = new Map<unknown, ShapeCheck>();
    for (const o of options) {
      const lit = defOf((o.shape as Record<string, unknown>)[discriminator]);
      if (lit.type !== 'literal') throw new UnsupportedShape(`discriminator ${discriminator} of type ${lit.type}`);
      for (const value of lit.values as unknown[]) byValue.set(value, compileOrZod(o));
    }
    return (v) => {
      if (!isRecord(v)) return false;
      const check = byValue.get(v[discriminator]);
      return check !== undefined && check(v);
    };
  }
  const checks = options.map(compile);
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (checks[i](v)) return true;
    return false;
  };
}
