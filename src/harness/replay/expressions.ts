// A small, safe expression language for watch expressions, breakpoint conditions and logpoint
// interpolation in the replay debugger. Parsed by hand into an AST and interpreted over plain
// data: no eval, no Function, no property access beyond own enumerable data (no prototypes).
//
//   expr    := or
//   or      := and ('||' and)*
//   and     := not ('&&' not)*
//   not     := '!' not | cmp
//   cmp     := primary (('=='|'!='|'<'|'<='|'>'|'>='|'contains') primary)?
//   primary := literal | path | '(' expr ')' | '-' number
//   path    := ident ('.' ident | '[' (number|string) ']')*
//   literal := number | "string" | 'string' | true | false | null
//
// Missing fields evaluate to `undefined`; comparing `undefined` with anything but `==`/`!=` is
// false, so `tool.name == "run"` is simply false on events that are not tool calls.

export type ExprErrorCode = 'syntax' | 'unknown_identifier';

export class ExpressionError extends Error {
  constructor(
    readonly code: ExprErrorCode,
    message: string,
    readonly column: number, // 1-based position in the expression text
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains';

export type Expr =
  | { type: 'lit'; value: string | number | boolean | null }
  | { type: 'path'; root: string; steps: (string | number)[]; column: number }
  | { type: 'not'; arg: Expr }
  | { type: 'and' | 'or'; left: Expr; right: Expr }
  | { type: 'cmp'; op: CmpOp; left: Expr; right: Expr };

type Tok =
  | { k: 'num'; v: number; at: number }
  | { k: 'str'; v: string; at: number }
  | { k: 'id'; v: string; at: number }
  | { k: 'op'; v: string; at: number }
  | { k: 'end'; at: number };

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', '-'];

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i + 1;
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i));
      const text = m ? m[0] : c;
      out.push({ k: 'num', v: Number(text), at });
      i += text.length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) {
          const n = src[j + 1];
          s += n === 'n' ? '\n' : n === 't' ? '\t' : n;
          j += 2;
        } else s += src[j++];
      }
      if (j >= src.length) throw new ExpressionError('syntax', `unterminated string starting at column ${at}`, at);
      out.push({ k: 'str', v: s, at });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i));
      const text = m ? m[0] : c;
      out.push({ k: 'id', v: text, at });
      i += text.length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError('syntax', `unexpected character '${c}' at column ${at}`, at);
    out.push({ k: 'op', v: op, at });
    i += op.length;
  }
  out.push({ k: 'end', at: src.length + 1 });
  return out;
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly roots: ReadonlySet<string> | null,
  ) {}

  parse(): Expr {
    const e = this.or();
    const t = this.peek();
    if (t.k !== 'end') throw new ExpressionError('syntax', `unexpected ${describe(t)} at column ${t.at}`, t.at);
    return e;
  }

  private peek(): Tok {
    return this.toks[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.k === 'op' && t.v === v;
  }
  private expectOp(v: string): void {
    const t = this.peek();
    if (!(t.k === 'op' && t.v === v)) throw new ExpressionError('syntax', `expected '${v}' but found ${describe(t)} at column ${t.at}`, t.at);
    this.i++;
  }

  private or(): Expr {
    let left = this.and();
    while (this.isOp('||')) {
      this.i++;
      left = { type: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isOp('&&')) {
      this.i++;
      left = { type: 'and', left, right: this.not() };
    }
    return left;
  }
  private not(): Expr {
    if (this.isOp('!')) {
      this.i++;
      return { type: 'not', arg: this.not() };
    }
    return this.cmp();
  }
  private cmp(): Expr {
    const left = this.primary();
    const t = this.peek();
    const op = t.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v) ? (t.v as CmpOp) : t.k === 'id' && t.v === 'contains' ? 'contains' : null;
    if (!op) return left;
    this.i++;
    return { type: 'cmp', op, left, right: this.primary() };
  }
  private primary(): Expr {
    const t = this.peek();
    switch (t.k) {
      case 'num':
        this.i++;
        return { type: 'lit', value: t.v };
      case 'str':
        this.i++;
        return { type: 'lit', value: t.v };
      case 'op':
        if (t.v === '(') {
          this.i++;
          const e = this.or();
          this.expectOp(')');
          return e;
        }
        if (t.v === '-') {
          this.i++;
          const n = this.peek();
          if (n.k !== 'num') throw new ExpressionError('syntax', `expected a number after '-' at column ${n.at}`, n.at);
          this.i++;
          return { type: 'lit', value: -n.v };
        }
        throw new ExpressionError('syntax', `unexpected ${describe(t)} at column ${t.at}`, t.at);
      case 'id':
        this.i++;
        if (t.v === 'true' || t.v === 'false') return { type: 'lit', value: t.v === 'true' };
        if (t.v === 'null') return { type: 'lit', value: null };
        if (this.roots && !this.roots.has(t.v))
          throw new ExpressionError('unknown_identifier', `unknown name '${t.v}' at column ${t.at}; known names: ${[...this.roots].join(', ')}`, t.at);
        return this.path(t.v, t.at);
      case 'end':
        throw new ExpressionError('syntax', `unexpected end of expression at column ${t.at}`, t.at);
    }
  }
  private path(root: string, column: number): Expr {
    const steps: (string | number)[] = [];
    for (;;) {
      if (this.isOp('.')) {
        this.i++;
        const n = this.peek();
        if (n.k !== 'id') throw new ExpressionError('syntax', `expected a field name after '.' at column ${n.at}`, n.at);
        this.i++;
        steps.push(n.v);
      } else if (this.isOp('[')) {
        this.i++;
        const n = this.peek();
        if (n.k !== 'num' && n.k !== 'str') throw new ExpressionError('syntax', `expected a number or string inside [] at column ${n.at}`, n.at);
        this.i++;
        steps.push(n.v);
        this.expectOp(']');
      } else return { type: 'path', root, steps, column };
    }
  }
}

