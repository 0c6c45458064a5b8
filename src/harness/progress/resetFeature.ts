// A feature back to `todo` (kite reset, "Reset to Todo" in VS Code): the one writer, so both keep
// the notes, touch nothing else in the file and write it atomically.
import type { FeatureStatus } from '../protocol/events';
import { loadProgress, ProgressError, saveProgress } from './progressFile';

export function resetFeature(progressPath: string, id: string): { was: FeatureStatus } {
  const data = loadProgress(progressPath);
  const f = data.features.find((x) => x.id === id);
  if (!f) throw new ProgressError('unknown_feature', `${progressPath}: no feature "${id}" (features: ${data.features.map((x) => x.id).join(', ') || 'none'})`);
  const was = f.status;
  if (was === 'todo') return { was };
  f.status = 'todo';
  saveProgress(progressPath, data);
  return { was };
}
