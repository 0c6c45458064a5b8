// The default deny list: commands that are never run without a person editing the policy.
// Each is a regex searched anywhere in the command line (so "cd x && sudo y" is caught too).

export interface DenyRule {
  id: string;
  re: RegExp;
  reason: string;
}

// Start of a command word: start of line or after a shell separator / subshell / quote.
const S = String.raw`(?:^|[;&|(\x60'"\s]|\$\()`;
// rm with a recursive/force flag somewhere before the target.
const RM = String.raw`${S}rm\s+(?:-\S+\s+)*`;
// Targets that mean "everything": /, /*, ~, ~/, $HOME, .., ../, *, .
const ALL = String.raw`(?:/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?|\.\./?\*?|\*|\./?\*?)(?=\s|$|[;&|)])`;

export const DEFAULT_DENY: readonly DenyRule[] = [
  {
    id: 'deny:pipe-to-shell',
    re: new RegExp(String.raw`${S}(?:curl|wget|fetch)\b[^|]*\|\s*(?:sudo\s+)?(?:env\s+)?(?:ba|z|da|k|fi)?sh\b`),
    reason: 'Piping a download into a shell runs unreviewed code from the network.',
  },
  { id: 'deny:sudo', re: new RegExp(String.raw`${S}(?:sudo|su|doas|pkexec)(?=\s|$)`), reason: 'Commands that gain root (sudo, su, doas) are never run by the agent.' },
  {
    id: 'deny:rm-root',
    re: new RegExp(String.raw`${RM}(?:-\S*[rRf]\S*\s+)(?:\S+\s+)*${ALL}`),
    reason: 'Recursive or forced rm of /, ~, $HOME, .., * or . would destroy far more than the task needs. Delete specific files instead.',
  },
  { id: 'deny:git-push', re: new RegExp(String.raw`${S}git\s+(?:-\S+(?:\s+\S+)?\s+)*push\b`), reason: 'Publishing (git push) is left to a person reviewing the commits.' },
  { id: 'deny:git-reset-hard', re: /\bgit\b[^;&|]*\breset\b[^;&|]*--hard\b/, reason: 'git reset --hard throws away work irrecoverably.' },
  { id: 'deny:git-clean', re: /\bgit\b[^;&|]*\bclean\b[^;&|]*\s-[a-zA-Z]*f/, reason: 'git clean -f deletes untracked files irrecoverably.' },
  { id: 'deny:chmod-root', re: new RegExp(String.raw`${S}(?:chmod|chown)\s+(?:-\S+\s+)*(?:-\S*R\S*\s+)(?:\S+\s+)*/(?=\s|$)|${S}chmod\s+(?:-\S+\s+)*777\s+/(?=\s|$)`), reason: 'Changing permissions or ownership of / recursively breaks the system.' },
  { id: 'deny:mkfs', re: new RegExp(String.raw`${S}mkfs(?:\.\w+)?\b|${S}(?:fdisk|parted|wipefs)\b`), reason: 'Formatting or partitioning disks is never part of a coding task.' },
  { id: 'deny:dd-device', re: /\bdd\b[^;&|]*\bof=\/dev\/(?!null\b)/, reason: 'Writing raw data to a device destroys it.' },
  { id: 'deny:write-device', re: />\s*\/dev\/(?:sd|hd|nvme|vd|xvd|mmcblk|disk)\w*/, reason: 'Writing raw data to a disk device destroys it.' },
  { id: 'deny:shutdown', re: new RegExp(String.raw`${S}(?:shutdown|reboot|halt|poweroff|init\s+[06])(?=\s|$)|systemctl\s+(?:poweroff|reboot|halt)`), reason: 'Stopping or restarting the machine is never part of a coding task.' },
  { id: 'deny:fork-bomb', re: /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/, reason: 'A fork bomb exhausts the machine.' },
];
