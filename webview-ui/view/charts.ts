// Clean SVG charts, updated incrementally: bars live in data coordinates inside a group whose
// transform carries the scale, so a new maximum is one attribute, and an appended event redraws
// only the last bar. At most MAX_BARS bars exist; a long run groups 2^k turns per bar.
import { bucketAt, bucketSize, niceMax, type Bucket, type TurnPoint } from '../model/turnSeries';
import { compactNumber, formatMs, formatUsd } from '../model/format';
import { TOKEN_KINDS } from '../model/rowColumns';
import type { Announcer } from './announcer';
import { setAttr, setText } from './domWrites';

const SVG = 'http://www.w3.org/2000/svg';
const PLOT_H = 100;
const MIN_W = 8;

export interface StackSpec {
  key: 'input' | 'cacheRead' | 'cacheWrite' | 'output' | 'modelMs' | 'toolMs' | 'gateMs';
  cls: string;
  label: string;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string> = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function turnLabel(turns: readonly TurnPoint[], b: Bucket): string {
  const first = turns[b.from]?.turn ?? 0;
  return b.to - b.from > 1 ? `Turns ${first}–${b.turn}` : `Turn ${b.turn}`;
}

/** Frame shared by the charts: caption, legend, y label, svg, x label, tooltip, click to pick;
 *  and the same by keyboard: the plot takes focus, arrows move a cursor over the bars (the tooltip
 *  shows and the page announces the values), Enter picks, and its name sums the chart up. */
abstract class Chart {
  readonly el: HTMLElement;
  protected readonly svgEl: SVGSVGElement;
  protected readonly plot: SVGGElement;
  private readonly yMax: HTMLSpanElement;
  private readonly xLabel: HTMLSpanElement;
  private readonly tip: HTMLDivElement;
  private readonly cursor: SVGRectElement;
  /** Bar the keyboard is on (-1: none yet, then the last one). */
  private cursorAt = -1;
  protected size = 1;
  protected built = 0;
  protected max = 0;
  private shownMax = -1;
  protected turns: readonly TurnPoint[] = [];

