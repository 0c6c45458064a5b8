// Where an API key set in VS Code lasts (issue 18 item 9). On the desktop Secret Storage is the OS
// keychain and survives reloads; in a browser-based VS Code (code serve-web, Codespaces) it can
// last only as long as the browser session, so a key can be gone after a reload. Kite says so
// where a person sets a key and where a missing key stops a run, never failing silently.

export type UiKind = 'desktop' | 'web';

/** One sentence on how long a key set here lasts, and how to make it last in a browser. */
export function keyPersistenceNote(ui: UiKind, envVar: string): string {
  return ui === 'web'
    ? `In a browser-based VS Code, Secret Storage may last only for this browser session, so a key set here can be gone after a reload; to keep it, set ${envVar} in the environment of the VS Code server.`
    : `Kite keeps it in VS Code Secret Storage (your system keychain), so it survives reloads; ${envVar} in VS Code's environment works too.`;
}
