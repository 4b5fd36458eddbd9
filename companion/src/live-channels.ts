/**
 * What the module knows of each followed channel: the live state the shared reducer keeps from the socket's
 * snapshots and frames, the channel's outputs and data sources (pushed too), and its name (read over REST). Applying a
 * message answers which kinds of thing it changed, so only the feedbacks and variables that read them are redone.
 */
import {
  applyFrame,
  stateFromSnapshot,
  type InputDef,
  type LiveState,
  type OutputView,
  type SceneView,
  type ServerMessage,
  type SourceSummary,
} from '@onair/protocol';

export type Kind =
  'program' | 'preview' | 'inputs' | 'clocks' | 'scenes' | 'rundowns' | 'outputs' | 'sources' | 'channels' | 'frame';
export const ALL_KINDS: readonly Kind[] = [
  'program',
  'preview',
  'inputs',
  'clocks',
  'scenes',
  'rundowns',
  'outputs',
  'sources',
  'channels',
  'frame',
];

export interface LiveChannel {
  id: string;
  name: string;
  state: LiveState;
  outputs: OutputView[];
  sources: SourceSummary[];
  /** Server time minus local time, from the last message that carried one: clocks are drawn on the server's time. */
  clockOffsetMs: number;
  /** When its last snapshot came, in the order of snapshots (see setNames). */
  seq: number;
}

export type Applied = { kinds: Set<Kind>; resync?: string };

export class LiveChannels {
  readonly byId = new Map<string, LiveChannel>();
  #names = new Map<string, string>();
  #seq = 0;

  /** A mark taken before reading the channel list: channels whose snapshot came after it are kept whatever it says. */
  mark(): number {
    return this.#seq;
  }

  /**
   * Channel names as the REST list gave them (the socket's messages carry ids only). A channel the key no longer
   * sees (deleted while the socket was down) is dropped, unless its snapshot came after `mark` (the list was read
   * before it was created).
   */
  setNames(names: Map<string, string>, mark: number): boolean {
    this.#names = names;
    let changed = false;
    for (const channel of [...this.byId.values()]) {
      if (!names.has(channel.id) && channel.seq <= mark) {
        this.byId.delete(channel.id);
        changed = true;
        continue;
      }
      const name = names.get(channel.id) ?? channel.id;
      if (name !== channel.name) changed = true;
      channel.name = name;
    }
    return changed;
  }

  hasName(channelId: string): boolean {
    return this.#names.has(channelId);
  }

  list(): LiveChannel[] {
    return [...this.byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  apply(msg: ServerMessage): Applied {
    const kinds = new Set<Kind>();
    if (msg.type === 'snapshot') {
      const old = this.byId.get(msg.channelId);
      this.byId.set(msg.channelId, {
        id: msg.channelId,
        name: this.#names.get(msg.channelId) ?? msg.channelId,
        state: stateFromSnapshot(msg),
        outputs: old?.outputs ?? [],
        sources: old?.sources ?? [],
        clockOffsetMs: msg.serverTime - Date.now(),
        seq: ++this.#seq,
      });
      for (const kind of ALL_KINDS) if (old || (kind !== 'outputs' && kind !== 'sources')) kinds.add(kind);
      if (!old) kinds.add('channels');
    } else if (msg.type === 'frame') {
      const channel = this.byId.get(msg.channelId);
      if (!channel) return { kinds };
      const next = applyFrame(channel.state, msg);
      if (next === 'gap') return { kinds, resync: msg.channelId };
      channel.state = next;
      channel.clockOffsetMs = msg.serverTime - Date.now();
      frameKinds(msg, kinds);
    } else if (msg.type === 'outputs') {
      const channel = this.byId.get(msg.channelId);
      if (channel) channel.outputs = msg.outputs;
      kinds.add('outputs');
    } else if (msg.type === 'sources') {
      const channel = this.byId.get(msg.channelId);
      if (channel) channel.sources = msg.sources;
      kinds.add('sources');
    } else if (msg.type === 'channel_removed') {
      if (this.byId.delete(msg.channelId)) for (const kind of ALL_KINDS) kinds.add(kind);
    }
    return { kinds };
  }

  /**
   * A new connection: the server sends a channel's sources at once only when it has some, so those held from the
   * last connection are forgotten (one deleted while the link was down would otherwise stay).
   */
  forgetSources(): void {
    for (const channel of this.byId.values()) channel.sources = [];
  }

  clear(): void {
    this.byId.clear();
  }
}

function frameKinds(msg: Extract<ServerMessage, { type: 'frame' }>, kinds: Set<Kind>): void {
  kinds.add('frame');
  if (msg.program !== undefined) kinds.add('program');
  if (msg.preview !== undefined) kinds.add('preview');
  if (msg.inputs || msg.removedInputs) kinds.add('inputs');
  if (msg.clocks || msg.removedClocks) kinds.add('clocks');
  if (msg.scenes || msg.removedScenes) kinds.add('scenes');
  if (msg.rundowns || msg.removedRundowns) kinds.add('rundowns');
}

/** Every input the channel's scenes declare, by name (the first declaration wins, as the server's does). */
export function declaredInputs(scenes: Record<string, SceneView>): Map<string, InputDef> {
  const out = new Map<string, InputDef>();
  for (const scene of Object.values(scenes)) {
    for (const input of scene.definition.inputs) if (!out.has(input.name)) out.set(input.name, input);
  }
  return out;
}

/** Every trigger the channel's scenes declare. */
export function declaredTriggers(scenes: Record<string, SceneView>): string[] {
  const names = new Set<string>();
  for (const scene of Object.values(scenes)) for (const t of scene.definition.triggers) names.add(t.name);
  return [...names].sort();
}