function describe(t: Tok): string {
  return t.k === 'end' ? 'end of expression' : `'${String(t.v)}'`;
}

/** Parse an expression. `roots` (optional) restricts the identifiers a path may start with. */
export function parseExpression(src: string, roots?: Iterable<string>): Expr {
  if (!src.trim()) throw new ExpressionError('syntax', 'empty expression', 1);
  return new Parser(tokenize(src), roots ? new Set(roots) : null).parse();
}

/** Root values are plain data or zero-argument functions computed on first use (lazy roots). */
export type ExprScope = Record<string, unknown>;

function own(obj: unknown, key: string | number): unknown {
  if (obj === null || obj === undefined) return undefined;
  if (Array.isArray(obj)) {
    if (key === 'length') return obj.length;
    return typeof key === 'number' ? obj[key] : undefined;
  }
  if (typeof obj === 'string') return key === 'length' ? obj.length : typeof key === 'number' ? obj[key] : undefined;
  if (typeof obj !== 'object') return undefined;
  const k = String(key);
  return Object.prototype.hasOwnProperty.call(obj, k) ? (obj as Record<string, unknown>)[k] : undefined;
}

export function resolvePath(scope: ExprScope, root: string, steps: readonly (string | number)[]): unknown {
  let v: unknown = Object.prototype.hasOwnProperty.call(scope, root) ? scope[root] : undefined;
  if (typeof v === 'function') v = (v as () => unknown)();
  for (const s of steps) v = own(v, s);
  return v;
}

function compare(op: CmpOp, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==':
      return looseEq(a, b);
    case '!=':
      return !looseEq(a, b);
    case 'contains':
      if (typeof a === 'string') return typeof b === 'string' || typeof b === 'number' ? a.includes(String(b)) : false;
      if (Array.isArray(a)) return a.some((x) => looseEq(x, b));
      return false;
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const bothNum = typeof a === 'number' && typeof b === 'number';
      const bothStr = typeof a === 'string' && typeof b === 'string';
      if (!bothNum && !bothStr) return false;
      const x = a as number | string;
      const y = b as number | string;
      return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }
  }
}

function looseEq(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

export function evaluate(e: Expr, scope: ExprScope): unknown {
  switch (e.type) {
    case 'lit':
      return e.value;
    case 'path':
      return resolvePath(scope, e.root, e.steps);
    case 'not':
      return !truthy(evaluate(e.arg, scope));
    case 'and':
      return truthy(evaluate(e.left, scope)) && truthy(evaluate(e.right, scope));
    case 'or':
      return truthy(evaluate(e.left, scope)) || truthy(evaluate(e.right, scope));
    case 'cmp':
      return compare(e.op, evaluate(e.left, scope), evaluate(e.right, scope));
  }
}

/** Text for `{expr}` interpolation and the Watch view: strings bare, the rest as compact JSON. */
export function formatValue(v: unknown, max = 2000): string {
  const s = v === undefined ? 'undefined' : typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

export type Template = (string | Expr)[];

/** Parse a logpoint message: text with `{expr}` parts; `{{` and `}}` are literal braces. */
export function parseTemplate(src: string, roots?: Iterable<string>): Template {
  const parts: Template = [];
  let text = '';
  let i = 0;
  while (i < src.length) {
    if (src.startsWith('{{', i) || src.startsWith('}}', i)) {
      text += src[i];
      i += 2;
    } else if (src[i] === '{') {
      const end = src.indexOf('}', i);
      if (end < 0) throw new ExpressionError('syntax', `unclosed '{' at column ${i + 1}`, i + 1);
      if (text) parts.push(text);
      text = '';
      try {
        parts.push(parseExpression(src.slice(i + 1, end), roots));
      } catch (err) {
        if (err instanceof ExpressionError) throw new ExpressionError(err.code, `in {${src.slice(i + 1, end)}}: ${err.message}`, i + 1 + err.column);
        throw err;
      }
      i = end + 1;
    } else text += src[i++];
  }
  if (text) parts.push(text);
  return parts;
}

export function renderTemplate(t: Template, scope: ExprScope): string {
  return t.map((p) => (typeof p === 'string' ? p : formatValue(evaluate(p, scope)))).join('');
}
