// The list's rows, stored by column: numbers in typed arrays, the short repeated words (titles,
// statuses, tool names) as ids into one word table, and each row's one-line summary in shared
// text chunks. A million rows cost about 40 bytes each plus their summary text, instead of a
// JavaScript object with its own strings per row. A `Row` object is built only for a row that is
// drawn, selected or checked on its own.
import type { KiteEvent } from '../../src/harness/protocol/events';
import { EVENT_KINDS } from '../../src/harness/protocol/events';
import { SummaryText } from './summaryText';
import type { Row, RowLevel } from './rows';

const LEVELS: readonly RowLevel[] = ['info', 'ok', 'warn', 'error'];
const KIND_CODE = new Map<string, number>(EVENT_KINDS.map((k, i) => [k, i]));
const MODEL = KIND_CODE.get('model') as number;
/** Word ids: a Uint16 column; 0 is "none" (a null tool), so a table holds up to 65,535 words. */
const NO_WORD = 0;
const MAX_WORDS = 0xffff;
const MAX_WORD_LENGTH = 64;
const HEAD = 0x80;
/** A model row whose token counts are estimates. */
const ESTIMATED = 0x40;

/** A growable typed array (doubling): one column. */
class Column<A extends Float64Array | Int32Array | Uint16Array | Uint8Array> {
  data: A;
  constructor(private readonly make: (n: number) => A) {
    this.data = make(1024);
  }
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[i] = v;
  }
  get bytes(): number {
    return this.data.byteLength;
  }
}

/** Distinct short words, each stored once, by id (id 0: none). */
export class WordTable {
  readonly words: string[] = [''];
  private readonly ids = new Map<string, number>();

  /** The id of a word already in the table (undefined: no row has it as a pooled word). */
  idOfKnown(word: string): number | undefined {
    return this.ids.get(word);
  }

  /** The word's id, or -1 when it cannot be pooled (too long, or the table is full). */
  idOf(word: string): number {
    const known = this.ids.get(word);
    if (known !== undefined) return known;
    if (word.length > MAX_WORD_LENGTH || this.words.length >= MAX_WORDS) return -1;
    this.words.push(word);
    this.ids.set(word, this.words.length - 1);
    return this.words.length - 1;
  }
}

export class RowTable {
  readonly wordTable = new WordTable();
  private readonly seq = new Column((n) => new Int32Array(n));
  private readonly t = new Column((n) => new Float64Array(n));
  private readonly ms = new Column((n) => new Float64Array(n));
  private readonly group = new Column((n) => new Int32Array(n));
  private readonly turn = new Column((n) => new Int32Array(n));
  private readonly kindCode = new Column((n) => new Uint8Array(n));
  /** Level (low 2 bits), estimated tokens (bit 6), head (bit 7). */
  private readonly flags = new Column((n) => new Uint8Array(n));
  private readonly actions = new Column((n) => new Uint8Array(n));
  private readonly titleId = new Column((n) => new Uint16Array(n));
  private readonly statusId = new Column((n) => new Uint16Array(n));
  private readonly toolId = new Column((n) => new Uint16Array(n));
  /** Index into the model columns (tokens, cost), -1 for rows that are not model replies. */
  private readonly modelAt = new Column((n) => new Int32Array(n));
  private readonly input = new Column((n) => new Float64Array(n));
  private readonly cacheRead = new Column((n) => new Float64Array(n));
  private readonly cacheWrite = new Column((n) => new Float64Array(n));
  private readonly output = new Column((n) => new Float64Array(n));
  private readonly cost = new Column((n) => new Float64Array(n));
  private models = 0;
  readonly summaries = new SummaryText();
  /** Words too long (or too many) for the word table, by row and field: rare. */
  private readonly unpooled = new Map<string, string>();
  length = 0;

  push(row: Row): void {
    const i = this.length++;
    this.seq.set(i, row.seq);
    this.t.set(i, row.t);
    this.ms.set(i, row.ms ?? NaN);
    this.group.set(i, row.group);
    this.turn.set(i, row.turn);
    const kind = KIND_CODE.get(row.kind);
    if (kind === undefined) throw new Error(`row ${i}: unknown event kind "${row.kind}"`);
    this.kindCode.set(i, kind);
    this.flags.set(i, LEVELS.indexOf(row.level) | (row.head ? HEAD : 0) | (row.tokens?.estimated ? ESTIMATED : 0));
    this.actions.set(i, row.actions);
    // A model reply's title is "Turn N": made from its turn when read back, not stored.
    this.titleId.set(i, kind === MODEL ? NO_WORD : this.word(i, 'title', row.title));
    this.statusId.set(i, this.word(i, 'status', row.status));
    this.toolId.set(i, row.tool === null ? NO_WORD : this.word(i, 'tool', row.tool));
    if (row.tokens) {
      const m = this.models++;
      this.modelAt.set(i, m);
      this.input.set(m, row.tokens.input);
      this.cacheRead.set(m, row.tokens.cacheRead);
      this.cacheWrite.set(m, row.tokens.cacheWrite);
      this.output.set(m, row.tokens.output);
      this.cost.set(m, row.cost ?? NaN);
    } else this.modelAt.set(i, -1);
    this.summaries.push(row.summary);
  }

