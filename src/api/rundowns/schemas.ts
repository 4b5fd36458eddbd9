/** What the rundown, schedule and history routes answer (docs/rundowns.md), for the OpenAPI document. */
import { z } from '@hono/zod-openapi';
import { InputValueSchema } from '../../scenes/input-value-schema.js';

export const ActorOut = z
  .object({
    type: z.enum(['user', 'key', 'hook', 'source', 'schedule', 'system']),
    id: z.string(),
    name: z.string().openapi({ description: "The user's email, the key's or hook's name." }),
  })
  .openapi('Actor');

export const ItemOut = z
  .object({
    id: z.string(),
    sceneId: z.string(),
    values: z
      .record(z.string(), InputValueSchema)
      .openapi({ description: "The item's own values (its scene's item inputs)." }),
    label: z.string(),
    notes: z.string(),
    durationMs: z.number().int().nullable(),
    state: z.enum(['ready', 'preview', 'program', 'done']),
    version: z.number().int(),
  })
  .openapi('RundownItem');

export const RundownOut = z
  .object({
    id: z.string(),
    channelId: z.string(),
    name: z.string(),
    items: z.array(ItemOut),
    focus: z.string().nullable().openapi({ description: 'The item operators are on, shared by everyone.' }),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Rundown');

export const RundownList = z.object({ data: z.array(RundownOut) }).openapi('RundownList');

export const ScheduledOut = z
  .object({
    id: z.string(),
    at: z.string(),
    frame: z.number().int().openapi({ description: 'The frame that holds `at`: the op is applied in its tick.' }),
    op: z.record(z.string(), z.unknown()),
    actor: ActorOut,
    createdAt: z.string(),
  })
  .openapi('ScheduledOp');

export const ScheduleList = z.object({ data: z.array(ScheduledOut) }).openapi('ScheduleList');

export const HistoryOut = z
  .object({
    id: z.string(),
    kind: z.string(),
    actor: ActorOut,
    frame: z.number().int(),
    at: z.string(),
    of: z.string().optional().openapi({ description: 'For undo and redo: the action taken back or done again.' }),
  })
  .openapi('HistoryAction');

export const HistoryList = z
  .object({ data: z.array(HistoryOut), nextCursor: z.string().nullable() })
  .openapi('HistoryList');
