/** The onair REST API as the module uses it: the channels' names at connect, and ops when the socket is down. */
import { OpError } from './socket-client.js';

export interface ChannelInfo {
  id: string;
  name: string;
}

export class RestClient {
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      const problem = parse(text) as { code?: string; detail?: string } | null;
      throw new OpError(problem?.code ?? `http_${res.status}`, problem?.detail ?? `HTTP ${res.status}`);
    }
    return parse(text) as T;
  }

  /** Every channel the key may see (the API pages them). */
  async channels(): Promise<ChannelInfo[]> {
    const out: ChannelInfo[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await this.request<{ data: ChannelInfo[]; nextCursor: string | null }>(
        'GET',
        `/v1/channels?limit=100${query}`,
      );
      out.push(...page.data.map(({ id, name }) => ({ id, name })));
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }
}

function parse(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
