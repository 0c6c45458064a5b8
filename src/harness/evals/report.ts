// How a suite run is shown: the batch table of the original Kite (case, result, outcome, turns,
// tokens, cost, notes), a cases × models matrix with pass rate, mean cost and mean turns per model,
// the unmet expectations case by case, and the same results as JSON, JUnit XML and Markdown.
import type { CaseResult } from './runCase';
import type { SuiteResult } from './runSuite';
import { agreementText } from './judgeAgreement';

const n = (v: number) => v.toLocaleString('en-US');
const usd = (v: number) => `$${v.toFixed(4)}`;
const RESULT = { pass: 'pass', fail: 'FAIL', error: 'ERROR' } as const;
const clip = (s: string, max: number) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

function table(rows: string[][], right: ReadonlySet<number>): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}

const label = (r: CaseResult, s: SuiteResult) => (s.models.length > 1 ? `${r.case} [${r.model}]` : r.case);

function rowsOf(s: SuiteResult): string[][] {
  return s.results.map((r) => [label(r, s), RESULT[r.status], r.outcome, String(r.turns), n(r.tokens), usd(r.cost_usd), clip(r.notes, 90)]);
}

const HEAD = ['CASE', 'RESULT', 'OUTCOME', 'TURNS', 'TOKENS', 'COST', 'NOTES'];

export interface ModelStats {
  model: string;
  cases: number;
  passed: number;
  pass_rate: number;
  mean_cost_usd: number;
  mean_turns: number;
}

export function modelStats(s: SuiteResult): ModelStats[] {
  return s.models.map((model) => {
    const rs = s.results.filter((r) => r.model === model);
    const k = rs.length || 1;
    const passed = rs.filter((r) => r.status === 'pass').length;
    return { model, cases: rs.length, passed, pass_rate: passed / k, mean_cost_usd: rs.reduce((a, r) => a + r.cost_usd, 0) / k, mean_turns: rs.reduce((a, r) => a + r.turns, 0) / k };
  });
}

function matrix(s: SuiteResult): string {
  const cases = [...new Set(s.results.map((r) => r.case))];
  const cell = (c: string, model: string) => {
    const r = s.results.find((x) => x.case === c && x.model === model);
    return r ? `${RESULT[r.status]} ${r.outcome}` : '';
  };
  const stats = modelStats(s);
  const rows = [['CASE', ...s.models], ...cases.map((c) => [c, ...s.models.map((m) => cell(c, m))])];
  rows.push(['pass rate', ...stats.map((m) => `${m.passed}/${m.cases} (${Math.round(m.pass_rate * 100)}%)`)]);
  rows.push(['mean cost', ...stats.map((m) => usd(m.mean_cost_usd))]);
  rows.push(['mean turns', ...stats.map((m) => m.mean_turns.toFixed(1))]);
  return table(rows, new Set());
}

export function counts(s: SuiteResult): { passed: number; failed: number; errors: number } {
  return { passed: s.results.filter((r) => r.status === 'pass').length, failed: s.results.filter((r) => r.status === 'fail').length, errors: s.results.filter((r) => r.status === 'error').length };
}

export function formatSuite(s: SuiteResult): string {
  const out = [table([HEAD, ...rowsOf(s)], new Set([3, 4, 5]))];
  if (s.models.length > 1) out.push('', matrix(s));
  const bad = s.results.filter((r) => r.status !== 'pass');
  if (bad.length) out.push('');
  for (const r of bad) {
    if (r.status === 'error') out.push(`✗ ${label(r, s)}: could not run: ${r.error}`);
    for (const u of r.unmet) out.push(`✗ ${label(r, s)}: ${u}`);
  }
  const agreements = agreementLines(s);
  if (agreements.length) out.push('', 'Judge agreement (labelled judge_examples):', ...agreements.map((l) => `  ${l}`));
  const c = counts(s);
  out.push('', `${s.results.length} case run${s.results.length === 1 ? '' : 's'}: ${c.passed} passed, ${c.failed} failed${c.errors ? `, ${c.errors} could not run` : ''} (${s.jobs} at a time, ${(s.wall_ms / 1000).toFixed(1)} s).`);
  return out.join('\n');
}

