// The order of run logs by when their run started, from their names alone (no import: the
// extension sorts its Runs view with it at activation). Names are writer.ts's runIdFor + .jsonl.

/**
 * Orders run log names (or ids) by when the run started: by their timestamp, and within one second
 * a clash's `-2`, `-3`, … (writer.ts uniqueRunId) after the name it clashed with, numerically — plain string
 * order puts `…-F1.jsonl` after `…-F1-2.jsonl` ('-' sorts before '.') and `-10` before `-9`.
 */
export function compareRunLogNames(a: string, b: string): number {
  const x = a.replace(/\.jsonl$/, '');
  const y = b.replace(/\.jsonl$/, '');
  if (x === y) return 0;
  const sx = x.slice(0, 15);
  const sy = y.slice(0, 15);
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (isClashOf(y, x)) return -1;
  if (isClashOf(x, y)) return 1;
  const cx = /^(.*)-(\d+)$/.exec(x);
  const cy = /^(.*)-(\d+)$/.exec(y);
  if (cx && cy && cx[1] === cy[1]) return Number(cx[2]) - Number(cy[2]);
  return x < y ? -1 : 1;
}

/** Whether `id` is `base` with a clash number (`base-2`, `base-3`, …). */
function isClashOf(id: string, base: string): boolean {
  return id.startsWith(`${base}-`) && /^\d+$/.test(id.slice(base.length + 1));
}
