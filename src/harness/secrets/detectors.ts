// The detectors of Kite's secret guard, by id, and what each does when it matches
// (`redaction` in .kite/config.json): redact (the default: the match is replaced), block (the
// whole tool result is withheld) or audit (let through, with a `secret_audit` warning naming the
// detector and where — never the value).
import { z } from 'zod';

export const DETECTOR_IDS = [
  'env', // values of the secrets in Kite's own environment (the model key, *_TOKEN…)
  'secret_values', // values in the workspace's secret files (.env…) and in secret files read this run
  'private_key',
  'anthropic_key',
  'openai_key',
  'github_token',
  'slack_token',
  'slack_webhook',
  'stripe_key',
  'aws_access_key',
  'aws_secret_key',
  'gcp_api_key',
  'npm_token',
  'jwt',
  'bearer_token',
  'url_password',
  'connection_password',
  'high_entropy',
] as const;
export type DetectorId = (typeof DETECTOR_IDS)[number];

export type SecretAction = 'redact' | 'block' | 'audit';

export const RedactionConfigSchema = z
  .partialRecord(z.enum(DETECTOR_IDS), z.enum(['redact', 'block', 'audit']))
  // Kite's own keys are not the project's to share: they may be blocked, never let through.
  .refine((r) => r.env !== 'audit', { message: '"env" (Kite\'s own secrets) can be "redact" or "block", not "audit"', path: ['env'] });
export type RedactionConfig = z.infer<typeof RedactionConfigSchema>;

export function actionOf(config: RedactionConfig | undefined, id: DetectorId): SecretAction {
  return config?.[id] ?? 'redact';
}

/** The text that stands in for a redacted value: the variable's name or the detector's id. */
export function marker(label: string): string {
  return `[${label} redacted]`;
}
