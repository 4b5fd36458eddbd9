import { useEffect, useRef, useState } from 'preact/hooks';
import type { Actor } from '@onair/protocol';
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import { api, type Page } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { itemName } from '../rundown/item-drafts.js';
import { outputEventSummary } from './output-events.js';

type EventRecord = ApiSchemas['Event'];

const KEEP = 40;
const POLL_MS = 2000;

/**
 * The channel's events since the view opened (GET /v1/events with `since`, then the last id as cursor),
 * newest first, with who caused each (the event's `actor`: a person by email, an API key or a hook by name, the
 * schedule or the server) and through what (dashboard, api, incoming webhook). Polled every 2 s while the page is
 * visible (30 reads a minute of the workspace's 600). `onEvents` hears the events that arrive after the first read.
 */
export function EventFeed({
  channelId,
  state,
  onEvents,
}: {
  channelId: string;
  state: ChannelState;
  onEvents?: (events: EventRecord[]) => void;
}) {
  const [events, setEvents] = useState<EventRecord[]>([]);
  const [failed, setFailed] = useState(false);
  // The latest callback, without restarting the poll when the parent renders.
  const onEventsRef = useRef(onEvents);
  onEventsRef.current = onEvents;
  useEffect(() => {
    const since = new Date(Date.now() - 60_000).toISOString();
    let cursor: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
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
            if (page.data.length > 0 && !stopped) {
              if (!first) onEventsRef.current?.(page.data);
              setEvents((old) => [...page.data.reverse(), ...old].slice(0, KEEP));
            }
            if (!page.nextCursor) break;
            cursor = page.nextCursor;
          }
          first = false;
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
      {/* It scrolls: keyboard users reach it with Tab. */}
      <ol class="event-feed" tabIndex={0} aria-label="Events, newest first">
        {events.map((e) => (
          <li key={e.id} data-type={e.type}>
            <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleTimeString()}</time> {summary(e, state)}{' '}
            <span class="source">{whoDid(e.data)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "by ann@example.com (dashboard)", "by key Scores feed (api)", "by the schedule"; the source alone for older events. */
export function whoDid(data: Record<string, unknown>): string {
  const source = typeof data.source === 'string' ? data.source.replace('_', ' ') : null;
  const actor = actorOf(data.actor);
  if (!actor) return source ? `via ${source}` : '';
  const who =
    actor.type === 'user'
      ? actor.name
      : actor.type === 'schedule'
        ? 'the schedule'
        : actor.type === 'system'
          ? 'onair itself'
          : `${actor.type} ${actor.name}`;
  return source && actor.type !== 'schedule' && actor.type !== 'system' ? `by ${who} (${source})` : `by ${who}`;
}

function actorOf(value: unknown): Actor | null {
  const a = value as Partial<Actor> | null | undefined;
  return a && typeof a.type === 'string' && typeof a.name === 'string' ? (a as Actor) : null;
}

function summary(e: EventRecord, state: ChannelState): string {
  const d = e.data;
  const scene = typeof d.sceneId === 'string' ? (state.scenes[d.sceneId]?.name ?? d.sceneId) : '';
  const item = itemLabel(state, d.itemId);
  const type = e.type as string;
  const output = outputEventSummary(e, state);
  if (output) return output;
  // The generated types list the event types of the API's last generation; newer ones are matched here too.
  switch (type) {
    case 'channel.played':
      return `${item ?? scene} on air (layer ${String(d.layer)})`;
    case 'channel.scene_loaded':
      return `${item ?? scene} loaded in ${String(d.bus)}`;
    case 'channel.cleared':
      return `${item ?? scene} off air`;
    case 'channel.trigger_fired':
      return `trigger ${String(d.trigger)} on ${scene}`;
    case 'channel.bind_updated':
      return assignments(d.inputs);
    case 'channel.updated_on_air':
      return `${item ?? scene} updated on air: ${assignments(d.values)}`;
    case 'channel.undone':
    case 'channel.redone':
      return `${type === 'channel.undone' ? 'undid' : 'redid'} ${String(d.kind)}`;
    case 'rundown.item_cued':
      return `item ${item ?? '?'} cued`;
    case 'rundown.item_taken':
      return `item ${item ?? '?'} taken to air`;
    case 'rundown.item_stopped':
      return `item ${item ?? '?'} stopped`;
    default:
      return type;
  }
}

function assignments(values: unknown): string {
  return Object.entries((values ?? {}) as Record<string, unknown>)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ');
}

/** The item's name while the view knows it (it may have been deleted since). */
function itemLabel(state: ChannelState, itemId: unknown): string | null {
  if (typeof itemId !== 'string') return null;
  for (const rundown of Object.values(state.rundowns)) {
    const item = rundown.items.find((i) => i.id === itemId);
    if (item) return itemName(item, state.scenes[item.sceneId]);
  }
  return null;
}
