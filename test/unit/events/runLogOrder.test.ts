import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLogs } from '../../../src/harness/events/logFiles';
import { compareRunLogNames } from '../../../src/harness/events/runLogOrder';
import { uniqueRunId } from '../../../src/harness/events/writer';
import { tempDir } from '../loop/kit';

describe('run log order', () => {
  it('a run that clashed with an earlier one in the same second (-2, -3, … -10) comes after it', () => {
    const dir = tempDir();
    const made: string[] = [];
    for (let i = 0; i < 11; i++) {
      const id = uniqueRunId(dir, '20261203-070501-F1');
      writeFileSync(join(dir, `${id}.jsonl`), '');
      made.push(`${id}.jsonl`);
    }
    // Plain string order would put F1.jsonl last ('-' < '.') and -10 before -2.
    assert.deepEqual([...made].reverse().sort(compareRunLogNames), made);
    assert.deepEqual(findLogs([dir]).map((p) => p.slice(dir.length + 1)), made);
  });

  it('orders by the timestamp first, whatever the feature', () => {
    const names = ['20261203-070502-A.jsonl', '20261203-070501-Z-2.jsonl', '20261202-235959-F1.jsonl', '20261203-070501-Z.jsonl'];
    assert.deepEqual(names.sort(compareRunLogNames), ['20261202-235959-F1.jsonl', '20261203-070501-Z.jsonl', '20261203-070501-Z-2.jsonl', '20261203-070502-A.jsonl']);
    // Newest first, as the Runs view lists them.
    assert.deepEqual([...names].sort((a, b) => compareRunLogNames(b, a))[0], '20261203-070502-A.jsonl');
  });
});
