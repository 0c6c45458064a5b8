// What a person sees of package.json's contributions (issue 18, item 10): every command has its own
// title, welcome texts render (no markdown code spans, which viewsWelcome shows as literal
// backticks), and the Runs view only offers Start Agent where there is a feature to work on.
import assert from 'node:assert/strict';
import { localizedManifest } from '../../helpers/localizedManifest';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    viewsWelcome: { view: string; contents: string; when?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = localizedManifest() as Manifest;

describe('package.json contributions', () => {
  it('no two commands share a title (the palette and menus tell them apart)', () => {
    const seen = new Map<string, string>();
    for (const c of manifest.contributes.commands) {
      const title = `${c.category ?? ''}: ${c.title}`;
      assert.ok(!seen.has(title), `${c.command} and ${seen.get(title)} are both "${title}"`);
      seen.set(title, c.command);
    }
  });

  it('welcome texts have no backticks (viewsWelcome shows them literally)', () => {
    for (const w of manifest.contributes.viewsWelcome) assert.ok(!w.contents.includes('`'), `${w.view}: ${w.contents}`);
  });

  it('the Runs view offers Start Agent only when the workspace has a progress file, else Initialize', () => {
    const runs = manifest.contributes.viewsWelcome.filter((w) => w.view === 'kite.runs');
    for (const w of runs.filter((x) => x.contents.includes('command:kite.startAgent'))) assert.match(w.when ?? '', /(^|&& )kite\.hasProgressFile\b/);
    assert.ok(runs.some((w) => /!kite\.hasProgressFile/.test(w.when ?? '') && w.contents.includes('command:kite.init')));
  });

  it('a feature whose run did not end done offers Retry, Resume and Reset to Todo in the Features view', () => {
    const items = manifest.contributes.menus['view/item/context'].filter((m) => (m.when ?? '').includes('view == kite.features'));
    const forNotDone = (cmd: string) => items.some((m) => m.command === cmd && new RegExp(/viewItem (==|=~) \/?\^?(.+?)\$?\/?$/.exec(m.when ?? '')?.[2] ?? '^$').test('kite.feature.notDone'));
    for (const cmd of ['kite.retryFeature', 'kite.resumeRun', 'kite.resetFeature', 'kite.openLastRun']) assert.ok(forNotDone(cmd), cmd);
  });
});
