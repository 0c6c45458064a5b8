import assert from 'node:assert/strict';
import type { SandboxInfo } from '../../../src/harness/protocol/sandboxInfo';
import { statusSandbox, unsandboxedPrompt, whereCommandRuns } from '../../../src/extension/sandbox/sandboxText';

const bwrap: SandboxInfo = { kind: 'bwrap', network: 'none', limits: null, note: null };
const off: SandboxInfo = { kind: 'none', network: 'none', limits: null, note: 'sandbox: off in the user settings (kite.sandbox)' };
const windows = { reason: 'Windows has no OS sandbox Kite can use', fix: 'run Kite inside a dev container (VS Code: "Dev Containers: Reopen in Container"), WSL 2 with bubblewrap installed, or a Linux VM' };

describe('extension/sandboxText', () => {
  it('the command prompt says where the command runs, and never claims a sandbox it was not told about', () => {
    assert.equal(whereCommandRuns(bwrap), 'Runs in the sandbox (bwrap): no network');
    assert.equal(whereCommandRuns({ ...bwrap, kind: 'seatbelt', network: 'host' }), 'Runs in the sandbox (seatbelt): host network');
    assert.equal(whereCommandRuns(off), 'Runs WITHOUT a sandbox (sandbox: off in the user settings (kite.sandbox))');
    assert.equal(whereCommandRuns({ ...off, note: null }), 'Runs WITHOUT a sandbox');
    assert.match(whereCommandRuns(undefined), /not reported/);
  });

  it('the status bar marks an unsandboxed run and gives the reason; a sandboxed one says so in the tooltip', () => {
    assert.deepEqual(statusSandbox(bwrap), { mark: '', tooltip: 'commands: in the sandbox (bwrap): no network' });
    const s = statusSandbox(off);
    assert.equal(s.mark, ' · $(warning) unsandboxed');
    assert.equal(s.tooltip, 'commands: NOT sandboxed (sandbox: off in the user settings (kite.sandbox))');
    assert.deepEqual(statusSandbox(null), { mark: '', tooltip: null });
  });

  it('the no-sandbox modal names the reason and the fix; on Windows it offers Reopen in Container when Dev Containers is installed', () => {
    const p = unsandboxedPrompt(windows, { platform: 'win32', devContainers: true });
    assert.equal(p.message, "Kite cannot sandbox commands on this machine: Windows has no OS sandbox Kite can use. Run this run's commands WITHOUT a sandbox?");
    assert.match(p.detail, /^To get a sandbox: run Kite inside a dev container/);
    assert.equal(p.reopenInContainer, true);
    assert.doesNotMatch(p.detail, /install the Dev Containers extension/);
  });

  it('without Dev Containers the detail recommends installing it instead of offering the button', () => {
    const p = unsandboxedPrompt(windows, { platform: 'win32', devContainers: false });
    assert.equal(p.reopenInContainer, false);
    assert.match(p.detail, /install the Dev Containers extension \(ms-vscode-remote\.remote-containers\)/);
  });

  it('on Linux a reason that has nothing to do with containers offers no container', () => {
    const p = unsandboxedPrompt({ reason: 'bwrap is not installed.', fix: 'install bubblewrap (apt install bubblewrap)' }, { platform: 'linux', devContainers: true });
    assert.equal(p.reopenInContainer, false);
    assert.equal(p.message, "Kite cannot sandbox commands on this machine: bwrap is not installed. Run this run's commands WITHOUT a sandbox?");
    assert.match(p.detail, /install bubblewrap/);
    assert.match(p.detail, /Cancel refuses every command of this run/);
  });
});
