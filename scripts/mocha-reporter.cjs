// Mocha reporter for scripts/test.mjs: prints like 'spec' and writes the counts to the file
// named by KITE_TEST_COUNTS so the test command can sum every suite into one closing line.
const fs = require('node:fs');
const Mocha = require('mocha');

class KiteReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const s = runner.stats || {};
      const out = process.env.KITE_TEST_COUNTS;
      if (out) fs.writeFileSync(out, JSON.stringify({ passed: s.passes || 0, failed: s.failures || 0, skipped: s.pending || 0 }));
    });
  }
}
module.exports = KiteReporter;
