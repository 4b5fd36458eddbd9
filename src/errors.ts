/**
 * The one error type thrown anywhere in the server, by a code of the catalogue the clients share
 * (@onair/protocol, ERROR_CATALOGUE; docs/api.md, "Errors"). HTTP turns an AppError into problem+json in one
 * place (api/problem.ts); the WebSocket turns it into an `error` message. Anything that is not an AppError
 * becomes a bare 500 `internal`.
 */
import { ERROR_CATALOGUE, type ErrorCode, type FieldError } from '@onair/protocol';

/**
 * Why an error happened, for the code that handles it: a caller that must act differently on one cause of a code
 * (retry elsewhere on `unavailable` because the channel moved) tests the reason, never the message text. Internal:
 * it travels between nodes (cluster/cluster-bus.ts) but is not part of the problem body clients get.
 * - `channel_moved`: an op queued on a channel that stopped being ticked here before its tick; it was not applied.
 * - `not_owner`: a node asked to apply ops for a channel it does not tick (any more); the sender looks again.
 */
export const ERROR_REASONS = ['channel_moved', 'not_owner'] as const;

/**
 * What every `500 internal` says, whichever way it comes (a bug never explains itself to clients): the cause is in
 * the server's log, under the request id (HTTP) or the connection and op id (WebSocket).
 */
export const INTERNAL_DETAIL =
  "Something went wrong on our side; the server's log has the cause under this request's id.";
export type ErrorReason = (typeof ERROR_REASONS)[number];

export interface AppErrorOptions {
  errors?: FieldError[];
  /** Seconds, sent as Retry-After (429, 503). */
  retryAfter?: number;
  /** Extra members for the problem body (for example `closest` on unknown_input). */
  extra?: Record<string, unknown>;
  /** Extra response headers (for example RateLimit-* on a 429). */
  headers?: Record<string, string>;
  /** The machine-readable cause, for code that must tell causes of one code apart (never shown to clients). */
  reason?: ErrorReason;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly retryAfter: number | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly reason: ErrorReason | undefined;

  constructor(code: ErrorCode, detail?: string, options: AppErrorOptions = {}) {
    super(detail ?? (code === 'internal' ? INTERNAL_DETAIL : ERROR_CATALOGUE[code].title));
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.errors = options.errors;
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
    this.headers = options.headers;
    this.reason = options.reason;
  }

  /** Whether `err` is an AppError with this reason. */
  static hasReason(err: unknown, reason: ErrorReason): boolean {
    return err instanceof AppError && err.reason === reason;
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  [key: string]: unknown;
}

/** The RFC 9457 body for an error; unknown errors say nothing about internals. */
export function toProblem(err: unknown): ProblemBody {
  const e = err instanceof AppError ? err : new AppError('internal');
  const entry = ERROR_CATALOGUE[e.code];
  const body: ProblemBody = {
    ...e.extra,
    type: `https://onair.dev/errors/${e.code}`,
    title: entry.title,
    status: entry.status,
    code: e.code,
    detail: e.message,
  };
  if (e.errors) body.errors = e.errors;
  return body;
}
