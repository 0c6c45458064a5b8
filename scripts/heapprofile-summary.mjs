#!/usr/bin/env node
// Who allocated the bytes in a V8 sampling heap profile (.heapprofile, e.g. from KITE_IT_HEAP_PROF,
// which also counts objects the collector freed): the functions with the most self bytes, and the
// call paths (innermost frames first) that allocated the most.
//   node scripts/heapprofile-summary.mjs FILE.heapprofile [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/heapprofile-summary.mjs FILE.heapprofile [top]');
  process.exit(2);
}
const topN = Number(topArg ?? 25);
const { head } = JSON.parse(readFileSync(file, 'utf8'));
const name = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
const bySelf = new Map();
const byPath = new Map();
let total = 0;
(function walk(node, path) {
  const here = [...path, name(node.callFrame)];
  if (node.selfSize > 0) {
    total += node.selfSize;
    bySelf.set(here.at(-1), (bySelf.get(here.at(-1)) ?? 0) + node.selfSize);
    const key = here.slice(-6).reverse().join(' < ');
    byPath.set(key, (byPath.get(key) ?? 0) + node.selfSize);
  }
  for (const c of node.children ?? []) walk(c, here);
})(head, []);
const mb = (b) => (b / 1048576).toFixed(1).padStart(8);
const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, topN);
console.log(`${file}: ${mb(total).trim()} MB sampled`);
for (const [k, v] of top(bySelf)) console.log(`${mb(v)} MB  ${k}`);
console.log('\nlargest allocating paths (innermost first):');
for (const [k, v] of top(byPath)) console.log(`${mb(v)} MB  ${k}`);
