/**
 * HTTP requests by route template, method and status, with their latency. The histogram's `_count` is
 * the request counter: one observation per request, the only metrics work on the hottest route.
 */
import type { Registry } from 'prom-client';
import { RequestHistogram } from './request-histogram.js';

/** Seconds: from a sub-millisecond read to a PATCH that waits for its frame (16.7 ms at 60 fps) and a flush. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export type RequestRecorder = (route: string, method: string, status: number, seconds: number) => void;

/** `route` must already be a template or a fixed label (see RequestObserver in src/api/env.ts). */
export function httpMetrics(registry: Registry): RequestRecorder {
  const duration = new RequestHistogram(
    'onair_http_request_duration_seconds',
    'HTTP requests answered by the API, by route template, method and status: latency in seconds (_count counts requests)',
    BUCKETS,
  ).register(registry);
  return (route, method, status, seconds) => duration.observe(route, method, status, seconds);
}
