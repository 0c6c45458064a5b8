// Which logs a report reads: `kite cost [DIR|LOG…]`. A folder means its .kite/runs when it is a
// project, else the *.jsonl files directly in it; no argument means the current project.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LogReadError } from './reader';

export function findLogs(args: readonly string[], cwd = process.cwd()): string[] {
  const targets = args.length ? args : ['.'];
  const out: string[] = [];
  for (const a of targets) {
    const p = resolve(cwd, a);
    if (!existsSync(p)) throw new LogReadError('not_found', `no such log or folder: ${p}`, p);
    if (statSync(p).isDirectory()) {
      const runs = join(p, '.kite', 'runs');
      const dir = existsSync(runs) && statSync(runs).isDirectory() ? runs : p;
      out.push(
        ...readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .sort()
          .map((f) => join(dir, f)),
      );
    } else out.push(p);
  }
  return [...new Set(out)];
}
