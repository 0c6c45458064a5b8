// "Kite: New Feature from Prompt…": a request typed as in a chat becomes a feature of the progress
// file — a short title from its first line, the request itself as the notes (word for word, so the
// briefing carries it), and a verify command (the one the person confirmed, else none) — so the run
// still has to pass the gate and ends in a verified, committed feature.
import { nextFeatureId, type Feature, type ProgressFile } from './progressFile';

const TITLE_MAX = 60;

/** The first line of the request, cut at a word near TITLE_MAX characters, without a trailing full stop. */
export function titleFromPrompt(request: string): string {
  const line = request.trim().split('\n')[0]!.trim().replace(/\s+/g, ' ');
  if (line.length <= TITLE_MAX) return line.replace(/[.!]+$/, '') || line;
  const cut = line.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** A todo feature for the request, with an id no feature uses (F1, F2, …). Throws on an empty request. */
export function featureFromPrompt(progress: ProgressFile, request: string, verify: string | null): Feature {
  if (!request.trim()) throw new Error('the request is empty: describe the change you want');
  const feature: Feature = { id: nextFeatureId(progress, 'F'), title: titleFromPrompt(request), status: 'todo', notes: request.trim() };
  if (verify?.trim()) feature.verify = verify.trim();
  return feature;
}
