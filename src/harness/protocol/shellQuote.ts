// A word a person will paste into a POSIX shell (a command Kite suggests, an MCP server's command
// line shown for approval): left bare when plainly safe, else single-quoted.

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
