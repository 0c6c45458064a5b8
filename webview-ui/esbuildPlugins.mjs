// esbuild plugins for the webview bundle (used by esbuild.mjs and the browser tests' build).
// zod's root export keeps every message locale in the bundle (~300 KB, `z.locales`); the webview
// only needs English, so the locale index is replaced by one that re-exports `en`.
/** @type {import('esbuild').Plugin} */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
    }));
  },
};
