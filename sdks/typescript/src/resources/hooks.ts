import type { RequestOptions } from '../http.js';
import type { IncomingHookAnswer, Me } from '../types.js';
import { signWebhook } from '../webhooks.js';
import { Resource, seg } from './base.js';

export interface HookPostOptions extends RequestOptions {
  /** The hook's `whsec_…` secret: signs the post (required by hooks created with `requireSignature`). */
  secret?: string;
  /** Answer what would be applied, applying nothing (`?dryRun=1`). */
  dryRun?: boolean;
}

/** Posting to an incoming hook (no API key: the URL's token is the credential), and who the key is. */
export class Hooks extends Resource {
  /**
   * `POST /v1/hooks/{token}`: posts `body` to an incoming hook, given its full URL (as `incomingHooks.create`
   * answered it) or its token. An object is sent as JSON; a string or bytes are sent exactly as given. With a
   * `secret` the exact bytes sent are signed (`X-Service-Timestamp`, `X-Service-Signature`).
   */
  async post(
    hookUrlOrToken: string,
    body: unknown,
    secretOrOptions?: string | HookPostOptions,
  ): Promise<IncomingHookAnswer> {
    const { secret, dryRun, ...options }: HookPostOptions =
      typeof secretOrOptions === 'string' ? { secret: secretOrOptions } : (secretOrOptions ?? {});
    const raw = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    const signature = secret === undefined ? undefined : await signWebhook(raw, secret);
    return this.http.request({
      method: 'POST',
      path: /^https?:\/\//i.test(hookUrlOrToken) ? hookUrlOrToken : `/hooks/${seg(hookUrlOrToken)}`,
      query: dryRun ? { dryRun: 1 } : undefined,
      rawBody: raw,
      auth: false,
      headers: signature,
      options,
    });
  }

  /** `GET /v1/me`: the calling key, its workspace, permissions and channel lock. */
  me(options?: RequestOptions): Promise<Me> {
    return this.http.request({ method: 'GET', path: '/me', options });
  }
}
