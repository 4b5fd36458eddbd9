/**
 * Request framing checks against request smuggling. uWS frames a body by the first Content-Length it
 * sees; a proxy in front might use another one, and the two would then disagree on where the next request
 * starts. So a request whose framing headers could be read two ways is refused, and its connection closed.
 *
 * Duplicate headers arrive joined by ", " (as Fetch's Headers joins them), so "3, 3" is a duplicate.
 */

const DECIMAL = /^[0-9]{1,15}$/;

/** What is wrong with a request's Content-Length / Transfer-Encoding headers, or null when nothing is. */
export function framingProblem(contentLength: string | undefined, transferEncoding: string | undefined): string | null {
  if (contentLength !== undefined && transferEncoding !== undefined) {
    return 'Send either Content-Length or Transfer-Encoding, not both.';
  }
  if (contentLength !== undefined && !DECIMAL.test(contentLength)) {
    return contentLength.includes(',')
      ? 'Send Content-Length once.'
      : 'Content-Length must be a decimal number of bytes.';
  }
  if (transferEncoding !== undefined && transferEncoding.toLowerCase() !== 'chunked') {
    return 'The only Transfer-Encoding accepted is "chunked", sent once.';
  }
  return null;
}
