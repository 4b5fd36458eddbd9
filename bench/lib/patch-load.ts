/**
 * Events for the webhooks benchmark, made the way a client makes them: `PATCH /v1/channels/:id/inputs` at a
 * steady rate, channels taking turns, every patch a new `scoreA` (so each makes one `channel.bind_updated`).
 * Each channel stays under the `updates` limit (30/s) as long as the rate per channel does.
 */
import { Pool } from 'undici';
import { LOCALHOST } from './child.js';
import { pace } from './pacer.js';

export interface PatchTotals {
  /** Answered 200: one event each. */
  ok: number;
  /** Refused by the rate limiter (429). */
  refused: number;
  failed: number;
}

export class PatchLoad {
  private readonly pool: Pool;
  private seq = 0;
  private next = 0;

  constructor(
    port: number,
    private readonly key: string,
    private readonly channels: readonly string[],
  ) {
    this.pool = new Pool(`http://${LOCALHOST}:${port}`, { connections: 64 });
  }

  /** `count` patches at `perSecond`; resolves once every one is answered. */
  async run(perSecond: number, count: number): Promise<PatchTotals> {
    const totals: PatchTotals = { ok: 0, refused: 0, failed: 0 };
    const answers: Promise<void>[] = [];
    await pace(perSecond, count, () => answers.push(this.patch(totals)));
    await Promise.all(answers);
    return totals;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async patch(totals: PatchTotals): Promise<void> {
    const channel = this.channels[this.next++ % this.channels.length]!;
    try {
      const res = await this.pool.request({
        method: 'PATCH',
        path: `/v1/channels/${channel}/inputs`,
        headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scoreA: ++this.seq }),
      });
      await res.body.dump();
      if (res.statusCode === 200) totals.ok++;
      else if (res.statusCode === 429) totals.refused++;
      else totals.failed++;
    } catch {
      totals.failed++;
    }
  }
}
