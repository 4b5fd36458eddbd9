/**
 * The process's own metrics (RSS, CPU, heap, event-loop lag, GC pauses), collected by prom-client.
 * They describe the process, not one server, so they are collected once per process and shown by every
 * server's /metrics: collecting them per server would add a GC observer and an event-loop monitor for
 * each server started (tests start many in one process), and prom-client offers no way to remove them.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

export function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
