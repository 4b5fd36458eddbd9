/**
 * Connections for deliveries, pooled per subscription (docs/webhooks.md, "Fair delivery"): each subscription has a
 * guarded agent of its own, with as many connections as it may have attempts in flight. With one pool per origin
 * shared by every workspace, endpoints that hang on a host would hold that host's connections, and every other
 * subscription to the same host (a shared automation service, say) would queue behind them whatever the worker's
 * caps said. Each pool also keeps its own TLS sessions.
 */
import type { Agent } from 'undici';
import type { Logger } from 'pino';

export class EndpointPools {
  private readonly agents = new Map<string, Agent>();

  /** `make` builds one subscription's agent. */
  constructor(
    private readonly make: () => Agent,
    private readonly logger: Logger,
  ) {}

  /** The agent deliveries to subscription `id` go through (made on first use). */
  for(id: string): Agent {
    let agent = this.agents.get(id);
    if (!agent) this.agents.set(id, (agent = this.make()));
    return agent;
  }

  /** The subscription is gone: its connections close once the attempts on them end (each has its timeout). */
  drop(id: string): void {
    const agent = this.agents.get(id);
    if (!agent) return;
    this.agents.delete(id);
    agent.close().catch((err: unknown) => this.logger.warn({ err, webhookId: id }, 'closing webhook connections'));
  }

  /** Closes every connection now, attempts in flight included (stop: they are sent again after a restart). */
  async destroy(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((agent) => agent.destroy()));
  }

  get size(): number {
    return this.agents.size;
  }
}
