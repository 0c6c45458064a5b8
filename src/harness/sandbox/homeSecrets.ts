// Where a person keeps credentials in their home. Neither sandbox shows them to a command: the
// Seatbelt profile denies them by name; bubblewrap hides the whole home, and a read-only mount
// (a toolchain on PATH, sandbox.mounts.read_only from a workspace's config) that would bring one
// back — or the home itself, or every home — is refused.
import { isAbsolute, join, relative } from 'node:path';

export const HOME_SECRETS = ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.azure', '.netrc', '.npmrc', '.yarnrc', '.pypirc', '.git-credentials', '.config/gh', '.config/hub', '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.vault-token', '.pgpass', '.password-store', '.local/share/keyrings', 'Library/Keychains', 'Library/Cookies', '.bash_history', '.zsh_history', '.zsh_sessions', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history'];

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** Why mounting `dir` read-only would show a command the person's secrets, or null when it would not. */
export function exposesSecrets(dir: string, home: string | null): string | null {
  for (const top of [home, '/home', '/root']) if (top && inside(dir, top)) return `it holds ${top}`;
  if (home === null) return null;
  for (const s of HOME_SECRETS) {
    const secret = join(home, s);
    if (inside(secret, dir) || inside(dir, secret)) return `it reaches ~/${s}`;
  }
  return null;
}
