// The scripted 80-turn session of the context-layer tests and benchmark: the agent reads 76
// modules of ~3 KB each (several times a 20,000-token window in total), tries `git push` at
// turn 3 (denied by policy), claims done too early at turn 40 (the gate fails: done.txt is
// missing), writes done.txt at turn 79 and ends at turn 80.
import type { ScriptEntry } from '../../fakeAnthropic/script';

export const TURNS = 80;
export const WINDOW = 20_000;
export const PUSH = 'git push origin main';

export function moduleText(n: number): string {
  let out = `// module ${n}\n`;
  for (let i = 0; out.length < 3000; i++) out += `export function m${n}_${i}(x: number): number { return x * ${i} + ${n}; }\n`;
  return out;
}

export function moduleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= TURNS; n++) files[`src/m${n}.ts`] = moduleText(n);
  return files;
}

export function longScript(): ScriptEntry[] {
  const script: ScriptEntry[] = [];
  const use = (t: number, name: string, input: Record<string, unknown>): ScriptEntry => ({
    content: [
      { type: 'text', text: `Turn ${t}: next step.` },
      { type: 'tool_use', id: `toolu_${String(t).padStart(3, '0')}`, name, input },
    ],
    stop_reason: 'tool_use',
    usage: { output_tokens: 40 },
  });
  for (let t = 1; t <= TURNS; t++) {
    if (t === 3) script.push(use(t, 'run', { command: PUSH }));
    else if (t === 40) script.push({ content: [{ type: 'text', text: 'Done, I think.' }], stop_reason: 'end_turn', usage: { output_tokens: 10 } });
    else if (t === TURNS - 1) script.push(use(t, 'write_file', { path: 'done.txt', content: 'all modules reviewed\n' }));
    else if (t === TURNS) script.push({ content: [{ type: 'text', text: 'All modules reviewed; done.txt written.' }], stop_reason: 'end_turn', usage: { output_tokens: 20 } });
    else script.push(use(t, 'read_file', { path: `src/m${t}.ts` }));
  }
  return script;
}

/** Summary replies for the compaction calls (served to requests without tools). */
export function summaryReplies(n = 40): ScriptEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    content: [{ type: 'text', text: `Summary ${i + 1}: you have been reading the modules in src/ one by one; none needed a change so far. done.txt still has to be written before the gate can pass.` }],
    stop_reason: 'end_turn',
    usage: { output_tokens: 50 },
  }));
}

export const CONTEXT = { window: WINDOW, keep_turns: 4 };
