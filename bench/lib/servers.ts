/**
 * One way to start any server under test (onair or a baseline) and read its process's numbers.
 */
import { fakeChannelId, type ChannelRef, type Kind, type Target } from './endpoints.js';
import { startChild, type Child } from './child.js';
import { startOnair, type OnairOptions, type OnairStats } from './onair.js';

export interface ServerStats {
  cpu: NodeJS.CpuUsage;
  at: number;
  clock?: OnairStats['clock'];
  limiter?: OnairStats['limiter'];
  /** The clocked baseline's timer (bench/servers/pubsub-baselines.ts, tickHz). */
  baselineClock?: { ticks: number; late: number };
}

export interface ServerUnderTest {
  target: Target;
  channels: ChannelRef[];
  child: Child;
  stats(): Promise<ServerStats>;
  memory(): Promise<{ rss: number; heapUsed: number }>;
  stop(): Promise<void>;
}

export async function startServerUnderTest(
  kind: Kind,
  channels: number,
  onair: Omit<OnairOptions, 'channels'> = {},
  baseline: { tickHz?: number } = {},
): Promise<ServerUnderTest> {
  if (kind === 'onair') {
    const o = await startOnair({ ...onair, channels });
    return wrap({ kind, port: o.port, key: o.key }, o.channels, o.child, () => o.stop());
  }
  const child = await startChild('bench/servers/pubsub-baselines.ts', {
    config: { kind, ...baseline },
    nodeFlags: ['--expose-gc'],
  });
  const refs = Array.from({ length: channels }, (_, i) => ({ id: fakeChannelId(i) }));
  return wrap({ kind, port: child.info.port as number }, refs, child, () => child.stop());
}

function wrap(target: Target, channels: ChannelRef[], child: Child, stop: () => Promise<void>): ServerUnderTest {
  return {
    target,
    channels,
    child,
    stats: () => child.request<ServerStats>('stats'),
    memory: () => child.request('memory'),
    stop,
  };
}
