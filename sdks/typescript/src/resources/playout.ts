import type { RequestOptions } from '../http.js';
import type {
  ClearIn,
  ClockAction,
  ClockActionIn,
  ClockResult,
  ContinueIn,
  FrameResult,
  SceneRef,
  State,
  TakeIn,
  TriggerBody,
  UpdateIn,
} from '../types.js';
import { Resource, seg } from './base.js';

const sceneRef = (scene: string | SceneRef): SceneRef => (typeof scene === 'string' ? { sceneId: scene } : scene);

/**
 * Program and preview buses, triggers and clocks, undo and redo (docs/api.md, "Playout", "Triggers and clocks";
 * docs/rundowns.md). What goes on a bus is an instance: a scene id, `{ sceneId, values }` (its own item values) or
 * `{ itemId }` (a rundown item, with its values).
 */
export class Playout extends Resource {
  /** `POST …/preview`: cues an instance in preview on its scene's layer. Answers the channel's State. */
  preview(channelId: string, scene: string | SceneRef, options?: RequestOptions): Promise<State> {
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/preview`,
      body: sceneRef(scene),
      options,
    });
  }

  /** `POST …/program`: cuts an instance straight to air on its scene's layer. */
  program(channelId: string, scene: string | SceneRef, options?: RequestOptions): Promise<State> {
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/program`,
      body: sceneRef(scene),
      options,
    });
  }

  /** `POST …/take`: every cued layer (or only `layer`) to air; 409 `preview_empty` when nothing is cued. */
  take(channelId: string, body: TakeIn = {}, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/take`, body, options });
  }

  /** `POST …/clear`: everything off air, or one `layer`, or one `sceneId`. */
  clear(channelId: string, body: ClearIn = {}, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/clear`, body, options });
  }

  /**
   * `POST …/update`: changes item values of the instance on air at the next frame, merged into its own (`null`
   * gives an input back to the channel). Name its `layer` or `sceneId` when several are on air. A rundown item's
   * own values stay as they are.
   */
  update(channelId: string, body: UpdateIn, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/update`, body, options });
  }

  /**
   * `POST …/continue`: the next step of the scene on air (its `next` trigger), or only the one on `layer`; `step`
   * sends the OGraf graphics on air to that step instead. 404 `unknown_trigger` when none has a next step.
   */
  continue(channelId: string, body: ContinueIn = {}, options?: RequestOptions): Promise<FrameResult> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/continue`, body, options });
  }

  /**
   * `POST …/undo`: takes back the channel's last on-air action by a person, a key or the schedule (a cue, take,
   * cut, clear, update or input change): the layers and values it touched go back as they were, at the next frame.
   * What incoming hooks set is never undone. 409 `nothing_to_undo` when there is nothing to undo.
   */
  undo(channelId: string, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/undo`, options });
  }

  /** `POST …/redo`: does again the last action undone; 409 `nothing_to_undo` when there is none. */
  redo(channelId: string, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/redo`, options });
  }

  /**
   * `POST …/triggers/{name}`: plays a trigger once (404 `unknown_trigger` when no scene on a bus declares it);
   * `{ payload }` is what an OGraf graphic's custom action runs with, `{ layer }` fires it on that layer's scene only.
   */
  fireTrigger(channelId: string, name: string, body: TriggerBody = {}, options?: RequestOptions): Promise<FrameResult> {
    const path = `/channels/${seg(channelId)}/triggers/${seg(name)}`;
    return this.http.request({ method: 'POST', path, body, options });
  }

  /**
   * `POST …/clocks/{name}`: `start`, `stop`, `reset`, `set`/`adjust` with `ms`, or `period` (the next period, or
   * `{ action: 'period', period }` for one by index). Either
   * `clock(ch, 'gameClock', 'start')`, `clock(ch, 'gameClock', 'set', 300000)` or `clock(ch, 'gameClock', { action, ms })`.
   */
  clock(
    channelId: string,
    name: string,
    action: ClockAction | ClockActionIn,
    ms?: number,
    options?: RequestOptions,
  ): Promise<ClockResult> {
    const body: ClockActionIn = typeof action === 'string' ? (ms === undefined ? { action } : { action, ms }) : action;
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/clocks/${seg(name)}`,
      body,
      options,
    });
  }
}
