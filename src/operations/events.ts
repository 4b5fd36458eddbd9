/**
 * The event log (docs/api.md, "Events"): what happened on the workspace's channels in the last days, oldest first,
 * the same events outgoing webhooks deliver. Every event was written with the change that caused it, so an
 * acknowledged change is always here.
 */
import { z } from 'zod';
import { ENGINE_EVENT_TYPES, type EngineEvent } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { WorkspaceOperation } from './operation.js';
import { PageQuery, ResourceId, type Page } from './paging.js';

export const EventsQuery = z.strictObject({
  ...PageQuery,
  channelId: ResourceId.optional().meta({ description: "Only this channel's events." }),
  type: z.enum(ENGINE_EVENT_TYPES).optional().meta({ description: 'Only events of this type.' }),
  since: z.iso.datetime().optional().meta({
    description: 'Only events created at or after this time (ISO 8601); start here instead of at the oldest.',
  }),
});

export const listEvents: WorkspaceOperation<z.infer<typeof EventsQuery>, Page<EngineEvent>> = {
  name: 'events.list',
  scope: 'workspace',
  permission: 'channels:read',
  bucket: 'reads',
  input: EventsQuery,
  async run(ctx, { limit, cursor, channelId, type, since }) {
    const {
      caller: { principal },
      services,
    } = ctx;
    if (since !== undefined && cursor !== undefined)
      throw new AppError('invalid_request', 'since: send either since or cursor, not both', {
        errors: [{ path: 'since', message: 'not with cursor' }],
      });
    // A channel of another workspace, outside the caller's lock, or gone is 404, as on every channel route.
    if (channelId !== undefined) ctx.channelOf(channelId, 'channels:read');
    const lock = principal.kind !== 'output' && principal.channelIds ? [...principal.channelIds] : undefined;
    const found = await services.store.listEvents(principal.orgId, {
      limit,
      after: cursor ?? (since === undefined ? undefined : firstIdAt(Date.parse(since) - ID_SLACK_MS)),
      channelId,
      type,
      onlyChannelIds: lock,
    });
    const data = since === undefined ? found.events : found.events.filter((e) => e.createdAt >= since);
    return { data, nextCursor: found.nextCursor };
  },
};

/**
 * Event ids are UUIDv7: their first 12 hex digits are a time in milliseconds, and ids compare as strings in time
 * order. An id is made a little before its event's `createdAt` (the frame's time), so `since` starts reading a second
 * earlier and the page keeps only events created at or after it.
 */
const ID_SLACK_MS = 1000;

/** An id just below every event id made at or after `ms`. */
function firstIdAt(ms: number): string {
  return `evt_${Math.max(0, ms).toString(16).padStart(12, '0')}`;
}
