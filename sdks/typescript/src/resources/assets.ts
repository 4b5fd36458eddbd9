import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { Asset, AssetUploaded, Page, PageParams } from '../types.js';
import { Resource, seg } from './base.js';

/**
 * The workspace's asset library (docs/assets.md): images and fonts, typed from their bytes, content-addressed. Set an
 * `asset` input to an image's `path` (or `url`), and name a font's `path` in a text's `fontFamily`.
 */
export class Assets extends Resource {
  /**
   * `POST /v1/assets`: uploads the file's bytes (`name` is shown in lists). The same bytes again answer the asset that
   * holds them (`created: false`).
   */
  upload(data: Uint8Array, name: string, options?: RequestOptions): Promise<AssetUploaded> {
    return this.http.request({
      method: 'POST',
      path: '/assets',
      query: { name },
      rawBody: data,
      rawType: 'application/octet-stream',
      idempotent: true,
      options,
    });
  }

  /** `GET /v1/assets`: one page, in upload order. */
  list(params: PageParams = {}, options?: RequestOptions): Promise<Page<Asset>> {
    return this.http.request({ method: 'GET', path: '/assets', query: { ...params }, options });
  }

  listAll(params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Asset> {
    return paginate((cursor) => this.list({ ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/assets/{assetId}` */
  get(assetId: string, options?: RequestOptions): Promise<Asset> {
    return this.http.request({ method: 'GET', path: `/assets/${seg(assetId)}`, options });
  }

  /** `DELETE /v1/assets/{assetId}`: refused (409 `conflict`, naming the scenes) while a scene uses it. */
  async delete(assetId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/assets/${seg(assetId)}`, options });
  }
}
