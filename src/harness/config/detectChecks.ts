// The project's test command, guessed from its files, for `kite init` and "Kite: Initialize" to
// propose as the gate's check (a run with no check can never end done).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DetectedCheck {
  command: string;
  /** Where it was found, for the person: "package.json scripts.test". */
  from: string;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The first test command the project defines, or null. */
export function detectTestCommand(root: string): DetectedCheck | null {
  const pkg = read(join(root, 'package.json'));
  if (pkg !== null) {
    try {
      const test = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts?.test;
      if (typeof test === 'string' && test.trim() && !/no test specified/.test(test)) return { command: 'npm test', from: 'package.json scripts.test' };
    } catch {
      // not JSON: look further
    }
  }
  const pyproject = read(join(root, 'pyproject.toml'));
  if (existsSync(join(root, 'pytest.ini')) || existsSync(join(root, 'conftest.py')) || (pyproject !== null && /pytest/.test(pyproject)) || /\[tool:pytest\]/.test(read(join(root, 'setup.cfg')) ?? '')) {
    return { command: 'python -m pytest -q', from: 'the pytest configuration' };
  }
  if (existsSync(join(root, 'Cargo.toml'))) return { command: 'cargo test', from: 'Cargo.toml' };
  if (existsSync(join(root, 'go.mod'))) return { command: 'go test ./...', from: 'go.mod' };
  for (const name of ['Makefile', 'makefile', 'GNUmakefile']) {
    if (/^test\s*:/m.test(read(join(root, name)) ?? '')) return { command: 'make test', from: `the test target of ${name}` };
  }
  return null;
}
