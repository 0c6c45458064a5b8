// An allow pattern such as `git (status|diff|log)( .*)?` reads as harmless, but git's own options
// turn it into a file reader or writer: `git diff --no-index ~/.ssh/id_ed25519 x` prints a key,
// `git diff --output=$HOME/.bashrc` overwrites a file, `-c core.pager=…` runs a program. So a git
// command a *pattern* allows is refused (rule "deny:git-unsafe-args") when it carries one of them.
import * as path from 'node:path';

export const GIT_UNSAFE_RULE = 'deny:git-unsafe-args';

/** Options before the subcommand that inject config, switch the repository or the program path. */
const GLOBAL_UNSAFE = /^(?:-c|-C|--config-env|--exec-path|--git-dir|--work-tree|--namespace|--super-prefix)(?:=.*)?$|^-[cC].+/;
/** Options anywhere that read or write outside the repository, or run a program. */
const ANYWHERE_UNSAFE = /^(?:--no-index|--output(?:=.*)?|--output-directory(?:=.*)?|-o.*|--ext-diff|--exec(?:=.*)?|--upload-pack(?:=.*)?|--receive-pack(?:=.*)?)$/;

function words(cmd: string): string[] {
  return cmd
    .split(/[\s;&|()]+/)
    .map((w) => w.replace(/^['"]+|['"]+$/g, ''))
    .filter(Boolean);
}

/** A word that names a path outside the workspace (absolute, home, a variable, or up past the root). */
function outsidePath(word: string): boolean {
  const v = word.includes('=') && word.startsWith('-') ? word.slice(word.indexOf('=') + 1) : word;
  if (v.startsWith('/') || v.startsWith('~') || v.includes('$') || v.includes('`')) return true;
  const n = path.posix.normalize(v.replace(/\\/g, '/'));
  return n === '..' || n.startsWith('../');
}

/** Why this git command must not run on an allow pattern's word, or null (also null: not git). */
export function unsafeGitArgs(cmd: string): string | null {
  const w = words(cmd);
  const at = w.findIndex((x) => x === 'git' || x.endsWith('/git'));
  if (at === -1) return null;
  // VAR=value before git: GIT_CONFIG_*, GIT_EXTERNAL_DIFF, GIT_DIR… redirect or run programs.
  if (w.slice(0, at).some((x) => /^\w+=/.test(x))) return 'it sets environment variables for git';
  let sub = false;
  for (const x of w.slice(at + 1)) {
    if (!sub && !x.startsWith('-')) sub = true;
    if (!sub && GLOBAL_UNSAFE.test(x)) return `it passes ${x.split('=')[0].slice(0, 2)}… to git (config injection or another repository)`;
    if (ANYWHERE_UNSAFE.test(x)) return `it uses ${x.split('=')[0]}, which makes git read or write files outside the repository or run a program`;
    if (outsidePath(x)) return `it names a path outside the workspace (${x})`;
  }
  return null;
}

export function gitUnsafeReason(why: string): string {
  return `The command matches an allow pattern, but ${why}, so it was not run. Run plain git commands on paths inside the workspace.`;
}
