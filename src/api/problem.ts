/**
 * The one place an error becomes an HTTP response: problem+json (RFC 9457) with a stable code.
 */
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { HTTPException } from 'hono/http-exception';
import type { ErrorCode } from '@onair/protocol';
import { AppError } from '../errors.js';
import { internalError, problemParts, type ProblemParts } from '../http/problem-parts.js';

export { problemParts, type ProblemParts } from '../http/problem-parts.js';
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

export function problemResponse(err: AppError, requestId?: string): Response {
  const { status, headers, body } = problemParts(err, requestId);
  return new Response(body, { status, headers });
}

/** Hono's onError: known errors keep their code; anything else is logged and becomes a bare 500. */
export function handleError(err: unknown, c: Context<ApiEnv>): Response {
  const { status, headers, body } = errorAnswer(c.get('log'), err, c.get('requestId'));
  return new Response(body, { status, headers });
}

/**
 * The answer to an error on any request path: its problem, and, for what is not an AppError (a bug), a log line
 * with the cause under the request id (`log` carries it); the client learns nothing about internals.
 */
export function errorAnswer(log: Logger | undefined, err: unknown, requestId: string | undefined): ProblemParts {
  const appError = asAppError(err);
  if (appError.code === 'internal') log?.error({ err }, 'unhandled error');
  return problemParts(appError, requestId);
}

export function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    const code = HTTP_STATUS_CODES[err.status];
    if (code) return new AppError(code, err.message || undefined);
  }
  return internalError();
}

export { validationError } from '../validation.js';
