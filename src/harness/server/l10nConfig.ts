// The harness server speaks the window's language: the extension passes the path of the bundle
// VS Code loaded for it (vscode.l10n.uri, none in English) as an initialization option, and every
// l10n.t in the server then reads its translation. The CLI never configures one: English.
import * as l10n from '@vscode/l10n';
import { z } from 'zod';

export const L10nOptionsSchema = z.object({ l10nBundle: z.string().min(1).optional() }).passthrough();
export type L10nOptions = z.infer<typeof L10nOptionsSchema>;

/** Loads the bundle named in the initialization options; a bad one leaves English and says why. */
export function configureL10n(initializationOptions: unknown, warn: (message: string) => void): void {
  const parsed = L10nOptionsSchema.safeParse(initializationOptions ?? {});
  if (!parsed.success) return warn(`initializationOptions: ${parsed.error.issues[0]?.message ?? 'invalid'}; messages stay in English`);
  const fsPath = parsed.data.l10nBundle;
  if (!fsPath) return;
  try {
    l10n.config({ fsPath });
  } catch (err) {
    warn(`could not load the l10n bundle ${fsPath} (${err instanceof Error ? err.message : String(err)}); messages stay in English`);
  }
}
