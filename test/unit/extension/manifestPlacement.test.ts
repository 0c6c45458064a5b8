// Where VS Code runs Kite: beside the files (the workspace side of Remote-SSH, WSL and dev
// containers), never in a virtual workspace — Kite needs a real file system, git and processes.
// VS Code reads these from the manifest; a wrong value runs Kite on the UI side of a remote
// window, where it would see none of the project's files.
import assert from 'node:assert/strict';
import { localizedManifest } from '../../helpers/localizedManifest';

// As VS Code shows it: the reason is a %key% with its English text in package.nls.json.
const manifest = localizedManifest() as {
  extensionKind?: string[];
  capabilities?: { virtualWorkspaces?: { supported: unknown; description?: string }; untrustedWorkspaces?: { supported: unknown } };
};

describe('extension manifest: where Kite runs', () => {
  it('runs on the workspace side of a remote window (extensionKind workspace only)', () => {
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  it('declines virtual workspaces and says why', () => {
    assert.equal(manifest.capabilities?.virtualWorkspaces?.supported, false);
    assert.match(manifest.capabilities?.virtualWorkspaces?.description ?? '', /file system/);
  });

  it('keeps limited support in untrusted workspaces (features and past runs, no agent)', () => {
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
  });
});
