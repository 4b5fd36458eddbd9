import type { RequestOptions } from '../http.js';
import type { Page, Template } from '../types.js';
import { Resource } from './base.js';

/** The built-in templates, for `scenes.create(channelId, { name, template })`. */
export class Templates extends Resource {
  /** `GET /v1/templates`: all of them at once (`nextCursor` is always null). */
  list(options?: RequestOptions): Promise<Page<Template>> {
    return this.http.request({ method: 'GET', path: '/templates', options });
  }
}
