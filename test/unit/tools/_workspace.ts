// A temporary workspace for tool tests: a real directory with a log folder, a real runner.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRunner } from '../../../src/harness/sandbox/runner';
import { hostSandbox } from '../../helpers/sandbox';
import { createToolbox } from '../../../src/harness/tools';
import type { ToolContext, ToolOutcome } from '../../../src/harness/tools/types';

export interface Workspace {
  root: string;
  ctx: ToolContext;
  outside: string; // a directory next to the workspace, outside it
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
  call(name: string, args: unknown): Promise<ToolOutcome>;
  cleanup(): void;
}

export function makeWorkspace(): Workspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kite-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  const logDir = path.join(root, '.kite', 'runs');
  const ctx: ToolContext = { root, logDir, runner: createRunner({ sandbox: hostSandbox() }), commandTimeoutS: 10 };
  const toolbox = createToolbox();
  return {
    root,
    ctx,
    outside,
    write(rel, content) {
      const abs = path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
      return abs;
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    async call(name, args) {
      const v = toolbox.validate(name, args);
      return v.ok ? toolbox.run(v.tool, v.args, ctx) : v.outcome;
    },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
