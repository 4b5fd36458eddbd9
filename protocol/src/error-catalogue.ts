/**
 * The catalogue of error codes (docs/api.md, "Errors"): each stable `code` with the HTTP status and title the
 * server answers it with. A WebSocket `error` message carries only the code; a client finds the rest here.
 */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, title: 'Invalid request' },
  unknown_input: { status: 400, title: 'Unknown input' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  bad_signature: { status: 401, title: 'Bad signature' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  unknown_trigger: { status: 404, title: 'Unknown trigger' },
  conflict: { status: 409, title: 'Conflict' },
  preview_empty: { status: 409, title: 'Preview is empty' },
  version_conflict: { status: 409, title: 'Version conflict' },
  nothing_to_undo: { status: 409, title: 'Nothing to undo' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  endpoint_refused: { status: 422, title: 'Endpoint refused' },
  limit_reached: { status: 422, title: 'Limit reached' },
  unknown_asset: { status: 422, title: 'Unknown asset' },
  invalid_graphic: { status: 422, title: 'Invalid graphic' },
  rate_limited: { status: 429, title: 'Rate limited' },
  internal: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorEntry {
  status: number;
  title: string;
}

/** The entry of a code read off the wire, or undefined for a code this catalogue does not know. */
export function errorEntry(code: string): ErrorEntry | undefined {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, code) ? ERROR_CATALOGUE[code as ErrorCode] : undefined;
}

/** One field at fault in a request, as a problem's `errors` array lists them. */
export interface FieldError {
  path: string;
  message: string;
}