  constructor(
    parent: HTMLElement,
    id: string,
    private readonly title: string,
    legend: { cls: string; label: string }[],
    private readonly onPick: (turnIndex: number) => void,
    private readonly announcer: Announcer,
  ) {
    this.el = document.createElement('figure');
    this.el.className = 'chart';
    this.el.id = id;
    const cap = document.createElement('figcaption');
    const name = document.createElement('span');
    name.className = 'chart-title';
    name.textContent = title;
    const leg = document.createElement('span');
    leg.className = 'legend';
    for (const l of legend) {
      const item = document.createElement('span');
      const sw = document.createElement('i');
      sw.className = `swatch ${l.cls}`;
      item.append(sw, l.label);
      leg.append(item);
    }
    cap.append(name, leg);
    const box = document.createElement('div');
    box.className = 'plot';
    this.yMax = document.createElement('span');
    this.yMax.className = 'y-max';
    this.svgEl = svg('svg', { viewBox: `0 0 ${MIN_W} ${PLOT_H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': title, tabindex: '0' });
    this.svgEl.append(svg('line', { class: 'axis', x1: '0', x2: '100000', y1: String(PLOT_H), y2: String(PLOT_H), 'vector-effect': 'non-scaling-stroke' }));
    this.plot = svg('g', { class: 'data' });
    this.cursor = svg('rect', { class: 'cursor', y: '0', width: '1', height: String(PLOT_H) });
    this.cursor.style.display = 'none';
    this.svgEl.append(this.cursor, this.plot);
    this.xLabel = document.createElement('span');
    this.xLabel.className = 'x-label';
    this.tip = document.createElement('div');
    this.tip.className = 'tip';
    this.tip.hidden = true;
    box.append(this.yMax, this.svgEl, this.tip);
    this.el.append(cap, box, this.xLabel);
    parent.append(this.el);
    this.svgEl.addEventListener('mousemove', (ev) => this.hover(ev));
    this.svgEl.addEventListener('mouseleave', () => {
      if (document.activeElement !== this.svgEl) this.tip.hidden = true;
    });
    this.svgEl.addEventListener('click', (ev) => {
      const b = this.bucketAtPointer(ev);
      if (b !== null) this.onPick(b.from);
    });
    this.svgEl.addEventListener('focus', () => this.moveCursor(this.cursorAt < 0 ? this.bucketCount() - 1 : this.cursorAt));
    this.svgEl.addEventListener('blur', () => {
      this.tip.hidden = true;
      this.cursor.style.display = 'none';
    });
    this.svgEl.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  private bucketCount(): number {
    return Math.ceil(this.turns.length / this.size);
  }

  private onKey(ev: KeyboardEvent): void {
    const last = this.bucketCount() - 1;
    const at = this.cursorAt < 0 ? last : this.cursorAt;
    switch (ev.key) {
      case 'ArrowLeft':
        this.moveCursor(at - 1);
        break;
      case 'ArrowRight':
        this.moveCursor(at + 1);
        break;
      case 'Home':
        this.moveCursor(0);
        break;
      case 'End':
        this.moveCursor(last);
        break;
      case 'Enter':
      case ' ':
        if (at >= 0) this.onPick(bucketAt(this.turns, at, this.size).from);
        break;
      case 'Escape':
        this.tip.hidden = true;
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  /** Puts the keyboard cursor on bar `b` (clamped): highlighted, its values shown and announced. */
  private moveCursor(b: number): void {
    const nb = this.bucketCount();
    if (nb === 0) return;
    this.cursorAt = Math.max(0, Math.min(nb - 1, b));
    const bucket = bucketAt(this.turns, this.cursorAt, this.size);
    this.cursor.setAttribute('x', String(this.cursorAt));
    this.cursor.style.display = '';
    const text = this.showTip(bucket, ((this.cursorAt + 1) / Math.max(MIN_W, nb)) * this.svgEl.getBoundingClientRect().width);
    this.announcer.say(text.replace(/\n/g, ', '));
  }

  /** Redraws what changed since turn index `dirtyFrom` (Infinity: nothing). */
  update(turns: readonly TurnPoint[], dirtyFrom: number): void {
    this.turns = turns;
    const size = bucketSize(turns.length);
    if (size !== this.size) {
      this.size = size;
      this.built = 0;
      this.max = 0;
      this.clear();
      dirtyFrom = 0;
    }
    const nb = Math.ceil(turns.length / size);
    const from = Math.min(Math.floor(Math.min(dirtyFrom, turns.length) / size), this.built);
    for (let b = from; b < nb; b++) this.drawBucket(b, bucketAt(turns, b, size));
    this.built = nb;
    this.finish(nb);
    const yMax = this.axisMax();
    if (yMax !== this.shownMax) {
      this.shownMax = yMax;
      this.plot.setAttribute('transform', `translate(0 ${PLOT_H}) scale(1 ${-PLOT_H / yMax})`);
    }
    const label = this.yLabel(yMax);
    setText(this.yMax, label);
    const viewBox = `0 0 ${Math.max(MIN_W, nb)} ${PLOT_H}`;
    setAttr(this.svgEl, 'viewBox', viewBox);
    const last = turns[turns.length - 1];
    const range = last ? `turn ${turns[0]?.turn ?? 1}–${last.turn}${size > 1 ? ` · ${size} turns per bar` : ''}` : 'no turns yet';
    setText(this.xLabel, range);
    // The chart's text alternative: what it shows in one sentence, and how to read each bar.
    const alt = last
      ? `${this.title}: ${turns.length} turn${turns.length === 1 ? '' : 's'}, ${this.summary()}. Left and Right arrows read each ${size > 1 ? 'bar' : 'turn'}, Enter shows it in the list.`
      : `${this.title}: no turns yet.`;
    setAttr(this.svgEl, 'aria-label', alt);
  }

  protected abstract clear(): void;
  protected abstract drawBucket(b: number, bucket: Bucket): void;
  protected abstract axisMax(): number;
  protected abstract formatValue(v: number): string;
  protected abstract describe(bucket: Bucket): string;
  /** The chart's figures in a few words, for its text alternative. */
  protected abstract summary(): string;
  protected finish(_buckets: number): void {}
  protected yLabel(yMax: number): string {
    return this.formatValue(yMax);
  }

  private bucketAtPointer(ev: MouseEvent): Bucket | null {
    const rect = this.svgEl.getBoundingClientRect();
    if (rect.width <= 0 || this.turns.length === 0) return null;
    const nb = Math.ceil(this.turns.length / this.size);
    const b = Math.floor(((ev.clientX - rect.left) / rect.width) * Math.max(MIN_W, nb));
    return b >= 0 && b < nb ? bucketAt(this.turns, b, this.size) : null;
  }

  private hover(ev: MouseEvent): void {
    const b = this.bucketAtPointer(ev);
    if (!b) {
      this.tip.hidden = true;
      return;
    }
    this.showTip(b, ev.clientX - this.svgEl.getBoundingClientRect().left);
  }

  /** Shows the values of `b` beside x (px from the plot's left edge); returns the text shown. */
  private showTip(b: Bucket, x: number): string {
    const text = `${turnLabel(this.turns, b)}\n${this.describe(b)}`;
    this.tip.textContent = text;
    this.tip.hidden = false;
    const width = this.svgEl.getBoundingClientRect().width;
    this.tip.style.left = `${Math.min(Math.max(0, x + 10), Math.max(0, width - 170))}px`;
    return text;
  }
}

/**
 * Stacked bars per turn (tokens by kind, or durations by part): one path per stack, each bar a
 * subpath, rather than an element per bar and stack — 240 bars were ~1,200 SVG elements that
 * style, layout and pre-paint went through in every frame that drew an appended event (~2.5 ms of a
 * ~12 ms frame at 100k events, issue 17). A bar's segment is `M x bottom h 0.84 v height h -0.84 z`
 * in data coordinates; an empty segment is left out.
 */
export class StackedBarChart extends Chart {
  private readonly paths: SVGPathElement[];
  /** Each stack's segments by bar (the path is their concatenation). */
  private segments: string[][];
  /** Stacks whose segments changed since their path was written (an appended event changes the
   *  last bar of a few stacks: the others keep their long `d`, neither joined nor parsed again). */
  private changed: boolean[];

  constructor(
    parent: HTMLElement,
    id: string,
    title: string,
    private readonly stacks: StackSpec[],
    private readonly unit: 'tokens' | 'ms',
    onPick: (turnIndex: number) => void,
    announcer: Announcer,
  ) {
    super(parent, id, title, stacks, onPick, announcer);
    this.paths = stacks.map((st) => svg('path', { class: `bar ${st.cls}`, d: '' }));
    this.segments = stacks.map(() => []);
    this.changed = stacks.map(() => true);
    this.plot.append(...this.paths);
  }

  protected clear(): void {
    this.segments = this.stacks.map(() => []);
    this.changed = this.stacks.map(() => true);
  }

  protected drawBucket(b: number, bucket: Bucket): void {
    let base = 0;
    this.stacks.forEach((st, i) => {
      const v = bucket[st.key];
      const segments = this.segments[i] as string[];
      const segment = v > 0 ? `M${b + 0.08} ${base}h0.84v${v}h-0.84z` : '';
      if (segments[b] !== segment) {
        segments[b] = segment;
        this.changed[i] = true;
      }
      base += v;
    });
    if (base > this.max) this.max = base;
  }

  protected override finish(buckets: number): void {
    this.paths.forEach((path, i) => {
      const segments = this.segments[i] as string[];
      if (segments.length !== buckets) {
        segments.length = buckets;
        this.changed[i] = true;
      }
      if (!this.changed[i]) return;
      this.changed[i] = false;
      path.setAttribute('d', segments.join(''));
    });
  }

  protected axisMax(): number {
    return niceMax(this.max);
  }

  protected formatValue(v: number): string {
    return this.unit === 'ms' ? formatMs(v) : compactNumber(v);
  }

  protected describe(b: Bucket): string {
    const f = (v: number) => this.formatValue(v);
    return this.stacks.map((s) => `${s.label}: ${f(b[s.key])}`).join('\n');
  }

  protected summary(): string {
    return `the largest bar ${this.formatValue(this.max)} (${this.stacks.map((s) => s.label).join(', ')})`;
  }
}

/** Running total of cost against the budget (a dashed line when the run has a dollar limit). */
export class CostChart extends Chart {
  private readonly area = svg('polygon', { class: 'cost-area' });
  private readonly line = svg('polyline', { class: 'cost-line', 'vector-effect': 'non-scaling-stroke' });
  private readonly budgetLine = svg('line', { class: 'budget-line', x1: '0', x2: '100000', 'vector-effect': 'non-scaling-stroke' });
  private points: string[] = [];
  /** The line's points as last written (the polyline and polygon are parsed again when set). */
  private written = '';
  budget: number | null = null;

  constructor(parent: HTMLElement, onPick: (turnIndex: number) => void, announcer: Announcer) {
    super(
      parent,
      'chart-cost',
      'Cost',
      [
        { cls: 'cost', label: 'cumulative' },
        { cls: 'budget', label: 'budget' },
      ],
      onPick,
      announcer,
    );
    // CSSOM, not a style attribute: the CSP allows no inline style attributes.
    this.budgetLine.style.display = 'none';
    this.clear();
  }

  protected clear(): void {
    this.plot.replaceChildren(this.area, this.line, this.budgetLine);
    this.points = ['0,0'];
    this.written = '';
  }

  protected drawBucket(b: number, bucket: Bucket): void {
    this.points[b + 1] = `${b + 1},${bucket.cumCost}`;
    if (bucket.cumCost > this.max) this.max = bucket.cumCost;
  }

  protected override finish(buckets: number): void {
    this.points.length = buckets + 1;
    const pts = this.points.join(' ');
    if (pts !== this.written) {
      this.written = pts;
      this.line.setAttribute('points', pts);
      this.area.setAttribute('points', `${pts} ${buckets},0`);
    }
    const onScale = this.budgetOnScale();
    if (onScale) {
      setAttr(this.budgetLine, 'y1', String(this.budget));
      setAttr(this.budgetLine, 'y2', String(this.budget));
    }
    const display = onScale ? '' : 'none';
    if (this.budgetLine.style.display !== display) this.budgetLine.style.display = display;
  }

  /** A budget far above what was spent would flatten the line: it is then named, not drawn. */
  private budgetOnScale(): boolean {
    return this.budget !== null && this.budget <= 4 * this.max;
  }

  protected axisMax(): number {
    return niceMax(Math.max(this.max, this.budgetOnScale() ? (this.budget as number) : 0) * 1.05);
  }

  protected override yLabel(yMax: number): string {
    const base = formatUsd(yMax);
    return this.budget !== null && !this.budgetOnScale() ? `${base} · budget ${formatUsd(this.budget)} (off scale)` : base;
  }

  protected formatValue(v: number): string {
    return formatUsd(v);
  }

  protected summary(): string {
    return `run total ${formatUsd(this.max)}${this.budget !== null ? ` of a ${formatUsd(this.budget)} budget` : ''}`;
  }

  protected describe(b: Bucket): string {
    return `cost: ${formatUsd(b.cost)}\nrun total: ${formatUsd(b.cumCost)}${this.budget !== null ? ` of ${formatUsd(this.budget)}` : ''}`;
  }
}

export const TOKEN_STACKS: StackSpec[] = TOKEN_KINDS.map((k) => ({ key: k.key, cls: k.cls, label: k.name }));

export const DURATION_STACKS: StackSpec[] = [
  { key: 'modelMs', cls: 'd-model', label: 'model' },
  { key: 'toolMs', cls: 'd-tool', label: 'tools' },
  { key: 'gateMs', cls: 'd-gate', label: 'gate' },
];
