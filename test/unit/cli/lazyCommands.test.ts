// The command table loads a command's module only when that command runs (start-up, issue 17):
// checked in a fresh Node process, from the modules it actually loaded.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { COMMANDS } from '../../../src/harness/cli/commands';

const ROOT = join(__dirname, '..', '..', '..');

/** Runs `cliMain(argv)` in a fresh process and returns the source files it loaded, relative to src/harness. */
function loadedBy(argv: string[]): string[] {
  const script = `
    const { cliMain } = require(${JSON.stringify(join(ROOT, 'src/harness/cli/main.ts'))});
    const quiet = { out() {}, err() {} }; // a command's own help still goes to stdout
    cliMain(${JSON.stringify(argv)}, quiet).then((code) => {
      process.stdout.write('\\nKITE_LOADED ' + JSON.stringify({ code, files: Object.keys(require.cache) }));
    });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { files } = JSON.parse(r.stdout.slice(r.stdout.lastIndexOf('KITE_LOADED ') + 'KITE_LOADED '.length)) as { code: number; files: string[] };
  const harness = join(ROOT, 'src', 'harness') + '/';
  return files.flatMap((f) => (f.startsWith(harness) ? [f.slice(harness.length)] : f.includes('/node_modules/zod/') ? ['zod'] : []));
}

describe('kite command table', function () {
  this.timeout(60_000);

  it('kite --version loads no command module, nor zod, nor the run loop', () => {
    const loaded = loadedBy(['--version']);
    assert.ok(loaded.includes('cli/main.ts'), loaded.join(', '));
    assert.deepEqual(
      loaded.filter((f) => /Command\.ts$/.test(f) || f === 'run.ts' || f === 'zod' || f === 'cli/reportFailure.ts'),
      [],
    );
  });

  it('a command loads its own module and not the others', () => {
    const loaded = loadedBy(['timeline', '--help']);
    assert.ok(loaded.includes('cli/timelineCommand.ts'), loaded.join(', '));
    assert.deepEqual(
      loaded.filter((f) => /Command\.ts$/.test(f) && f !== 'cli/timelineCommand.ts'),
      [],
    );
  });

  it('every entry of the table loads a function', async () => {
    for (const c of COMMANDS) assert.equal(typeof (await c.load()), 'function', c.name);
  });
});
