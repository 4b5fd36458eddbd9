/**
 * What a live client may ask over its socket (docs/api.md, "Client ops"): the REST operations under the same names,
 * with the same bodies and checks, each answered by its ack (the promise resolves) or its error (it rejects with
 * OnairApiError). LiveChannel carries them; this class only says what each one sends.
 */
import type { ClientOp } from '../generated/protocol.js';
import type { ClearIn, ClockAction, ContinueIn, InputsPatch, SceneRef, TakeIn, UpdateIn } from '../types.js';
import { Emitter } from './emitter.js';
import { LiveRundowns } from './rundowns.js';
import type { LiveAck, LiveEvents, LiveOpOptions } from './types.js';

const sceneRef = (scene: string | SceneRef): SceneRef => (typeof scene === 'string' ? { sceneId: scene } : scene);

export abstract class LiveOps extends Emitter<LiveEvents> {
  /** The rundown ops (`live.rundowns.playNext(rundownId)`…): those of `client.rundowns`, over the socket. */
  readonly rundowns = new LiveRundowns((op, options) => this.send(op, options));

  /** Sets inputs, like `channels.patchInputs` (needs `inputs:write`). */
  patch(inputs: InputsPatch, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'patch', inputs }, options);
  }

  /**
   * Cues an instance in preview (needs `playout:write`): a scene id, `{ sceneId, values }` (its own item values)
   * or `{ itemId }` (a rundown item, with its values). Sent as the `cue` op.
   */
  preview(scene: string | SceneRef, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'cue', ...sceneRef(scene) }, options);
  }

  /** Cuts an instance straight to air (a scene id, `{ sceneId, values }` or `{ itemId }`). Sent as `cut`. */
  program(scene: string | SceneRef, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'cut', ...sceneRef(scene) }, options);
  }

  /** Takes every cued layer (or one: `take(20)` or `take({ layer: 20 })`) to air. */
  take(layer?: number | TakeIn, options?: LiveOpOptions): Promise<LiveAck> {
    const body = typeof layer === 'number' ? { layer } : (layer ?? {});
    return this.send({ op: 'take', ...body }, options);
  }

  /** Clears everything off air, or `{ layer }`, or `{ sceneId }`. */
  clear(body: ClearIn = {}, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'clear', ...body }, options);
  }

  /**
   * Changes item values of the instance on air at the next frame (`null` gives an input back to the channel);
   * name its `layer` or `sceneId` when several are on air.
   */
  update(body: UpdateIn, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'update', ...body }, options);
  }

  /** The next step of the scene on air (`continue()`, or one layer: `continue(20)` or `continue({ layer: 20 })`). */
  continue(layer?: number | ContinueIn, options?: LiveOpOptions): Promise<LiveAck> {
    const body = typeof layer === 'number' ? { layer } : (layer ?? {});
    return this.send({ op: 'continue', ...body }, options);
  }

  /** Takes back the channel's last on-air action (409 `nothing_to_undo` when there is none). */
  undo(options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'undo' }, options);
  }

  /** Does again the last action undone (409 `nothing_to_undo` when there is none). */
  redo(options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'redo' }, options);
  }

  /** Fires a trigger by name. */
  trigger(name: string, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'trigger', name }, options);
  }

  /** Drives a clock: `start`, `stop`, `reset`, or `set` / `adjust` with `ms`. The ack has the clock's state. */
  clock(name: string, action: ClockAction, ms?: number, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send(ms === undefined ? { op: 'clock', name, action } : { op: 'clock', name, action, ms }, options);
  }

  /** Sends an op and answers its ack (rejects with its error, a timeout, or a dropped line). */
  protected abstract send(op: ClientOp, options?: LiveOpOptions): Promise<LiveAck>;
}
