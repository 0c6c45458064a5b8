// The harness server's messages follow the window's language: the extension names the bundle VS
// Code loaded (initialization option l10nBundle) and the server's l10n.t reads it; without one
// (English, and always in the CLI) the text is the source's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { configureL10n } from '../../../src/harness/server/l10nConfig';

describe('harness server l10n', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kite-l10n-server-'))));
  afterEach(() => {
    l10n.config({ contents: {} });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a server message reads its translation from the bundle the window names', () => {
    const bundle = join(dir, 'bundle.l10n.de.json');
    writeFileSync(bundle, JSON.stringify({ 'the run was stopped': 'der Lauf wurde angehalten', 'the VS Code window could not answer ({0})': 'das VS-Code-Fenster konnte nicht antworten ({0})' }));
    const warnings: string[] = [];
    configureL10n({ l10nBundle: bundle }, (m) => warnings.push(m));
    assert.deepEqual(warnings, []);
    assert.equal(l10n.t('the run was stopped'), 'der Lauf wurde angehalten');
    assert.equal(l10n.t('the VS Code window could not answer ({0})', 'EPIPE'), 'das VS-Code-Fenster konnte nicht antworten (EPIPE)');
  });

  it('no bundle (English): the text is the source text, arguments filled in', () => {
    configureL10n({}, () => assert.fail('no warning expected'));
    configureL10n(undefined, () => assert.fail('no warning expected'));
    assert.equal(l10n.t('the VS Code window could not answer ({0})', 'EPIPE'), 'the VS Code window could not answer (EPIPE)');
  });

  it('a bundle that cannot be read leaves English and says which file', () => {
    const warnings: string[] = [];
    configureL10n({ l10nBundle: join(dir, 'missing.json') }, (m) => warnings.push(m));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /could not load the l10n bundle .*missing\.json.*messages stay in English/);
    assert.equal(l10n.t('the run was stopped'), 'the run was stopped');
  });
});
