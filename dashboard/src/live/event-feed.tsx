import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import type { ApiSchemas } from '../api-types.js';

type EventRecord = ApiSchemas['Event'];

const KEEP = 40;
const POLL_MS = 2000;

/**
 * The channel's events since the view opened (GET /v1/events with `since`, then the last id as cursor),
 * newest first, with who caused each: the dashboard, an API key or an incoming webhook. Polled every 2 s
 * while the page is visible (30 reads a minute of the workspace's 600).
 */
export function EventFeed({ channelId, sceneName }: { channelId: string; sceneName: (id: string) => string }) {
  const [events, setEvents] = useState<EventRecord[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const since = new Date(Date.now() - 60_000).toISOString();
    let cursor: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        try {
          for (let i = 0; i < 5; i++) {
            const query: string = cursor
              ? `cursor=${encodeURIComponent(cursor)}`
              : `since=${encodeURIComponent(since)}`;
            const page: Page<EventRecord> = await api<Page<EventRecord>>(
              'GET',
              `/v1/events?channelId=${encodeURIComponent(channelId)}&limit=100&${query}`,
            );
            const last = page.data[page.data.length - 1];
            if (last) cursor = last.id;
            if (page.data.length > 0 && !stopped) setEvents((old) => [...page.data.reverse(), ...old].slice(0, KEEP));
            if (!page.nextCursor) break;
            cursor = page.nextCursor;
          }
          setFailed(false);
        } catch {
          setFailed(true);
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [channelId]);
  return (
    <section class="panel events" aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      {failed && <p class="hint">The event log cannot be read just now; retrying.</p>}
      {events.length === 0 && <p class="empty">No events in the last minute.</p>}
      <ol class="event-feed">
        {events.map((e) => (
          <li key={e.id} data-type={e.type}>
            <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleTimeString()}</time> {summary(e, sceneName)}{' '}
            <span class="source">via {typeof e.data.source === 'string' ? e.data.source.replace('_', ' ') : '?'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function summary(e: EventRecord, sceneName: (id: string) => string): string {
  const d = e.data;
  const scene = typeof d.sceneId === 'string' ? sceneName(d.sceneId) : '';
  switch (e.type) {
    case 'channel.played':
      return `${scene} on air (layer ${String(d.layer)})`;
    case 'channel.scene_loaded':
      return `${scene} loaded in ${String(d.bus)}`;
    case 'channel.cleared':
      return `${scene} off air`;
    case 'channel.trigger_fired':
      return `trigger ${String(d.trigger)} on ${scene}`;
    case 'channel.bind_updated':
      return Object.entries((d.inputs ?? {}) as Record<string, unknown>)
        .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
        .join(', ');
    default:
      return e.type;
  }
}
