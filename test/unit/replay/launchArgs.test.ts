// launch.json attributes in package.json are generated from LaunchArgsSchema; this keeps them
// from drifting, and checks how bad launch configurations are reported.
import assert from 'node:assert/strict';
import { localizedManifest } from '../../helpers/localizedManifest';
import { launchAttributes, parseLaunchArgs } from '../../../src/harness/replay/launchArgs';

describe('replay launch configuration', () => {
  const pkg = localizedManifest() as {
    contributes: { debuggers?: { type: string; languages?: string[]; configurationAttributes: { launch: unknown } }[]; breakpoints?: { language: string }[]; languages?: { id: string }[] };
  };
  const dbg = pkg.contributes.debuggers?.find((d) => d.type === 'kite');

  it('package.json debuggers[kite].configurationAttributes.launch equals the zod schema', () => {
    assert.ok(dbg, 'a `kite` debugger is contributed');
    assert.deepEqual(dbg.configurationAttributes.launch, launchAttributes());
  });

  it('the transcript language is contributed with breakpoint support', () => {
    assert.ok(pkg.contributes.languages?.some((l) => l.id === 'kite-transcript'));
    assert.ok(pkg.contributes.breakpoints?.some((b) => b.language === 'kite-transcript'));
    assert.deepEqual(dbg?.languages, ['kite-transcript']);
  });

  it('defaults and errors that name the attribute', () => {
    assert.deepEqual(parseLaunchArgs({ log: '/x.jsonl' }), { ok: true, args: { log: '/x.jsonl', stopOnEntry: true, mode: 'recorded' } });
    const bad = parseLaunchArgs({ log: '/x.jsonl', mode: 'fast', stopOnEntry: 'yes' });
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.message, /launch attribute "stopOnEntry".*launch attribute "mode"|launch attribute "mode".*launch attribute "stopOnEntry"/);
  });
});