/** "case: "<rubric>" (model): 3/4 (75%)", one line per judge of each case with judge_examples. */
function agreementLines(s: SuiteResult): string[] {
  return s.results.flatMap((r) => (r.judges ?? []).map((a) => `${label(r, s)}: "${clip(a.judge, 70)}" (${a.model}): ${agreementText(a)}${a.misses.length ? ` — ${a.misses.join('; ')}` : ''}`));
}

export function suiteJson(s: SuiteResult): string {
  const judgeAgreement = s.results.flatMap((r) => (r.judges ?? []).map((a) => ({ case: r.case, judge: a.judge, model: a.model, matches: a.matches, total: a.total, agreement: a.total ? a.matches / a.total : 0 })));
  return JSON.stringify({ ...counts(s), jobs: s.jobs, wall_ms: s.wall_ms, models: modelStats(s), ...(judgeAgreement.length ? { judge_agreement: judgeAgreement } : {}), cases: s.results }, null, 2);
}

const xml = (v: string) =>
  v
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '') // XML 1.0 cannot carry these control characters
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** One testcase per case (named after it), so CI lists each case and why it failed. */
export function suiteJunit(s: SuiteResult): string {
  const c = counts(s);
  const cases = s.results.map((r) => {
    const open = `    <testcase classname="kite.eval" name="${xml(label(r, s))}" time="${(r.ms / 1000).toFixed(3)}"`;
    const agree = (r.judges ?? []).map((a) => `; judge agreement "${a.judge}" (${a.model}): ${agreementText(a)}`).join('');
    const props = `outcome ${r.outcome}, ${r.turns} turns, ${r.tokens} tokens, ${usd(r.cost_usd)}${agree}${r.log ? `; log ${r.log}` : ''}`;
    if (r.status === 'pass') return `${open}>\n      <system-out>${xml(props)}</system-out>\n    </testcase>`;
    if (r.status === 'error') return `${open}>\n      <error message="${xml(r.error ?? '')}">${xml(r.error ?? '')}</error>\n    </testcase>`;
    return `${open}>\n      <failure message="${xml(r.unmet[0] ?? '')}">${xml([...r.unmet, r.notes && `notes: ${r.notes}`].filter(Boolean).join('\n'))}</failure>\n      <system-out>${xml(props)}</system-out>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="kite eval" tests="${s.results.length}" failures="${c.failed}" errors="${c.errors}" time="${(s.wall_ms / 1000).toFixed(3)}">`,
    `  <testsuite name="kite eval" tests="${s.results.length}" failures="${c.failed}" errors="${c.errors}" time="${(s.wall_ms / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const md = (v: string) => v.replace(/\|/g, '\\|');

export function suiteMarkdown(s: SuiteResult): string {
  const lines = [`| ${HEAD.map((h) => h[0] + h.slice(1).toLowerCase()).join(' | ')} |`, `|${HEAD.map((_, i) => ([3, 4, 5].includes(i) ? ' ---: ' : ' --- ')).join('|')}|`];
  for (const row of rowsOf(s)) lines.push(`| ${row.map(md).join(' | ')} |`);
  const bad = s.results.filter((r) => r.status !== 'pass');
  if (bad.length) lines.push('', ...bad.flatMap((r) => (r.status === 'error' ? [`- **${md(label(r, s))}**: could not run: ${md(r.error ?? '')}`] : r.unmet.map((u) => `- **${md(label(r, s))}**: ${md(u)}`))));
  const agreements = agreementLines(s);
  if (agreements.length) lines.push('', '**Judge agreement** (labelled judge_examples):', ...agreements.map((l) => `- ${md(l)}`));
  if (s.models.length > 1) {
    lines.push('', '| Model | Pass rate | Mean cost | Mean turns |', '| --- | ---: | ---: | ---: |');
    for (const m of modelStats(s)) lines.push(`| ${md(m.model)} | ${m.passed}/${m.cases} | ${usd(m.mean_cost_usd)} | ${m.mean_turns.toFixed(1)} |`);
  }
  return lines.join('\n') + '\n';
}
