import assert from 'node:assert/strict';
import { isAtEnd, lowerBound, scrollToReveal, visibleRange } from '../../../webview-ui/model/virtualWindow';
import { compactNumber, formatClock, formatMs, formatUsd, firstLine } from '../../../webview-ui/model/format';

describe('virtual list window math', () => {
  it('renders only the rows in view plus a small overscan, whatever the row count', () => {
    assert.deepEqual(visibleRange(0, 440, 22, 100_000, 8), { start: 0, end: 29 });
    const mid = visibleRange(22 * 50_000, 440, 22, 100_000, 8);
    assert.deepEqual(mid, { start: 49_992, end: 50_029 });
    assert.ok(mid.end - mid.start < 40);
    assert.deepEqual(visibleRange(22 * 99_990, 440, 22, 100_000, 8), { start: 99_982, end: 100_000 });
    assert.deepEqual(visibleRange(0, 440, 22, 0), { start: 0, end: 0 });
    assert.deepEqual(visibleRange(-50, 440, 22, 3, 0), { start: 0, end: 3 });
  });

  it('scrolls the least needed to reveal a row', () => {
    assert.equal(scrollToReveal(10, 0, 440, 22), null);
    assert.equal(scrollToReveal(30, 0, 440, 22), 31 * 22 - 440);
    assert.equal(scrollToReveal(2, 500, 440, 22), 44);
  });

  it('knows when the list is at its end (new rows then keep it pinned)', () => {
    assert.equal(isAtEnd(1000 - 440, 440, 1000, 22), true);
    assert.equal(isAtEnd(1000 - 440 - 10, 440, 1000, 22), true);
    assert.equal(isAtEnd(100, 440, 1000, 22), false);
  });

  it('binary-searches sorted row indices', () => {
    const a = [1, 4, 9, 12];
    assert.deepEqual([0, 1, 5, 12, 13].map((v) => lowerBound(a, a.length, v)), [0, 0, 2, 3, 4]);
  });
});

describe('timeline formats', () => {
  it('formats numbers, dollars, durations and clock times compactly', () => {
    assert.deepEqual([0, 950, 1000, 12_345, 2_500_000, 3e9].map(compactNumber), ['0', '950', '1k', '12.3k', '2.5M', '3G']);
    assert.deepEqual([0, 0.0042, 0.13, 5, 12.4].map(formatUsd), ['$0', '$0.0042', '$0.130', '$5.00', '$12.40']);
    assert.deepEqual([850, 1280, 4000, 12_500, 95_000].map(formatMs), ['850ms', '1.28s', '4s', '12.5s', '1m35s']);
    assert.deepEqual([0, 14.9, 75.25, 3725].map(formatClock), ['0:00.0', '0:14.9', '1:15.3', '1:02:05']);
    assert.equal(firstLine('  hello\nworld'), 'hello');
    assert.equal(firstLine('x'.repeat(200), 10), 'xxxxxxxxx…');
  });
});
