/**
 * OnairClient: the REST API by group (`client.channels.patchInputs(id, { scoreA: 3 })`) and the live WebSocket
 * client (`client.live(channelId)`).
 */
import { HttpClient, type FetchLike, type RequestOptions } from './http.js';
import { LiveChannel } from './live/channel.js';
import type { LiveChannelOptions } from './live/types.js';
import { Channels } from './resources/channels.js';
import { AsRun } from './resources/as-run.js';
import { Events } from './resources/events.js';
import { History } from './resources/history.js';
import { Hooks } from './resources/hooks.js';
import { IncomingHooks } from './resources/incoming-hooks.js';
import { Sources } from './resources/sources.js';
import { Keys } from './resources/keys.js';
import { Playout } from './resources/playout.js';
import { Rundowns } from './resources/rundowns.js';
import { Schedule } from './resources/schedule.js';
import { Scenes } from './resources/scenes.js';
import { Templates } from './resources/templates.js';
import { Assets } from './resources/assets.js';
import { Graphics } from './resources/graphics.js';
import { Webhooks } from './resources/webhooks.js';
import type { Me } from './types.js';
import { envVar, normalizeBaseUrl } from './util.js';

export interface OnairClientOptions {
  /** `onair_sk_…`. Default: the environment variable ONAIR_API_KEY (where a `process` exists). */
  apiKey?: string;
  /** The server, with or without a trailing slash and `/v1`. Default `http://localhost:8080`. */
  baseUrl?: string;
  /** Per-attempt timeout of a request, answer body included. Default 10,000 ms. */
  timeoutMs?: number;
  /** Retries of a 429 (or a 503 with Retry-After) after waiting what the server asks. Default 3. */
  maxRetries?: number;
  /** The longest single wait before a retry: a longer Retry-After fails at once. Default 30,000 ms. */
  maxRetryWaitMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double…). */
  fetch?: FetchLike;
}

export class OnairClient {
  readonly baseUrl: string;
  readonly channels: Channels;
  readonly scenes: Scenes;
  readonly playout: Playout;
  readonly rundowns: Rundowns;
  readonly schedule: Schedule;
  readonly history: History;
  readonly templates: Templates;
  readonly events: Events;
  readonly asRun: AsRun;
  readonly keys: Keys;
  readonly webhooks: Webhooks;
  readonly assets: Assets;
  readonly graphics: Graphics;
  readonly incomingHooks: IncomingHooks;
  readonly sources: Sources;
  readonly hooks: Hooks;
  private readonly http: HttpClient;
  private readonly apiKey: string | undefined;

  constructor(options: OnairClientOptions = {}) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? 'http://localhost:8080');
    this.apiKey = options.apiKey ?? envVar('ONAIR_API_KEY');
    this.http = new HttpClient({
      baseUrl: this.baseUrl,
      apiKey: this.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 3,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 30_000,
      fetch: options.fetch,
    });
    this.channels = new Channels(this.http);
    this.scenes = new Scenes(this.http);
    this.playout = new Playout(this.http);
    this.rundowns = new Rundowns(this.http);
    this.schedule = new Schedule(this.http);
    this.history = new History(this.http);
    this.templates = new Templates(this.http);
    this.events = new Events(this.http);
    this.asRun = new AsRun(this.http);
    this.keys = new Keys(this.http);
    this.webhooks = new Webhooks(this.http);
    this.assets = new Assets(this.http);
    this.graphics = new Graphics(this.http);
    this.incomingHooks = new IncomingHooks(this.http);
    this.sources = new Sources(this.http);
    this.hooks = new Hooks(this.http);
  }

  /** `GET /v1/me`: the calling key, its workspace, permissions and channel lock. */
  me(options?: RequestOptions): Promise<Me> {
    return this.hooks.me(options);
  }

  /**
   * A live WebSocket client for one channel, with this client's server and key. It starts connecting at once
   * (unless `connect: false`); `await live.ready()` for the first snapshot.
   */
  live(channelId: string, options: Omit<LiveChannelOptions, 'channelId'> = {}): LiveChannel {
    const auth = options.outputToken === undefined ? { apiKey: options.apiKey ?? this.apiKey } : {};
    return new LiveChannel({ baseUrl: this.baseUrl, ...auth, ...options, channelId });
  }
}
