// `log_dir` must name a folder inside the workspace and outside .git: every way out (an absolute
// path elsewhere, "..", a symlink) is a config error naming $.log_dir and the file.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '../../../src/harness/config/config';
import { tempDir } from '../loop/kit';

/** A workspace whose .kite/config.json sets log_dir (given, or made from the root). */
function workspace(logDir: string | ((root: string) => string)): { root: string; file: string } {
  const root = tempDir('kite-logdir-');
  mkdirSync(join(root, '.kite'));
  const file = join(root, '.kite', 'config.json');
  writeFileSync(file, JSON.stringify({ log_dir: typeof logDir === 'string' ? logDir : logDir(root) }));
  return { root, file };
}

function loadFails(root: string): ConfigError {
  try {
    loadConfig(root);
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e;
  }
  assert.fail('expected a ConfigError');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('config: log_dir', () => {
  it('a folder inside the workspace is accepted, relative or absolute', () => {
    const w = workspace('logs/agent');
    assert.equal(loadConfig(w.root).log_dir, 'logs/agent');
    const abs = workspace((root) => join(root, 'logs', 'abs'));
    assert.equal(loadConfig(abs.root).log_dir, join(abs.root, 'logs', 'abs'));
  });

  it('an absolute path outside the workspace is an error naming $.log_dir and the file', () => {
    const elsewhere = tempDir('kite-elsewhere-');
    const w = workspace(elsewhere);
    const e = loadFails(w.root);
    assert.equal(e.code, 'invalid_config');
    assert.match(e.message, new RegExp(`^${escape(w.file)}:\\d+:\\d+: \\$\\.log_dir: ${escape(JSON.stringify(elsewhere))} is outside the workspace; the log folder must be a folder inside the workspace`));
  });

  it('".." that leaves the workspace is an error, also without a root (parseConfig, as "Always allow" re-validates)', () => {
    const w = workspace('../logs');
    assert.match(loadFails(w.root).message, new RegExp(`^${escape(w.file)}:\\d+:\\d+: \\$\\.log_dir: "\\.\\./logs" is outside the workspace`));
    assert.throws(() => parseConfig('{"log_dir": "logs/../../x"}', '.kite/config.json'), (e: unknown) => e instanceof ConfigError && e.code === 'invalid_config' && /^\.kite\/config\.json:1:13: \$\.log_dir: "logs\/\.\.\/\.\.\/x" is outside the workspace/.test(e.message));
    // ".." that stays inside is fine
    assert.equal(parseConfig('{"log_dir": "logs/../runs"}').log_dir, 'logs/../runs');
  });

  it('a folder inside .git is an error, at any depth and in any case', () => {
    for (const bad of ['.git/kite', 'vendor/lib/.git/logs', '.GIT/x']) {
      const w = workspace(bad);
      assert.match(loadFails(w.root).message, new RegExp(`^${escape(w.file)}:\\d+:\\d+: \\$\\.log_dir: ${escape(JSON.stringify(bad))} is inside \\.git, where git keeps its own data`), bad);
    }
  });

  it('the workspace itself is not a log folder', () => {
    for (const bad of ['.', './', 'logs/..']) {
      const w = workspace(bad);
      assert.match(loadFails(w.root).message, /\$\.log_dir: ".*" is the workspace itself/, bad);
    }
  });

  it('a symlink inside the workspace that leads outside it (or into .git) is an error', () => {
    const w = workspace('out/agent');
    const elsewhere = tempDir('kite-elsewhere-');
    symlinkSync(elsewhere, join(w.root, 'out'));
    const e = loadFails(w.root);
    assert.match(e.message, new RegExp(`^${escape(w.file)}:\\d+:\\d+: \\$\\.log_dir: "out/agent" leads through a symlink to ${escape(join(elsewhere, 'agent'))}, outside the workspace`));

    const g = workspace('gitlink/logs');
    mkdirSync(join(g.root, '.git'));
    symlinkSync(join(g.root, '.git'), join(g.root, 'gitlink'));
    assert.match(loadFails(g.root).message, /\$\.log_dir: "gitlink\/logs" leads through a symlink to .*\.git[/\\]logs, inside \.git/);
  });

  it('a symlink that stays inside the workspace is fine', () => {
    const w = workspace('link/agent');
    mkdirSync(join(w.root, 'real'));
    symlinkSync(join(w.root, 'real'), join(w.root, 'link'));
    assert.equal(loadConfig(w.root).log_dir, 'link/agent');
  });
});
