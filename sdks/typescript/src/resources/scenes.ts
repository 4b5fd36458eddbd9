import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { Page, PageParams, Scene, SceneIn, SceneUpdate, SceneVersionList } from '../types.js';
import { Resource, seg } from './base.js';

export interface SceneWriteOptions extends RequestOptions {
  /** Check the scene and answer it as it would be saved, saving nothing (`?dryRun=1`; counts as a read). */
  dryRun?: boolean;
}

/** A channel's scenes (docs/api.md, "Scenes and templates"; the definition format is docs/scenes.md). */
export class Scenes extends Resource {
  /**
   * `POST /v1/channels/{id}/scenes` from a `template` id or a `definition`. A create: sends an Idempotency-Key
   * (not for a dry run, which creates nothing; its answer has the id `sc_dryrun`).
   */
  create(channelId: string, scene: SceneIn, options: SceneWriteOptions = {}): Promise<Scene> {
    const { dryRun, ...rest } = options;
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/scenes`,
      query: dryRun ? { dryRun: 1 } : undefined,
      body: scene,
      idempotent: !dryRun,
      options: rest,
    });
  }

  /** `GET /v1/channels/{id}/scenes`: one page, in creation order. */
  list(channelId: string, params: PageParams = {}, options?: RequestOptions): Promise<Page<Scene>> {
    return this.http.request({
      method: 'GET',
      path: `/channels/${seg(channelId)}/scenes`,
      query: { ...params },
      options,
    });
  }

  /** Every scene of the channel, following `nextCursor`. */
  listAll(channelId: string, params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Scene> {
    return paginate((cursor) => this.list(channelId, { ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/channels/{id}/scenes/{sceneId}` */
  get(channelId: string, sceneId: string, options?: RequestOptions): Promise<Scene> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(channelId)}/scenes/${seg(sceneId)}`, options });
  }

  /** `PUT /v1/channels/{id}/scenes/{sceneId}`: replaces the whole definition (and the name, when given). */
  replace(channelId: string, sceneId: string, scene: SceneUpdate, options: SceneWriteOptions = {}): Promise<Scene> {
    const { dryRun, ...rest } = options;
    return this.http.request({
      method: 'PUT',
      path: `/channels/${seg(channelId)}/scenes/${seg(sceneId)}`,
      query: dryRun ? { dryRun: 1 } : undefined,
      body: scene,
      options: rest,
    });
  }

  /** `GET /v1/channels/{id}/scenes/{sceneId}/versions`: the scene's saved versions, newest first, with who saved each. */
  versions(channelId: string, sceneId: string, options?: RequestOptions): Promise<SceneVersionList> {
    const path = `/channels/${seg(channelId)}/scenes/${seg(sceneId)}/versions`;
    return this.http.request({ method: 'GET', path, options });
  }

  /**
   * `POST /v1/channels/{id}/scenes/{sceneId}/versions/{version}/restore`: saves that version's name and definition
   * again, with the checks of `replace`, as a new version. Sends an Idempotency-Key.
   */
  restoreVersion(channelId: string, sceneId: string, version: number, options?: RequestOptions): Promise<Scene> {
    const path = `/channels/${seg(channelId)}/scenes/${seg(sceneId)}/versions/${seg(String(version))}/restore`;
    return this.http.request({ method: 'POST', path, idempotent: true, options });
  }

  /** `DELETE /v1/channels/{id}/scenes/{sceneId}` (409 `conflict` while it is on program or preview). */
  async delete(channelId: string, sceneId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/channels/${seg(channelId)}/scenes/${seg(sceneId)}`, options });
  }
}
