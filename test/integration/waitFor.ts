// Event-driven waiting for integration tests: re-check a condition whenever one of the given VS Code
// events fires (never on a sleep), fail with a clear message after `timeoutMs`.
import type * as vscode from 'vscode';

export function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  events: vscode.Event<unknown>[],
  timeoutMs = 15_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const subs: vscode.Disposable[] = [];
    const done = (f: () => void): void => {
      clearTimeout(timer);
      for (const s of subs) s.dispose();
      f();
    };
    const attempt = (): void => {
      let v: T | undefined | false;
      try {
        v = check();
      } catch (e) {
        done(() => reject(e instanceof Error ? e : new Error(String(e))));
        return;
      }
      if (v !== undefined && v !== false) done(() => resolve(v));
    };
    const timer = setTimeout(() => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))), timeoutMs);
    for (const e of events) subs.push(e(attempt));
    attempt();
  });
}
