// Mocha reporter for scripts/test.mjs: prints like 'spec' and writes the counts to the file
// named by KITE_TEST_COUNTS (with the failed tests' titles) so the test command can sum every suite into one closing line.
const fs = require('node:fs');
const Mocha = require('mocha');

class KiteReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on('fail', (test, err) => failures.push(failureLine(test.fullTitle(), err)));
    runner.once('end', () => {
      const s = runner.stats || {};
      const out = process.env.KITE_TEST_COUNTS;
      if (out) fs.writeFileSync(out, JSON.stringify({ passed: s.passes || 0, failed: s.failures || 0, skipped: s.pending || 0, failures }));
    });
  }
}
// One line per failure, so the closing summary names what failed even when only its tail is seen.
function failureLine(title, err) {
  const first = String((err && err.message) || err || '').split('\n')[0].slice(0, 200);
  return first ? `${title}: ${first}` : title;
}
module.exports = KiteReporter;
