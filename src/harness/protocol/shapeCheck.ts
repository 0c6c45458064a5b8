// A fast structural check compiled from a zod schema: JSON types, object keys, literals, enums,
// unions, arrays, tuples and records — everything except value refinements (ranges, regexes, lengths).
// Why: a one-shot reader (`kite timeline`, the reports, the debugger's index) spends most of its
// time in zod's first, cold pass over a big log, and zod copies every object it parses. A view
// only needs to know that each field has the type the code reads; where the check fails the
// caller falls back to the full zod parse, which says exactly what is wrong (protocol/parse.ts).
// Derived from the schema, so the schema stays the one definition of an event.
// Compiled to JavaScript source (one function per object, array, record, tuple and union, run
// through `new Function`) rather than to closures: a closure shared by every field reads `v[key]`
// with a different key each time, which V8 serves from its slow megamorphic cache; generated code
// has its own property-load site per field, and checks an event in a third of the time (issue 17).
// Only indexes and identifier-safe keys of our own schemas reach the source — every value is
// passed in as a constant. Where code cannot be generated (a page whose CSP forbids eval), every
// check says "not sure" and zod decides: slower, never wrong.
import type { z } from 'zod';

export type ShapeCheck = (value: unknown) => boolean;

interface Def {
  type: string;
  [k: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const IS_RECORD = (v: string) => `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`;

/** Thrown at compile time for a schema construct this checker does not know: use zod for it. */
export class UnsupportedShape extends Error {}

export function compileShapeCheck(schema: z.ZodType): ShapeCheck {
  const g = new Generator();
  let entry: string;
  try {
    entry = g.check(defOf(schema), 'v');
  } catch (e) {
    if (e instanceof UnsupportedShape) return () => false;
    throw e;
  }
  return g.build(entry);
}

/**
 * The same check as the source of an ES module exporting `name(value): boolean`, for a page whose
 * CSP forbids generating code at run time (the timeline webview): the build writes it to a file
 * the page bundles (scripts/gen-schemas.mjs; a unit test checks the committed file is current).
 * Throws UnsupportedShape where compileShapeCheck would fall back to zod everywhere.
 */
export function shapeCheckModuleSource(schema: z.ZodType, name: string): string {
  const g = new Generator();
  return g.moduleSource(g.check(defOf(schema), 'v'), name);
}

/** Which options of a discriminated union this checker cannot compile (they always go to zod). */
export function unsupportedOptions(schema: z.ZodType): string[] {
  const def = defOf(schema);
  const options = (def.options as unknown[] | undefined) ?? [];
  return options.flatMap((o) => {
    try {
      new Generator().objectFunction(defOf(o));
      return [];
    } catch (e) {
      if (!(e instanceof UnsupportedShape)) throw e;
      return [`${JSON.stringify((defOf((defOf(o).shape as Record<string, unknown>)[def.discriminator as string]).values as unknown[])[0])}: ${e.message}`];
    }
  });
}

/** Source of the check: helper functions `h0…`, constants in `K`. */
class Generator {
  private readonly constants: unknown[] = [];
  private readonly functions: string[] = [];
  private readonly setup: string[] = [];

  /** The check as a function, or "not sure" everywhere when code cannot be generated here. */
  build(entry: string): ShapeCheck {
    const source = `"use strict";\n${this.body()}\nreturn function check(v) { return ${entry}; };`;
    try {
      return new Function('K', source)(this.constants) as ShapeCheck;
    } catch {
      return () => false;
    }
  }

  /** The check as module source: the constants written out as literals instead of passed in. */
  moduleSource(entry: string, name: string): string {
    if (!IDENTIFIER.test(name)) throw new Error(`not an identifier: ${name}`);
    const constants = this.constants.map(literalSource).join(',\n  ');
    return `const K = [\n  ${constants},\n];\n${this.body()}\nexport function ${name}(v) {\n  return ${entry};\n}\n`;
  }

  private body(): string {
    return `${this.functions.join('\n')}\n${this.setup.join('\n')}`;
  }

  private constant(value: unknown): string {
    this.constants.push(value);
    return `K[${this.constants.length - 1}]`;
  }

  private fn(params: string, body: string): string {
    const name = `h${this.functions.length}`;
    this.functions.push(`function ${name}(${params}) {\n${body}\n}`);
    return name;
  }

  private property(v: string, key: string): string {
    return IDENTIFIER.test(key) ? `${v}.${key}` : `${v}[${this.constant(key)}]`;
  }

  /** A boolean expression: does variable `v` have the shape of `def`? */
  check(def: Def, v: string): string {
    switch (def.type) {
      case 'string':
        return `typeof ${v} === "string"`;
      case 'boolean':
        return `typeof ${v} === "boolean"`;
      case 'null':
        return `${v} === null`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'number': {
        const checks = (def.checks as { _zod: { def: { format?: string } } }[] | undefined) ?? [];
        return checks.some((c) => INT_FORMATS.has(c._zod.def.format ?? '')) ? `Number.isInteger(${v})` : `Number.isFinite(${v})`;
      }
      case 'literal': {
        const values = def.values as unknown[];
        return values.length === 1 ? `${v} === ${this.constant(values[0])}` : `${this.constant(new Set(values))}.has(${v})`;
      }
      case 'enum':
        return `${this.constant(new Set(Object.values(def.entries as Record<string, unknown>)))}.has(${v})`;
      case 'optional':
        return `(${v} === undefined || ${this.check(defOf(def.innerType), v)})`;
      case 'nullable':
        return `(${v} === null || ${this.check(defOf(def.innerType), v)})`;
      case 'array':
        return `${this.fn('a', `if (!Array.isArray(a)) return false;\nfor (let i = 0; i < a.length; i++) { const x = a[i]; if (!(${this.check(defOf(def.element), 'x')})) return false; }\nreturn true;`)}(${v})`;
      case 'tuple': {
        const items = (def.items as unknown[]).map((x, i) => `{ const x = a[${i}]; if (!(${this.check(defOf(x), 'x')})) return false; }`);
        const n = items.length;
        const rest = def.rest ? `for (let i = ${n}; i < a.length; i++) { const x = a[i]; if (!(${this.check(defOf(def.rest), 'x')})) return false; }` : `if (a.length > ${n}) return false;`;
        return `${this.fn('a', `if (!Array.isArray(a) || a.length < ${n}) return false;\n${rest}\n${items.join('\n')}\nreturn true;`)}(${v})`;
      }
      case 'record': {
        if (defOf(def.keyType).type !== 'string') throw new UnsupportedShape(`record keys of type ${defOf(def.keyType).type}`);
        return `${this.fn('o', `if (!${IS_RECORD('o')}) return false;\nfor (const k in o) { const x = o[k]; if (!(${this.check(defOf(def.valueType), 'x')})) return false; }\nreturn true;`)}(${v})`;
      }
      case 'object':
        return `${this.objectFunction(def)}(${v})`;
      case 'union':
        return this.union(def, v);
      default:
        throw new UnsupportedShape(`zod type "${def.type}"`);
    }
  }

  /** The name of a function checking an object of this shape. */
  objectFunction(def: Def): string {
    const catchall = def.catchall ? defOf(def.catchall).type : undefined;
    if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any' && catchall !== 'never') throw new UnsupportedShape(`object catchall ${catchall}`);
    const shape = def.shape as Record<string, unknown>;
    const fields = Object.entries(shape).map(([key, s], i) => {
      const d = defOf(s);
      // zod requires a key typed unknown to be present (only .optional() may be absent).
      const ok = d.type === 'unknown' || d.type === 'any' ? `f${i} !== undefined` : this.check(d, `f${i}`);
      return `{ const f${i} = ${this.property('o', key)}; if (!(${ok})) return false; }`;
    });
    // z.strictObject: no other keys
    const strict = catchall === 'never' ? `for (const k in o) if (!${this.constant(new Set(Object.keys(shape)))}.has(k)) return false;` : '';
    return this.fn('o', `if (!${IS_RECORD('o')}) return false;\n${fields.join('\n')}\n${strict}\nreturn true;`);
  }

  private union(def: Def, v: string): string {
    const options = (def.options as unknown[]).map(defOf);
    const discriminator = def.discriminator as string | undefined;
    if (!discriminator) return `(${options.map((o) => this.check(o, v)).join(' || ')})`;
    // One option per discriminator value: look it up instead of trying each.
    const entries: string[] = [];
    for (const o of options) {
      const lit = defOf((o.shape as Record<string, unknown>)[discriminator]);
      if (lit.type !== 'literal') throw new UnsupportedShape(`discriminator ${discriminator} of type ${lit.type}`);
      const check = this.objectOrZod(o);
      for (const value of lit.values as unknown[]) entries.push(`[${this.constant(value)}, ${check}]`);
    }
    const table = `m${this.setup.length}`;
    this.setup.push(`const ${table} = new Map([${entries.join(', ')}]);`);
    return `${this.fn('o', `if (!${IS_RECORD('o')}) return false;\nconst c = ${table}.get(${this.property('o', discriminator)});\nreturn c !== undefined && c(o);`)}(${v})`;
  }

  /** An option with a construct this checker does not know always fails the check: zod decides it. */
  private objectOrZod(def: Def): string {
    try {
      return this.objectFunction(def);
    } catch (e) {
      if (!(e instanceof UnsupportedShape)) throw e;
      return this.fn('', 'return false;'); // what it generated before giving up stays unused
    }
  }
}

/** A constant of the check (a literal value or a Set of them) as JavaScript source. */
function literalSource(value: unknown): string {
  if (value instanceof Set) return `new Set([${[...value].map(literalSource).join(', ')}])`;
  if (value === undefined) return 'undefined';
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return JSON.stringify(value);
  throw new UnsupportedShape(`a constant of type ${typeof value}`);
}
