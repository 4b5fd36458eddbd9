/**
 * The one place an error becomes an HTTP response: problem+json (RFC 9457) with a stable code.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ErrorCode } from '@onair/protocol';
import { AppError, toProblem } from '../errors.js';
import type { ApiEnv } from './env.js';

const HTTP_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

export interface ProblemParts {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Status, headers and body of the problem answer, for callers that write responses themselves. */
export function problemParts(
  err: AppError,
  requestId?: string,
  extraHeaders: Record<string, string> = {},
): ProblemParts {
  const headers: Record<string, string> = {
    ...extraHeaders,
    ...err.headers,
    'Content-Type': 'application/problem+json',
  };
  if (err.retryAfter !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(err.retryAfter)));
  if (requestId) headers['X-Request-Id'] = requestId;
  return { status: err.status, headers, body: JSON.stringify(toProblem(err)) };
}

export function problemResponse(err: AppError, requestId?: string): Response {
  const { status, headers, body } = problemParts(err, requestId);
  return new Response(body, { status, headers });
}

/** Hono's onError: known errors keep their code; anything else is logged and becomes a bare 500. */
export function handleError(err: unknown, c: Context<ApiEnv>): Response {
  const appError = asAppError(err);
  if (appError.code === 'internal') c.get('log')?.error({ err }, 'unhandled error');
  return problemResponse(appError, c.get('requestId'));
}

export function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    const code = HTTP_STATUS_CODES[err.status];
    if (code) return new AppError(code, err.message || undefined);
  }
  return new AppError('internal', 'Something went wrong on our side; the request id is in the X-Request-Id header.');
}

export { validationError } from '../validation.js';
