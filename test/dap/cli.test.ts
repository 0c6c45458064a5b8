// `kite debug-adapter` speaks DAP on stdio: an initialize request gets the adapter's capabilities.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers';

function frame(msg: object): string {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('kite debug-adapter (CLI)', () => {
  it('answers initialize over stdio and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/harness/cli.ts'), 'debug-adapter'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const response = new Promise<Record<string, unknown>>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Content-Length: (\d+)\r\n\r\n/.exec(out);
        if (m && out.length >= m.index + m[0].length + Number(m[1])) resolve(JSON.parse(out.slice(m.index + m[0].length, m.index + m[0].length + Number(m[1]))) as Record<string, unknown>);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before answering; stdout: ${out}`)));
    });
    try {
      child.stdin.write(frame({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'kite', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true } }));
      const r = await response;
      assert.equal(r.command, 'initialize');
      assert.equal(r.success, true, JSON.stringify(r));
      assert.equal((r.body as { supportsStepBack?: boolean }).supportsStepBack, true);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.stdin.end();
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill();
    }
  });
});
