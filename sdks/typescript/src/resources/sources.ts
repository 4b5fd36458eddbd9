import type { RequestOptions } from '../http.js';
import type { Page, Source, SourceDryRun, SourceFetch, SourceIn, SourcePatch, SourceRowMove } from '../types.js';
import { Resource, seg } from './base.js';

/** A channel's data sources: JSON feeds and CSVs (published Google Sheets) polled for values (docs/data-sources.md). */
export class Sources extends Resource {
  /** `POST /v1/channels/{id}/sources`: fetched at once, then every `intervalMs`. A create: sends an Idempotency-Key. */
  create(channelId: string, body: SourceIn, options?: RequestOptions): Promise<Source> {
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/sources`,
      body,
      idempotent: true,
      options,
    });
  }

  /** `GET /v1/channels/{id}/sources`: all of them, with their status. */
  list(channelId: string, options?: RequestOptions): Promise<Page<Source>> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(channelId)}/sources`, options });
  }

  /** `GET /v1/channels/{id}/sources/{sourceId}` */
  get(channelId: string, sourceId: string, options?: RequestOptions): Promise<Source> {
    return this.http.request({ method: 'GET', path: this.path(channelId, sourceId), options });
  }

  /** `PATCH /v1/channels/{id}/sources/{sourceId}`: any of create's fields; an edited source is fetched at once. */
  update(channelId: string, sourceId: string, body: SourcePatch, options?: RequestOptions): Promise<Source> {
    return this.http.request({ method: 'PATCH', path: this.path(channelId, sourceId), body, options });
  }

  /** Stops polling it (`paused: true`); its values stay on air. */
  pause(channelId: string, sourceId: string, options?: RequestOptions): Promise<Source> {
    return this.update(channelId, sourceId, { paused: true }, options);
  }

  /** Polls it again, fetching at once (`paused: false`). */
  resume(channelId: string, sourceId: string, options?: RequestOptions): Promise<Source> {
    return this.update(channelId, sourceId, { paused: false }, options);
  }

  /** `DELETE /v1/channels/{id}/sources/{sourceId}` */
  async delete(channelId: string, sourceId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: this.path(channelId, sourceId), options });
  }

  /** `POST /v1/channels/{id}/sources/test`: fetches and maps once, changing nothing. */
  test(channelId: string, body: SourceIn, options?: RequestOptions): Promise<SourceDryRun> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(channelId)}/sources/test`, body, options });
  }

  /** `POST …/sources/{sourceId}/refresh`: fetches now and applies what changed; the status tells how it went. */
  refresh(channelId: string, sourceId: string, options?: RequestOptions): Promise<Source> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, sourceId)}/refresh`, options });
  }

  /**
   * `POST …/sources/{sourceId}/row`: moves a CSV source's cursor (`{ move: 'next' | 'previous' | 'first' }` or
   * `{ number }`) and applies the row it lands on.
   */
  row(channelId: string, sourceId: string, body: SourceRowMove, options?: RequestOptions): Promise<Source> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, sourceId)}/row`, body, options });
  }

  /** `GET …/sources/{sourceId}/fetches`: the last 50 fetches, newest first. */
  fetches(channelId: string, sourceId: string, options?: RequestOptions): Promise<Page<SourceFetch>> {
    return this.http.request({ method: 'GET', path: `${this.path(channelId, sourceId)}/fetches`, options });
  }

  private path(channelId: string, sourceId: string): string {
    return `/channels/${seg(channelId)}/sources/${seg(sourceId)}`;
  }
}
