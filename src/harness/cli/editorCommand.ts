// $VISUAL / $EDITOR as an argv, without a shell: a file name the agent proposed is passed as one
// argument and never parsed by a shell, so `$(…)` or `;` in it cannot run (issue 13, item 15).
// The variable itself may hold arguments (`code --wait`, `"/opt/My Editor/bin/ed" -n`): split
// it the way a shell splits words — quotes and backslashes — but expand nothing.

export function splitEditor(spec: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < spec.length; i++) {
    const ch = spec[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < spec.length && '"\\$`'.includes(spec[i + 1])) word += spec[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < spec.length) {
      word += spec[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The editor to start and its arguments, the file to edit last; null when none is set usefully. */
export function editorArgv(file: string, env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } | null {
  const words = splitEditor(env.VISUAL || env.EDITOR || 'vi');
  if (!words.length) return null;
  return { command: words[0], args: [...words.slice(1), file] };
}
