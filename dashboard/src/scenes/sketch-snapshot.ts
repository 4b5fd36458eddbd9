/**
 * The snapshot the editor's preview posts to the sketch page (docs/renderer.md, "Sketch mode"): the scene alone,
 * on program on its layer, with the channel's current input values where they fit the scene's inputs, and its
 * defaults otherwise; clocks as the channel has them, or stopped at their default. Nothing of it is on air.
 */
import type { ClockState, InputDef, InputValue, SceneView, SnapshotMessage } from '@onair/protocol';

export interface SketchChannel {
  id: string;
  fps: number;
  width: number;
  height: number;
}

/** What the channel holds now (GET /v1/channels/{id}/state), with the server's clock offset. */
export interface LiveValues {
  inputs: Record<string, InputValue>;
  clocks: Record<string, ClockState>;
  /** Server time minus local time, in ms. */
  offsetMs: number;
}

export function buildSketchSnapshot(
  channel: SketchChannel,
  scene: SceneView,
  live: LiveValues | null,
  now = Date.now(),
): SnapshotMessage {
  const serverTime = now + (live?.offsetMs ?? 0);
  const inputs: Record<string, InputValue> = {};
  const clocks: Record<string, ClockState> = {};
  for (const input of scene.definition.inputs) {
    if (input.type === 'clock') {
      clocks[input.name] = own(live?.clocks, input.name) ?? {
        running: false,
        ms: typeof input.default === 'number' ? input.default : 0,
        at: serverTime,
      };
    } else {
      const current = own(live?.inputs, input.name);
      inputs[input.name] = current !== undefined && fits(input, current) ? current : input.default;
    }
  }
  return {
    type: 'snapshot',
    channelId: channel.id,
    frame: 0,
    serverTime,
    fps: channel.fps,
    width: channel.width,
    height: channel.height,
    program: [
      // No values of its own: item inputs show the channel's value, or the default, as for a scene cut by id.
      {
        sceneId: scene.id,
        layer: scene.definition.layer,
        itemId: null,
        values: {},
        since: new Date(serverTime).toISOString(),
      },
    ],
    preview: [],
    scenes: [scene],
    inputs,
    clocks,
  };
}

/** A channel value drawn by the scene only when it is of the input's type (the edit may have changed it). */
function fits(input: InputDef, value: InputValue): boolean {
  switch (input.type) {
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'text':
      return typeof value === 'string';
    default:
      return value === null || typeof value === 'string';
  }
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
