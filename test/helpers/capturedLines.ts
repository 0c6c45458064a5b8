// What a CLI command printed, line by line (stdout and stderr kept apart), for tests of its output.
import type { Out } from '../../src/harness/cli/output';

export class CapturedLines implements Out {
  stdout: string[] = [];
  stderr: string[] = [];
  out(t: string) {
    this.stdout.push(t);
  }
  err(t: string) {
    this.stderr.push(t);
  }
}
