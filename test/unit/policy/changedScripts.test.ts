import assert from 'node:assert/strict';
import { scriptsRun } from '../../../src/harness/policy/changedScripts';

describe('which scripts a command runs (changedScripts)', () => {
  it('package scripts, make and workspace script files, through && ; | and VAR= prefixes', () => {
    assert.deepEqual(scriptsRun('npm run lint -- --fix'), [{ kind: 'script', name: 'lint' }]);
    assert.deepEqual(scriptsRun('npm test'), [{ kind: 'script', name: 'test' }]);
    assert.deepEqual(scriptsRun('CI=1 yarn build && pnpm run check'), [{ kind: 'script', name: 'build' }, { kind: 'script', name: 'check' }]);
    assert.deepEqual(scriptsRun('make -j4 all; ./x.sh | tee out'), [{ kind: 'make' }, { kind: 'file', path: './x.sh' }]);
    assert.deepEqual(scriptsRun('bash "scripts/build.sh"'), [{ kind: 'file', path: 'scripts/build.sh' }]);
    assert.deepEqual(scriptsRun('npm install && git status'), []);
  });
});
