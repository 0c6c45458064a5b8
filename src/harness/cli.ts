// The `kite` command line. (Filled in by the harness-core work.)
console.error('kite: not built yet');
process.exit(2);
