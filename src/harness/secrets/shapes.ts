// Well-known credential shapes. Each regex matches only the secret part (lookbehinds keep the
// scheme and user of a URL, the `Password=` of a connection string), so what is left around a
// redaction still tells the model what the value was for.
import type { DetectorId } from './detectors';

export interface KeyShape {
  id: DetectorId;
  what: string; // for messages: "a Stripe key"
  re: RegExp; // global
}

export const KEY_SHAPES: readonly KeyShape[] = [
  // A block with no END line (a truncated read) is redacted to the end of the text.
  { id: 'private_key', what: 'a private key block', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$(?![\s\S]))/g },
  { id: 'anthropic_key', what: 'an Anthropic API key', re: /sk-ant-[A-Za-z0-9_-]{8,}/g },
  { id: 'openai_key', what: 'an OpenAI API key', re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { id: 'github_token', what: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { id: 'slack_token', what: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { id: 'slack_webhook', what: 'a Slack webhook URL', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{10,}/g },
  { id: 'stripe_key', what: 'a Stripe key', re: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{20,})/g },
  { id: 'aws_access_key', what: 'an AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { id: 'aws_secret_key', what: 'an AWS secret access key', re: /(?<=aws_secret_access_key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{30,}/gi },
  { id: 'gcp_api_key', what: 'a Google Cloud API key', re: /\bAIza[0-9A-Za-z_-]{35}/g },
  { id: 'npm_token', what: 'an npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { id: 'jwt', what: 'a JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { id: 'bearer_token', what: 'a bearer token', re: /(?<=\bBearer )[A-Za-z0-9._~+/-]{16,}=*/g },
  // scheme://user:PASSWORD@host — only the password.
  { id: 'url_password', what: 'a password in a URL', re: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@'"]+:)[^/\s@'"]+(?=@)/gi },
  // Server=…;Password=VALUE; — connection-string syntax only (no spaces around "="; a value that
  // ends at ";", a quote, a space or the line), so `password = getPassword()` in code is left alone.
  { id: 'connection_password', what: 'a password in a connection string', re: /(?<=(?:^|[;"'\s])(?:password|pwd)=)[^;\s'"()]{6,}(?=[;'"\s]|$)/gim },
];
