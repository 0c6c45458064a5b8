// Sandboxes for tests: the host (what "sandbox": "off" gives) and the real bubblewrap one.
import type { EventSink } from '../../src/harness/events/sink';
import type { EventBody, KiteEvent } from '../../src/harness/protocol/events';
import { Unsandboxed } from '../../src/harness/sandbox/commandSandbox';
import { RunSandbox, type RunSandboxOptions } from '../../src/harness/sandbox/runSandbox';
import { resolveSandboxSettings, type SandboxConfig } from '../../src/harness/sandbox/settings';

/** Commands straight on the host with the allowlisted environment (tests of the runner itself). */
export function hostSandbox(env: NodeJS.ProcessEnv = process.env, pass: string[] = []): Unsandboxed {
  return new Unsandboxed('tests: no sandbox', env, pass);
}

export class CollectingSink implements EventSink {
  readonly events: EventBody[] = [];
  append(body: EventBody): KiteEvent {
    this.events.push(body);
    return { ...body, v: 1, seq: this.events.length - 1, run: 'test', t: 0 } as KiteEvent;
  }
}

/** The run sandbox Kite would build for `root` (real bwrap on Linux). */
export function runSandbox(root: string, config?: SandboxConfig, over: Partial<RunSandboxOptions> = {}): RunSandbox {
  return new RunSandbox({ root, logDir: `${root}/.kite/runs`, settings: resolveSandboxSettings(config), mode: 'unattended', env: process.env, log: new CollectingSink(), ...over });
}
