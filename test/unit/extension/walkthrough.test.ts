// Onboarding as package.json declares it (issue 18 item 15): the walkthrough's five steps each
// complete on an event, show a media file that ships, and only run commands Kite contributes; and
// every empty state of the Kite views (no folder, no progress file, no runs, no key, no eval case)
// has welcome content pointing at the next step.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KITE_COMMANDS } from '../../../src/extension/commandIds';
import { localizedManifest } from '../../helpers/localizedManifest';

const repo = join(__dirname, '..', '..', '..');
interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents?: string[];
}
const manifest = localizedManifest() as {
  contributes: {
    commands: { command: string }[];
    walkthroughs: { id: string; steps: Step[] }[];
    viewsWelcome: { view: string; contents: string; when?: string }[];
  };
};
const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
const commandsIn = (text: string) => [...text.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
const steps = manifest.contributes.walkthroughs.find((w) => w.id === 'gettingStarted')?.steps ?? [];

describe('onboarding: the walkthrough and the welcome content', () => {
  it('walks through key or model → initialize → first run → timeline → replay, in that order', () => {
    assert.deepEqual(
      steps.map((s) => s.id),
      ['model', 'init', 'firstRun', 'timeline', 'replay'],
    );
  });

  it('every step completes on an event, and the events name real commands, settings or Kite context keys', () => {
    for (const s of steps) {
      assert.ok(s.completionEvents?.length, `${s.id} has no completion event: it would complete on a mere click`);
      for (const e of s.completionEvents!) {
        const [kind, what] = e.split(/:(.*)/s);
        if (kind === 'onCommand') assert.ok(contributed.has(what), `${s.id}: ${what} is not a Kite command`);
        else if (kind === 'onSettingChanged') assert.match(what, /^kite\./);
        else if (kind === 'onContext') assert.match(what, /^kite\.\w+$/);
        else if (kind === 'onView') assert.match(what, /^kite\./);
        else assert.fail(`${s.id}: unexpected completion event ${e}`);
      }
    }
  });

  it("every step's button runs a command that exists, and its media file ships", () => {
    for (const s of steps) {
      const cmds = commandsIn(s.description);
      assert.ok(cmds.length, `${s.id} has no button`);
      for (const c of cmds) assert.ok(contributed.has(c) || c.startsWith('workbench.'), `${s.id}: ${c} is not contributed`);
      const media = s.media.markdown ?? s.media.image;
      assert.ok(media && existsSync(join(repo, media)), `${s.id}: ${media} does not exist`);
      assert.ok(!s.description.includes('`'), `${s.id}: the walkthrough shows backticks literally`);
    }
  });

  it('"Kite: Get Started with Kite" is a Kite command that opens it (the Features view offers it too)', () => {
    assert.ok((KITE_COMMANDS as readonly string[]).includes('kite.openWalkthrough'));
    assert.ok(manifest.contributes.viewsWelcome.some((w) => w.view === 'kite.features' && w.contents.includes('command:kite.openWalkthrough')));
  });

  it('each empty state has welcome content with a next step: no folder, no progress file, no runs, no key, no eval case', () => {
    const w = manifest.contributes.viewsWelcome;
    const find = (view: string, when: RegExp, command: string) => w.find((x) => x.view === view && when.test(x.when ?? '') && x.contents.includes(`command:${command}`));
    assert.ok(find('kite.features', /workbenchState == empty/, 'workbench.action.files.openFolder'), 'no folder');
    assert.ok(find('kite.features', /!kite\.hasProgressFile/, 'kite.init'), 'no progress file');
    assert.ok(find('kite.runs', /kite\.hasProgressFile && !kite\.needsApiKey/, 'kite.startAgent'), 'no runs (a key or keyless model is there)');
    assert.ok(find('kite.runs', /kite\.hasProgressFile && kite\.needsApiKey/, 'kite.setApiKey'), 'no key');
    assert.ok(find('kite.evals', /workbenchState != empty/, 'kite.runs.focus'), 'no eval case');
    // Start Agent is never offered where the model still needs a key.
    for (const x of w.filter((y) => y.contents.includes('command:kite.startAgent'))) assert.match(x.when ?? '', /!kite\.needsApiKey/);
  });
});
