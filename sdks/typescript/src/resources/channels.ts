import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type {
  Channel,
  ChannelIn,
  ChannelUpdate,
  InputsPatch,
  InputsResult,
  OutputList,
  Page,
  PageParams,
  State,
} from '../types.js';
import { Resource, seg } from './base.js';

/** Channels: one graphics output each (docs/api.md, "Channels", "Inputs and state"). */
export class Channels extends Resource {
  /** `POST /v1/channels` (a create: sends an Idempotency-Key). */
  create(body: ChannelIn, options?: RequestOptions): Promise<Channel> {
    return this.http.request({ method: 'POST', path: '/channels', body, idempotent: true, options });
  }

  /** `GET /v1/channels`: one page, in creation order. */
  list(params: PageParams = {}, options?: RequestOptions): Promise<Page<Channel>> {
    return this.http.request({ method: 'GET', path: '/channels', query: { ...params }, options });
  }

  /** Every channel, following `nextCursor` page by page. */
  listAll(params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Channel> {
    return paginate((cursor) => this.list({ ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/channels/{id}` */
  get(id: string, options?: RequestOptions): Promise<Channel> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(id)}`, options });
  }

  /** `PATCH /v1/channels/{id}`: name and frame rate; fields left out keep their value. */
  update(id: string, body: ChannelUpdate, options?: RequestOptions): Promise<Channel> {
    return this.http.request({ method: 'PATCH', path: `/channels/${seg(id)}`, body, options });
  }

  /** `DELETE /v1/channels/{id}`: the channel, its scenes and its state. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/channels/${seg(id)}`, options });
  }

  /** `POST /v1/channels/{id}/output-token`: a new output token (renderers on the old one are closed with 4009). */
  rotateOutputToken(id: string, options?: RequestOptions): Promise<Channel> {
    return this.http.request({ method: 'POST', path: `/channels/${seg(id)}/output-token`, idempotent: true, options });
  }

  /**
   * `PATCH /v1/channels/{id}/inputs`: sets 1–100 inputs at the next frame, all or nothing; `null` returns an input
   * to its scene default. Answers the frame that first shows it.
   */
  patchInputs(id: string, inputs: InputsPatch, options?: RequestOptions): Promise<InputsResult> {
    return this.http.request({ method: 'PATCH', path: `/channels/${seg(id)}/inputs`, body: inputs, options });
  }

  /** `GET /v1/channels/{id}/state`: program, preview, inputs and clocks as they stand. */
  getState(id: string, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(id)}/state`, options });
  }

  /**
   * `GET /v1/channels/{id}/outputs`: the output pages connected to the server answering (docs/outputs.md): what each
   * painted, its lag, load errors and health, and the pages refused for their token.
   */
  listOutputs(id: string, options?: RequestOptions): Promise<OutputList> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(id)}/outputs`, options });
  }
}
