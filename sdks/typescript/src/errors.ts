/**
 * The SDK's errors. Every failure is one of three classes:
 *
 * - OnairApiError: the server answered with an error (a problem+json document, or any other non-2xx answer), or a
 *   WebSocket op was answered with an `error` message. Match on `code`.
 * - OnairTransportError: no answer at all (connection refused or reset, DNS, TLS, a timeout, a WebSocket that
 *   dropped before an op's ack).
 * - WebhookVerificationError: a webhook delivery failed verification. Match on `code`.
 */
import { errorEntry, type FieldError } from './generated/protocol.js';

export type { FieldError };

/** The RFC 9457 problem document the API answers errors with (extra members such as `closest` included). */
export interface ProblemDocument {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  errors?: FieldError[];
  [member: string]: unknown;
}

export interface OnairApiErrorInit {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[] | undefined;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  problem?: ProblemDocument | undefined;
}

/** The server refused a request: an HTTP error answer, or an `error` message answering a WebSocket op. */
export class OnairApiError extends Error {
  /** The HTTP status (for a WebSocket op: the status the same REST call answers for this code). */
  readonly status: number;
  /** The stable error code, e.g. `not_found`, `invalid_request`, `rate_limited`; `http_<status>` for a non-JSON body. */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** One entry per field at fault (validation errors); empty when the server named none. */
  readonly errors: FieldError[];
  /** The `X-Request-Id` of the answer: the way to find the request in the server's log. Undefined on the WebSocket. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), on 429 and 503 answers. */
  readonly retryAfter: number | undefined;
  /** The whole problem document, with code-specific members (`closest`, `bucket`, `permission`, `current`, …). */
  readonly problem: ProblemDocument;

  constructor(init: OnairApiErrorInit) {
    super(`${init.status} ${init.code}: ${init.detail}`);
    this.name = 'OnairApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.problem = init.problem ?? {};
  }

  /**
   * On a 409 `version_conflict` (an edit that sent a stale `version`): the record as it is now, e.g. the
   * `RundownItem` or `Rundown` you meant to change, with its current `version`. Undefined on other errors.
   *
   *     catch (e) { if (e instanceof OnairApiError && e.code === 'version_conflict') item = e.current as RundownItem; }
   */
  get current(): unknown {
    return this.problem.current;
  }

  /**
   * An error from an `error` message on the WebSocket (`code` and `detail` only): status and title come from the
   * catalogue of codes the server documents (docs/api.md, "Errors").
   */
  static fromSocket(code: string, detail: string): OnairApiError {
    const known = errorEntry(code);
    return new OnairApiError({
      status: known?.status ?? 0,
      code,
      title: known?.title ?? code,
      detail,
      problem: { code, detail },
    });
  }
}

export type TransportErrorCode =
  /** The request or the WebSocket op got no answer in time. */
  | 'timeout'
  /** The connection could not be made or broke (refused, reset, DNS, TLS). */
  | 'network'
  /** The WebSocket dropped, or was closed, after the op was sent and before its answer: it may or may not have been applied. */
  | 'disconnected'
  /** The caller's AbortSignal fired, or the live client was closed. */
  | 'aborted';

/** No answer from the server: the request may or may not have reached it. */
export class OnairTransportError extends Error {
  readonly code: TransportErrorCode;

  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OnairTransportError';
    this.code = code;
  }
}

export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'invalid_body'
  | 'delivery_mismatch';

/** A webhook delivery failed verification: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}
