/**
 * Snapshot messages as UTF-8 JSON, with each channel's scene definitions serialised once and reused while they are
 * unchanged. A snapshot carries every scene's whole definition (docs/api.md, "Server messages"): with 55 scenes of
 * about 60 KB that is 3.3 MB, and JSON.stringify of it takes tens of milliseconds on the event loop, for every
 * connect and every resync. Reusing the scenes' bytes leaves only the small rest (frame, buses, inputs, clocks,
 * serverTime) to serialise per snapshot; the message is the same JSON, with `scenes` as its last key.
 *
 * A cached entry is reused only while the channel's scenes are the very same objects in the same order: the engine
 * replaces a scene's record when the scene changes (engine/channel-runtime.ts, upsertScene) and never edits one.
 */
import type { SceneScope, SceneView, SnapshotMessage } from '@onair/protocol';

interface EncodedScenes {
  scenes: readonly SceneView[];
  json: Buffer;
}

const CLOSE_BRACE = Buffer.from('}');

export class SnapshotEncoder {
  private readonly byChannel = new Map<string, EncodedScenes>();

  /** `scope` keeps the two kinds of snapshot (engine/scene-scope.ts) apart in the cache. */
  encode(snapshot: SnapshotMessage, scope: SceneScope = 'all'): Buffer {
    const { scenes, ...rest } = snapshot;
    const head = JSON.stringify(rest);
    const scenesJson = this.scenesJson(`${scope}/${snapshot.channelId}`, scenes);
    return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"scenes":`), scenesJson, CLOSE_BRACE]);
  }

  /** Drops a channel's cached scenes (its last connection closed, or it was deleted). */
  forget(channelId: string): void {
    this.byChannel.delete(`buses/${channelId}`);
    this.byChannel.delete(`all/${channelId}`);
  }

  /** Cached scene lists (one per channel and scope), for tests. */
  size(): number {
    return this.byChannel.size;
  }

  private scenesJson(key: string, scenes: readonly SceneView[]): Buffer {
    const cached = this.byChannel.get(key);
    if (cached && sameScenes(cached.scenes, scenes)) return cached.json;
    const json = Buffer.from(JSON.stringify(scenes));
    this.byChannel.set(key, { scenes, json });
    return json;
  }
}

function sameScenes(a: readonly SceneView[], b: readonly SceneView[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.id !== y.id || x.name !== y.name || x.definition !== y.definition) return false;
  }
  return true;
}
