#!/usr/bin/env node
// Where a V8 CPU profile's time went (.cpuprofile, e.g. from KITE_IT_CPU_PROF / KITE_IT_PAGE_CPU_PROF
// or node --cpu-prof): the functions with the most self time, and the longest stretches of
// consecutive non-idle samples with what ran in them — a stretch is where an event loop was held
// (one long task or several back to back), which is what the long-task monitor reports.
//   node scripts/cpuprofile-summary.mjs FILE.cpuprofile [top=25] [stretches=8]
import { readFileSync } from 'node:fs';

const [file, topArg, stretchArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [top] [stretches]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (id) => {
  const f = nodes.get(id).callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
};
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
const ms = (us) => (us / 1000).toFixed(0);

const self = new Map();
const stretches = [];
let current = null;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  const dt = profile.timeDeltas[i];
  t += dt;
  add(self, name(id), dt);
  if (nodes.get(id).callFrame.functionName === '(idle)') {
    if (current) stretches.push(current);
    current = null;
    continue;
  }
  current ??= { from: t, to: t, self: new Map(), inclusive: new Map() };
  current.to = t;
  add(current.self, name(id), dt);
  // The callers too (up to 12 frames), so a stretch says which code path it was in.
  for (let p = id, depth = 0; parent.has(p) && depth < 12; p = parent.get(p), depth++) add(current.inclusive, name(p), dt);
}
if (current) stretches.push(current);

const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
for (const [k, us] of top(self, Number(topArg ?? 25))) console.log(`${ms(us).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
console.log('\nlongest busy stretches:');
for (const s of stretches.sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, Number(stretchArg ?? 8))) {
  console.log(`${((s.to - s.from) / 1000).toFixed(1).padStart(8)} ms at ${((s.from - profile.startTime) / 1e6).toFixed(2)} s: ${top(s.self, 4).map(([k, us]) => `${k} ${ms(us)}`).join(', ')}`);
  console.log(`           in: ${top(s.inclusive, 8).map(([k, us]) => `${k} ${ms(us)}`).join(', ')}`);
}
