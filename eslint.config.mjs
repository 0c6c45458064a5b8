// Lint = type-aware TypeScript rules + the layer rule of ARCHITECTURE.md §1, enforced with
// import zones: only src/extension and test/integration may import 'vscode'; webview-ui may import
// only src/harness/protocol; protocol itself imports no node builtins.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

// Matched as whole module names (a regex), so a relative './events' is not mistaken for node's 'events'.
const nodeBuiltins = ['node:*', 'fs', 'path', 'child_process', 'os', 'crypto', 'net', 'http', 'stream', 'readline', 'util', 'events'];

export default tseslint.config(
  { ignores: ['test/scratch/**', 'dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test/fixtures/**', 'media/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    // Without a resolver that knows .ts, import-x cannot resolve '../host' and the zones below
    // silently never match (test/unit/layerRule.test.ts proves they do).
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'] })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A switch over a union (event kinds, message types, outcomes) names every member: a new
      // event kind is then a compile-time list of the places that must decide what it means.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false, allowDefaultCaseForExhaustiveSwitch: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: ['./src/harness/protocol'], from: ['./src/harness', './src/extension'], except: ['./protocol'], message: 'protocol/ is pure: it imports nothing else from src/.' },
            { target: ['./src/harness'], from: ['./src/extension'], message: 'The harness never imports the extension.' },
            { target: ['./webview-ui'], from: ['./src'], except: ['./harness/protocol'], message: 'webview-ui may import only src/harness/protocol.' },
          ],
        },
      ],
    },
  },
  {
    // The layer rule for `vscode` itself (a module, not a path, so no-restricted-imports).
    files: ['**/*.ts'],
    ignores: ['src/extension/**', 'test/integration/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: "Only src/extension and test/integration may import 'vscode' (ARCHITECTURE.md §1)." }] }],
    },
  },
  {
    files: ['src/harness/protocol/**/*.ts', 'webview-ui/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: "No 'vscode' here (ARCHITECTURE.md §1)." }], patterns: [{ regex: `^(${nodeBuiltins.join('|').replace('node:*', 'node:.*')})(/.*)?$`, message: 'protocol/ and webview-ui are browser-safe: no node builtins.' }] },
      ],
    },
  },
);
