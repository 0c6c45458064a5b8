// Kite's texts are localizable (issue 18 item 18): every contributed text in package.json is a
// %key% with its English text in package.nls.json, and every l10n.t message in src/ is in the
// English bundle l10n/bundle.l10n.json. scripts/l10n.mjs checks both (and --write fixes them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');
const check = (...args: string[]) => spawnSync(process.execPath, [join(repo, 'scripts', 'l10n.mjs'), ...args], { encoding: 'utf8', cwd: repo });

describe('localizable strings', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-l10n-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'l10n'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const tree = (pkg: unknown, nls: Record<string, string>, source: string, bundle: Record<string, string>) => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    writeFileSync(join(dir, 'package.nls.json'), JSON.stringify(nls));
    writeFileSync(join(dir, 'src', 'x.ts'), source);
    writeFileSync(join(dir, 'l10n', 'bundle.l10n.json'), JSON.stringify(bundle));
  };
  const command = (title: string) => ({ contributes: { commands: [{ command: 'kite.go', title, category: '%command.category%' }] } });

  it('the repository is complete: every %key% has an English text and every l10n.t message is in the bundle', () => {
    const r = check();
    assert.equal(r.status, 0, r.stderr);
  });

  it('a message missing from the bundle is reported with its file and line', () => {
    tree(command('%command.go.title%'), { 'command.go.title': 'Go', 'command.category': 'Kite' }, "import * as vscode from 'vscode';\n\nvscode.l10n.t('Kite: gone {0}', x);\n", {});
    const r = check('--root', dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /src\/x\.ts:3: "Kite: gone \{0\}" is not in l10n\/bundle\.l10n\.json/);
  });

  it('a message that is not a literal cannot be extracted and is reported', () => {
    tree({}, {}, 'l10n.t(`Kite: ${what}`);\n', {});
    const r = check('--root', dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /src\/x\.ts:1: l10n\.t needs a string literal/);
  });

  it('a contributed title left as literal text, or a %key% without text, fails the check', () => {
    tree(command('Go Now'), { 'command.category': 'Kite' }, '', {});
    assert.match(check('--root', dir).stderr, /package\.json: command\.go\.title is literal text/);
    tree(command('%command.go.title%'), { 'command.category': 'Kite' }, '', {});
    assert.match(check('--root', dir).stderr, /package\.json uses %command\.go\.title% but package\.nls\.json has no "command\.go\.title"/);
  });

  it('--write moves a literal title into package.nls.json and regenerates the bundle', () => {
    tree(command('Go Now'), { 'command.category': 'Kite' }, "vscode.l10n.t('Kite: went');\n", {});
    assert.equal(check('--root', dir, '--write').status, 0);
    const r = check('--root', dir);
    assert.equal(r.status, 0, r.stderr);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { contributes: { commands: { title: string }[] } };
    assert.equal(pkg.contributes.commands[0]!.title, '%command.go.title%');
  });
});
