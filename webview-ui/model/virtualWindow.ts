// Window math of the virtualized list: fixed row height, only the visible rows (plus a little
// overscan) exist in the DOM, whatever the number of rows.

export interface WindowRange {
  /** First visible-list position rendered (inclusive). */
  start: number;
  /** One past the last position rendered. */
  end: number;
}

export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 8): WindowRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(first - overscan, count - 1));
  const end = Math.min(count, first + shown + overscan);
  return { start, end: Math.max(start, end) };
}

/** The scrollTop that brings position `pos` into view with the least movement (null: already visible). */
export function scrollToReveal(pos: number, scrollTop: number, viewportHeight: number, rowHeight: number): number | null {
  const top = pos * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return null;
}

/** True when the list is scrolled to (within one row of) its end: new rows then keep it pinned. */
export function isAtEnd(scrollTop: number, viewportHeight: number, contentHeight: number, rowHeight: number): boolean {
  return scrollTop + viewportHeight >= contentHeight - rowHeight;
}

/** Binary search in a sorted array of row indices: position of `value`, or where it would go. */
export function lowerBound(sorted: ArrayLike<number>, length: number, value: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
