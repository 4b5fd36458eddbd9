import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { Graphic, GraphicsUploaded, Page, PageParams } from '../types.js';
import { Resource, seg } from './base.js';

/**
 * The workspace's imported OGraf graphics (docs/ograf.md). Make a scene of one with
 * `channels.scenes.create(channelId, { name, graphic: graphic.id })`.
 */
export class Graphics extends Resource {
  /**
   * `POST /v1/graphics`: imports a zipped OGraf package, one graphic per `*.ograf.json` in it. The same id and version
   * again answer the graphic held (`created: false`).
   */
  upload(zip: Uint8Array, options?: RequestOptions): Promise<GraphicsUploaded> {
    return this.http.request({
      method: 'POST',
      path: '/graphics',
      rawBody: zip,
      rawType: 'application/zip',
      idempotent: true,
      options,
    });
  }

  /** `GET /v1/graphics`: one page, in import order. */
  list(params: PageParams = {}, options?: RequestOptions): Promise<Page<Graphic>> {
    return this.http.request({ method: 'GET', path: '/graphics', query: { ...params }, options });
  }

  listAll(params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Graphic> {
    return paginate((cursor) => this.list({ ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/graphics/{graphicId}` */
  get(graphicId: string, options?: RequestOptions): Promise<Graphic> {
    return this.http.request({ method: 'GET', path: `/graphics/${seg(graphicId)}`, options });
  }

  /** `DELETE /v1/graphics/{graphicId}`: refused (409 `conflict`, naming the scenes) while a scene uses it. */
  async delete(graphicId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/graphics/${seg(graphicId)}`, options });
  }
}
