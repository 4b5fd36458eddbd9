/**
 * Channels (docs/api.md, "Channels"): create, list, read, rename or change the frame rate, delete, rotate the output
 * token, and read the live state. A write is stored first, then handed to the engine (which, with several nodes, tells
 * the others).
 */
import { z } from 'zod';
import { FRAME_RATES, type ChannelRecord, type ChannelState, type FrameRate } from '../engine/index.js';
import { AppError } from '../errors.js';
import { newId, newOutputToken } from '../ids.js';
import { assertRoom } from '../limits/resource-limits.js';
import type { ChannelOperation, WorkspaceOperation } from './operation.js';
import { PageQuery, page, type Page } from './paging.js';

const Fps = z
  .number()
  .refine((v) => (FRAME_RATES as readonly number[]).includes(v), {
    message: `must be one of ${FRAME_RATES.join(', ')}`,
  })
  .meta({ enum: [...FRAME_RATES], example: 60 });

const Name = z.string().trim().min(1, 'must not be empty').max(200);

export const ChannelIn = z
  .strictObject({
    name: Name,
    fps: Fps.optional(),
    width: z.number().int().min(16).max(7680).optional().meta({ example: 1920 }),
    height: z.number().int().min(16).max(4320).optional().meta({ example: 1080 }),
  })
  .meta({ id: 'ChannelIn' });

export const ChannelUpdate = z
  .strictObject({ name: Name.optional(), fps: Fps.optional() })
  .meta({ id: 'ChannelUpdate' });

/** A channel as the API shows it, with the URLs of its output page. */
export interface ChannelView {
  id: string;
  name: string;
  fps: number;
  width: number;
  height: number;
  outputUrl: string;
  previewUrl: string;
  createdAt: string;
  updatedAt: string;
}

export function channelView(c: ChannelRecord, baseUrl: string): ChannelView {
  const outputUrl = `${baseUrl}/render/${c.id}?token=${c.outputToken}`;
  const { id, name, fps, width, height, createdAt, updatedAt } = c;
  return { id, name, fps, width, height, outputUrl, previewUrl: `${outputUrl}&bus=preview`, createdAt, updatedAt };
}

const write = { scope: 'channel', permission: 'channels:write', bucket: 'creates' } as const;
const read = { scope: 'channel', permission: 'channels:read', bucket: 'reads' } as const;
const none = z.strictObject({});

export const createChannel: WorkspaceOperation<z.infer<typeof ChannelIn>, ChannelView> = {
  name: 'channels.create',
  scope: 'workspace',
  permission: 'channels:write',
  bucket: 'creates',
  input: ChannelIn,
  async run({ caller: { principal }, services }, body) {
    if (principal.kind !== 'output' && principal.channelIds) {
      throw new AppError('forbidden', 'A channel-locked key cannot create channels.');
    }
    const max = services.limits.channelsPerWorkspace;
    assertRoom(
      (await services.store.listChannels(principal.orgId, { limit: max })).length,
      max,
      'A workspace has at most {limit} channels',
      'ONAIR_LIMIT_CHANNELS_PER_WORKSPACE',
    );
    const now = new Date(services.now()).toISOString();
    const record: ChannelRecord = {
      id: newId('ch'),
      orgId: principal.orgId,
      name: body.name,
      fps: (body.fps ?? 60) as FrameRate,
      width: body.width ?? 1920,
      height: body.height ?? 1080,
      outputToken: newOutputToken(),
      createdAt: now,
      updatedAt: now,
    };
    await services.store.insertChannel(record);
    services.engine.addChannel(record);
    return channelView(record, services.baseUrl());
  },
};

export const listChannels: WorkspaceOperation<{ limit: number; cursor?: string | undefined }, Page<ChannelView>> = {
  name: 'channels.list',
  scope: 'workspace',
  permission: 'channels:read',
  bucket: 'reads',
  input: z.strictObject(PageQuery),
  async run({ caller: { principal: p }, services }, { limit, cursor }) {
    const onlyIds = p.kind !== 'output' && p.channelIds ? [...p.channelIds] : undefined;
    const rows = await services.store.listChannels(p.orgId, { limit: limit + 1, after: cursor, onlyIds });
    return page(
      rows.map((c) => channelView(c, services.baseUrl())),
      limit,
    );
  },
};

export const getChannel: ChannelOperation<unknown, ChannelView> = {
  ...read,
  name: 'channels.get',
  input: none,
  run: async ({ channel, services }) => channelView(channel, services.baseUrl()),
};

export const updateChannel: ChannelOperation<z.infer<typeof ChannelUpdate>, ChannelView> = {
  ...write,
  name: 'channels.update',
  input: ChannelUpdate,
  async run({ channel, services }, body) {
    const record: ChannelRecord = {
      ...channel,
      name: body.name ?? channel.name,
      fps: (body.fps ?? channel.fps) as FrameRate,
      updatedAt: new Date(services.now()).toISOString(),
    };
    await services.store.updateChannel(record);
    services.engine.updateChannel(record);
    return channelView(record, services.baseUrl());
  },
};

export const deleteChannel: ChannelOperation<unknown, void> = {
  ...write,
  name: 'channels.delete',
  input: none,
  async run({ channel, services }) {
    await services.store.deleteChannel(channel.id);
    services.engine.removeChannel(channel.id);
    // Its sources went with it (the store's cascade): their timers stop here; other nodes find them gone.
    services.sources.channelDeleted(channel.id);
  },
};

/** A new output token: the old URL stops working, and renderers that opened it are closed. */
export const rotateOutputToken: ChannelOperation<unknown, ChannelView> = {
  ...write,
  name: 'channels.rotate_token',
  input: none,
  async run({ channel, services }) {
    const record = { ...channel, outputToken: newOutputToken(), updatedAt: new Date(services.now()).toISOString() };
    await services.store.updateChannel(record);
    services.engine.updateChannel(record);
    return channelView(record, services.baseUrl());
  },
};

export const channelState: ChannelOperation<unknown, ChannelState> = {
  ...read,
  name: 'channels.state',
  input: none,
  run: async ({ channel, services }) => services.engine.state(channel.id),
};
