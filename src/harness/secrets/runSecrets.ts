// The secret guard of the run working in a folder, for the end of the run: progress/finish.ts is
// called by run.ts's endRun, which holds no reference to the loop's collaborators, yet its notes
// and commit scan must know the values the run read from secret files. Process memory only; the
// values never reach a file. (The same idea as runGit's addGitSecretNames.)
import { resolve } from 'node:path';
import type { SecretGuard } from './secretGuard';

const guards = new Map<string, SecretGuard>();

export function registerGuard(root: string, guard: SecretGuard): void {
  guards.set(resolve(root), guard);
}

export function guardFor(root: string): SecretGuard | undefined {
  return guards.get(resolve(root));
}
