import { strict as assert } from 'node:assert';
import { matchGlob } from '../../../src/harness/tools/glob';

describe('matchGlob', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'src/a.ts', true], // no "/" → base name at any depth
    ['*.ts', 'src/a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/deep/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/*.test.{js,ts}', 'test/a.test.js', true],
    ['**/*.test.{js,ts}', 'test/a.spec.js', false],
    ['test/**', 'test/unit/a.js', true],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['[ab].js', 'b.js', true],
    ['[!ab].js', 'c.js', true],
    ['/kite-progress.json', 'kite-progress.json', true],
    ['/kite-progress.json', 'docs/kite-progress.json', false],
    ['./src/*.js', 'src/a.js', true],
    ['a.b', 'axb', false], // dots are literal
    ['src/[id]/page.tsx', 'src/i/page.tsx', true],
    ['src/[[]id]/page.tsx', 'src/[id]/page.tsx', true],
  ];
  for (const [glob, p, want] of cases) {
    it(`${glob} ${want ? 'matches' : 'does not match'} ${p}`, () => assert.equal(matchGlob(glob, p), want));
  }
});
