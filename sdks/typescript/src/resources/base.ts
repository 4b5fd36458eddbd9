import type { HttpClient } from '../http.js';

/** A group of endpoints sharing the client's HTTP layer. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}
}

/** A path segment, escaped: ids are opaque strings. */
export function seg(value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError('onair: an id or name must be a non-empty string');
  return encodeURIComponent(value);
}
