// jsonc-parser, by its ES module build. The package's "main" is a UMD wrapper whose requires a
// bundler cannot see; a bundle built without mainFields ['module', …] (scripts/gen-schemas.mjs,
// some test kits) would then fail at load with "Cannot find module './impl/format'".
export { applyEdits, findNodeAtLocation, format, modify, parseTree, stripComments, type Edit, type JSONPath } from 'jsonc-parser/lib/esm/main.js';
