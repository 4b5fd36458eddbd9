/**
 * The render WebSocket: open connections by kind, and messages and bytes sent by type. The socket keeps
 * plain counts (SocketCounters); they are copied here when scraped.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SocketCounters } from '../transport/render-socket.js';

export function socketMetrics(registry: Registry, counters: SocketCounters): void {
  const registers = [registry];
  new Gauge({
    name: 'onair_connections',
    help: 'Open WebSocket connections, by kind: output (output-token renderers), key (API keys), session (dashboard users)',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      for (const [kind, n] of Object.entries(counters.open)) this.set({ kind }, n);
    },
  });
  countsByType(
    registers,
    'onair_ws_messages_sent_total',
    'WebSocket messages sent, one per recipient, by type: frame, snapshot, reply (acks and errors), heartbeat, outputs, sources',
    () => counters.messages,
  );
  countsByType(
    registers,
    'onair_ws_sent_bytes_total',
    'Bytes of WebSocket message payloads sent (UTF-8), one copy per recipient, by type',
    () => counters.bytes,
  );
}

/** A counter by `type`, copied from the socket's plain counts when scraped. */
function countsByType(registers: Registry[], name: string, help: string, counts: () => Record<string, number>): void {
  new Counter({
    name,
    help,
    labelNames: ['type'] as const,
    registers,
    collect() {
      this.reset();
      for (const [type, n] of Object.entries(counts())) this.inc({ type }, n);
    },
  });
}