  /** The row as an object (a fresh one: build it for what is drawn or checked, not for every row). */
  get(i: number): Row | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const m = this.modelAt.data[i] as number;
    const ms = this.ms.data[i] as number;
    const cost = m >= 0 ? (this.cost.data[m] as number) : NaN;
    return {
      index: i,
      seq: this.seqAt(i),
      kind: this.kindAt(i),
      t: this.t.data[i] as number,
      group: this.groupAt(i),
      turn: this.turn.data[i] as number,
      head: this.headAt(i),
      level: this.levelAt(i),
      title: this.titleAt(i),
      summary: this.summaries.at(i),
      status: this.statusAt(i),
      tool: this.toolAt(i),
      ms: Number.isNaN(ms) ? null : ms,
      tokens:
        m >= 0
          ? { input: this.input.data[m] as number, cacheRead: this.cacheRead.data[m] as number, cacheWrite: this.cacheWrite.data[m] as number, output: this.output.data[m] as number, estimated: ((this.flags.data[i] as number) & ESTIMATED) !== 0 }
          : null,
      cost: Number.isNaN(cost) ? null : cost,
      actions: this.actions.data[i] as number,
    };
  }

  seqAt(i: number): number {
    return this.seq.data[i] as number;
  }

  kindAt(i: number): KiteEvent['kind'] {
    return EVENT_KINDS[this.kindCode.data[i] as number] as KiteEvent['kind'];
  }

  kindCodeAt(i: number): number {
    return this.kindCode.data[i] as number;
  }

  levelAt(i: number): RowLevel {
    return LEVELS[(this.flags.data[i] as number) & 3] as RowLevel;
  }

  headAt(i: number): boolean {
    return ((this.flags.data[i] as number) & HEAD) !== 0;
  }

  groupAt(i: number): number {
    return this.group.data[i] as number;
  }

  titleAt(i: number): string {
    if (this.kindCode.data[i] === MODEL) return `Turn ${this.turn.data[i] as number}`;
    return this.wordAt(i, 'title', this.titleId.data[i] as number);
  }

  statusAt(i: number): string {
    return this.wordAt(i, 'status', this.statusId.data[i] as number);
  }

  toolAt(i: number): string | null {
    const id = this.toolId.data[i] as number;
    return id === NO_WORD && !this.unpooled.has(`${i}:tool`) ? null : this.wordAt(i, 'tool', id);
  }

  /** Word ids of the row's title, status and tool (0: none, or a model reply's title), for filters. */
  titleIdAt(i: number): number {
    return this.titleId.data[i] as number;
  }
  statusIdAt(i: number): number {
    return this.statusId.data[i] as number;
  }
  toolIdAt(i: number): number {
    return this.toolId.data[i] as number;
  }
  turnAt(i: number): number {
    return this.turn.data[i] as number;
  }
  /** Whether the row has a word the table could not hold (the filters then check it on its own). */
  hasUnpooled(i: number): boolean {
    return this.unpooled.size > 0 && (this.unpooled.has(`${i}:title`) || this.unpooled.has(`${i}:status`) || this.unpooled.has(`${i}:tool`));
  }

  /** Bytes of the typed arrays (outside the JS heap's count; the summary text is inside it). */
  get bytes(): number {
    let b = this.summaries.arrayBytes;
    for (const c of [this.seq, this.t, this.ms, this.group, this.turn, this.kindCode, this.flags, this.actions, this.titleId, this.statusId, this.toolId, this.modelAt, this.input, this.cacheRead, this.cacheWrite, this.output, this.cost]) b += c.bytes;
    return b;
  }

  private word(i: number, field: string, w: string): number {
    const id = w === '' ? NO_WORD : this.wordTable.idOf(w);
    if (id >= 0) return id;
    this.unpooled.set(`${i}:${field}`, w);
    return NO_WORD;
  }

  private wordAt(i: number, field: string, id: number): string {
    if (id !== NO_WORD) return this.wordTable.words[id] as string;
    return this.unpooled.size ? (this.unpooled.get(`${i}:${field}`) ?? '') : '';
  }
}
