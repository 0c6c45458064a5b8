// A scripted multi-turn agent session for caching tests and the benchmark: each turn the model
// reads a file (tool_use), the harness answers with the file's text (tool_result), and the last
// turn ends. Drives any Model the way the loop does (history only grows, prefix stays stable).
import type { Model, ModelObserver, ToolSpec } from '../../src/harness/model/model';
import type { Message, Reply } from '../../src/harness/protocol/content';
import type { ScriptEntry } from './script';

export function sessionScript(turns: number): ScriptEntry[] {
  const script: ScriptEntry[] = [];
  for (let t = 1; t < turns; t++)
    script.push({
      content: [
        { type: 'text', text: `Step ${t}: I need to look at module ${t} before changing anything.` },
        { type: 'tool_use', id: `toolu_${String(t).padStart(3, '0')}`, name: 'read_file', input: { path: `src/module${t}.ts` } },
      ],
      stop_reason: 'tool_use',
      usage: { output_tokens: 60 },
    });
  script.push({ content: [{ type: 'text', text: 'All modules reviewed and fixed; the tests pass.' }], stop_reason: 'end_turn', usage: { output_tokens: 40 } });
  return script;
}

/** Deterministic file text of roughly `chars` characters. */
export function fileText(n: number, chars: number): string {
  const line = (i: number) => `export function f${n}_${i}(x: number): number { return x * ${i} + ${n}; }\n`;
  let out = `// module ${n}\n`;
  for (let i = 0; out.length < chars; i++) out += line(i);
  return out;
}

export interface SessionResult {
  replies: Reply[];
  requests: number;
}

export async function driveSession(model: Model, opts: { system: string; tools: ToolSpec[]; briefing: string; turns: number; toolOutputChars: number; observer?: ModelObserver }): Promise<SessionResult> {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: opts.briefing }] }];
  const replies: Reply[] = [];
  for (let t = 1; t <= opts.turns; t++) {
    const reply = await model.complete({ system: opts.system, tools: opts.tools, messages: [...messages], max_tokens: 4096 }, opts.observer);
    replies.push(reply);
    if (reply.stop_reason !== 'tool_use') break;
    messages.push({ role: 'assistant', content: reply.content });
    const results = reply.content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: fileText(t, opts.toolOutputChars) }] : []));
    messages.push({ role: 'user', content: results });
  }
  return { replies, requests: replies.length };
}

export const BENCH_SYSTEM = [
  'You are Kite, a coding agent working inside a harness that validates every tool call.',
  'Work on exactly one feature. Read before you write. Keep changes small and reviewed.',
  'When you believe the feature is done, say so; a verification gate then runs the checks.',
  'If the gate fails you get its output; fix the cause, not the test.',
  'Never touch files outside the workspace. Never print secrets.',
].join('\n').repeat(6);

export const BENCH_TOOLS: ToolSpec[] = ['read_file', 'list_files', 'search', 'write_file', 'edit_file', 'run'].map((name) => ({
  name,
  description: `${name.replace('_', ' ')}: one of the workspace tools. Paths are relative to the workspace root; results are clipped to a readable size and say what was cut.`,
  input_schema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative path.' },
      content: { type: 'string', description: 'New file content (write_file).' },
      old: { type: 'string', description: 'Exact text to replace (edit_file).' },
      new: { type: 'string', description: 'Replacement text (edit_file).' },
      command: { type: 'string', description: 'Shell command to run (run).' },
      pattern: { type: 'string', description: 'Regular expression (search).' },
    },
    additionalProperties: false,
  },
}));
