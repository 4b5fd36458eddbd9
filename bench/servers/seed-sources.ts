/**
 * The data sources benchmark's setup, written through the store into a seeded data dir before the server starts
 * (as ./seed.ts does for channels: the API's create limit would make it take 17 minutes): on every channel a
 * "feeds" scene declaring the inputs its sources set, and, when asked, `perChannel` JSON sources polling that
 * channel's feed origin (./feed-server.ts). Source k of a channel maps three fields of its feed to inputs of its
 * own; the first of each channel is a `live` feed, the second a `plain` one, the rest `etag` ones.
 */
import { SYSTEM_ACTOR } from '@onair/protocol';
import type { SceneRecord } from '../../src/engine/index.js';
import { newId } from '../../src/ids.js';
import type { SourceRecord } from '../../src/store/source-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FeedKind } from './feed-server.js';
import type { SeededChannel } from './seed.js';

export interface SourcePlan {
  perChannel: number;
  /** One feed origin per channel (`http://127.0.0.1:port`), in the channels' order; none: no sources. */
  origins?: string[] | undefined;
  intervalMs: number;
  paused: boolean;
}

export interface SeededSource {
  id: string;
  channelId: string;
  kind: FeedKind;
}

export const feedKind = (k: number): FeedKind => (k === 0 ? 'live' : k === 1 ? 'plain' : 'etag');

export async function seedSources(
  dataDir: string,
  channels: SeededChannel[],
  plan: SourcePlan,
): Promise<SeededSource[]> {
  const store = new SqliteStore({ dataDir, synchronous: 'normal' });
  try {
    const orgOf = new Map((await store.loadChannels()).map((c) => [c.channel.id, c.channel.orgId]));
    const out: SeededSource[] = [];
    for (const [i, ch] of channels.entries()) {
      await store.insertScene(feedsScene(ch.id, plan.perChannel), SYSTEM_ACTOR);
      const origin = plan.origins?.[i];
      if (origin === undefined) continue;
      for (let k = 0; k < plan.perChannel; k++) {
        const source = sourceRecord(ch.id, orgOf.get(ch.id)!, k, `${origin}/${feedKind(k)}/${i * 100 + k}.json`, plan);
        await store.sources.insertSource(source);
        out.push({ id: source.id, channelId: ch.id, kind: feedKind(k) });
      }
    }
    return out;
  } finally {
    await store.close();
  }
}

function feedsScene(channelId: string, perChannel: number): SceneRecord {
  const now = new Date().toISOString();
  const inputs = Array.from({ length: perChannel }, (_, k) => [
    { name: `f${k}Team`, type: 'text' as const, label: `Feed ${k} team`, default: '' },
    { name: `f${k}Score`, type: 'number' as const, label: `Feed ${k} score`, default: 0 },
    { name: `f${k}Period`, type: 'number' as const, label: `Feed ${k} period`, default: 1 },
  ]).flat();
  return {
    id: newId('sc'),
    channelId,
    name: 'feeds',
    definition: {
      version: 1,
      layer: 20,
      inputs,
      elements: [
        { type: 'text', name: 'line', x: 96, y: 960, width: 800, height: 48, text: '{f0Team} {f0Score}', fontSize: 32 },
      ],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [],
    },
    createdAt: now,
    updatedAt: now,
  };
}

function sourceRecord(channelId: string, orgId: string, k: number, url: string, plan: SourcePlan): SourceRecord {
  const now = new Date().toISOString();
  return {
    id: newId('src'),
    orgId,
    channelId,
    type: 'json_url',
    name: `feed ${k}`,
    url,
    intervalMs: plan.intervalMs,
    mapping: { 'home.name': `f${k}Team`, 'home.score': `f${k}Score`, period: `f${k}Period` },
    row: null,
    table: null,
    paused: plan.paused,
    state: 'pending',
    cursor: 1,
    etag: null,
    lastModified: null,
    bodySha256: null,
    lastValues: {},
    lastFetchAt: null,
    lastChangeAt: null,
    lastError: null,
    failCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}
