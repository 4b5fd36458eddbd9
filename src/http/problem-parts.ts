/**
 * An error as an HTTP answer: problem+json (RFC 9457) with its stable code, Retry-After when the error says when to
 * come back, and the request id. The API's error handler and the transport's own refusals both answer with this.
 */
import { AppError, toProblem } from '../errors.js';

export interface ProblemParts {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

/** Anything thrown that is not an AppError is a bug: a bare 500 that says nothing about internals. */
export function internalError(): AppError {
  return new AppError('internal');
}
