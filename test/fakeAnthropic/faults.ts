// Error responses in the service's shape, and how each scripted fault is answered.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from './script';

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export const newRequestId = (): string => 'req_' + randomBytes(12).toString('hex');

export function errorBody(type: ErrorType, message: string, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

export function sendError(res: ServerResponse, status: number, type: ErrorType, message: string, requestId: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...headers });
  res.end(JSON.stringify(errorBody(type, message, requestId)));
}

/** Faults answered with a plain HTTP error before any reply is produced. */
export function sendHttpFault(res: ServerResponse, fault: Extract<Fault, { kind: 'rate_limit' | 'overloaded' | 'server_error' }>, requestId: string): void {
  switch (fault.kind) {
    case 'rate_limit':
      // x-should-retry is what the service sends alongside; the SDK honours it.
      return sendError(res, 429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', requestId, {
        'retry-after': String(fault.retry_after_s),
        'x-should-retry': 'true',
      });
    case 'overloaded':
      return sendError(res, 529, 'overloaded_error', 'Overloaded', requestId, { 'x-should-retry': 'true' });
    case 'server_error':
      return sendError(res, 500, 'api_error', 'Internal server error', requestId, { 'x-should-retry': 'true' });
  }
}
