import type { RequestOptions } from '../http.js';
import type {
  ClearIn,
  ClockAction,
  ClockActionIn,
  ClockResult,
  FrameResult,
  SceneRef,
  State,
  TakeIn,
} from '../types.js';
import { Resource, seg } from './base.js';

const sceneRef = (scene: string | SceneRef): SceneRef => (typeof scene === 'string' ? { sceneId: scene } : scene);

/** Program and preview buses, triggers and clocks (docs/api.md, "Playout", "Triggers and clocks"). */
export class Playout extends Resource {
  /** `POST …/preview`: cues the scene in preview on its layer. Answers the channel's State. */
  preview(channelId: string, scene: string | SceneRef, options?: RequestOptions): Promise<State> {
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/preview`,
      body: sceneRef(scene),
      options,
    });
  }

  /** `POST …/program`: cuts the scene straight to air on its layer. */
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

  /** `POST …/triggers/{name}`: plays a trigger once (404 `unknown_trigger` when no scene on a bus declares it). */
  fireTrigger(channelId: string, name: string, options?: RequestOptions): Promise<FrameResult> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/triggers/${seg(name)}`, options });
  }

  /**
   * `POST …/clocks/{name}`: `start`, `stop`, `reset`, or `set`/`adjust` with `ms`. Either
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
