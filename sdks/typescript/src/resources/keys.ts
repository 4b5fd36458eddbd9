import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { Key, KeyCreated, KeyIn, Page, PageParams } from '../types.js';
import { Resource, seg } from './base.js';

/** API keys (docs/api.md, "API keys"). The secret is in the answer of `create` only. */
export class Keys extends Resource {
  /** `POST /v1/keys` (a create: sends an Idempotency-Key). */
  create(body: KeyIn, options?: RequestOptions): Promise<KeyCreated> {
    return this.http.request({ method: 'POST', path: '/keys', body, idempotent: true, options });
  }

  /** `GET /v1/keys`: one page; revoked keys stay listed. */
  list(params: PageParams = {}, options?: RequestOptions): Promise<Page<Key>> {
    return this.http.request({ method: 'GET', path: '/keys', query: { ...params }, options });
  }

  listAll(params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Key> {
    return paginate((cursor) => this.list({ ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/keys/{keyId}` */
  get(keyId: string, options?: RequestOptions): Promise<Key> {
    return this.http.request({ method: 'GET', path: `/keys/${seg(keyId)}`, options });
  }

  /** `DELETE /v1/keys/{keyId}`: revokes at once (its WebSockets close with 4001). Revoking twice is fine. */
  async revoke(keyId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/keys/${seg(keyId)}`, options });
  }
}
