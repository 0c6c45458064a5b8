// The layer rule of ARCHITECTURE.md §1 is enforced by the project's real eslint.config.mjs: lint
// synthetic files at paths inside each layer and assert what is (not) reported. Type-aware parsing is
// switched off for these in-memory files (the project service only knows files on disk); the two
// layer rules do not need types.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..');
const LAYER_RULES = new Set(['no-restricted-imports', 'import-x/no-restricted-paths']);

let eslint: ESLint;

async function layerErrors(relPath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, relPath) });
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal.map((m) => m.message), [], `${relPath} did not parse`);
  return result.messages.filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const importVscode = "import * as vscode from 'vscode';\nexport const v: string = vscode.version;\n";

describe('layer rule (eslint.config.mjs)', function () {
  this.timeout(60_000);

  before(() => {
    eslint = new ESLint({
      cwd: root,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false, project: null } },
      },
      ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId),
    });
  });

  for (const where of ['src/harness/__probe__.ts', 'src/harness/tools/__probe__.ts', 'src/harness/protocol/__probe__.ts', 'webview-ui/__probe__.ts', 'test/unit/__probe__.ts', 'scripts/__probe__.ts']) {
    it(`rejects import 'vscode' in ${where}`, async () => {
      const errors = await layerErrors(where, importVscode);
      assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
      assert.match(errors[0], /no-restricted-imports: .*vscode/);
    });
  }

  for (const where of ['src/extension/__probe__.ts', 'src/extension/timeline/__probe__.ts', 'test/integration/__probe__.ts']) {
    it(`allows import 'vscode' in ${where}`, async () => {
      assert.deepEqual(await layerErrors(where, importVscode), []);
    });
  }

  it('rejects webview-ui importing src/harness/tools', async () => {
    const errors = await layerErrors('webview-ui/__probe__.ts', "import type { Toolbox } from '../src/harness/tools/types';\nexport type T = Toolbox;\n");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /import-x\/no-restricted-paths: .*webview-ui may import only src\/harness\/protocol/);
  });

  it('allows webview-ui importing src/harness/protocol', async () => {
    assert.deepEqual(await layerErrors('webview-ui/__probe__.ts', "import type { KiteEvent } from '../src/harness/protocol/events';\nexport type T = KiteEvent;\n"), []);
  });

  it('rejects the harness importing the extension', async () => {
    const errors = await layerErrors('src/harness/tools/__probe__.ts', "import { activate } from '../../extension/extension';\nexport const a = activate;\n");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /The harness never imports the extension/);
  });

  it('rejects protocol/ importing the rest of the harness, and node builtins', async () => {
    const errors = await layerErrors('src/harness/protocol/__probe__.ts', "import type { Host } from '../host';\nimport { readFileSync } from 'node:fs';\nexport type H = Host;\nexport const r = readFileSync;\n");
    assert.equal(errors.length, 2, JSON.stringify(errors));
    assert.ok(errors.some((e) => /protocol\/ is pure/.test(e)), JSON.stringify(errors));
    assert.ok(errors.some((e) => /browser-safe: no node builtins/.test(e)), JSON.stringify(errors));
  });
});
