/**
 * Tells listeners that something of a channel changed (its outputs, its data sources), at most once per `everyMs`
 * per channel: changes within that time are told together, after it (the last change is always told). Timers do not
 * keep the process alive.
 */
export class ChangeThrottle {
  private readonly listeners = new Set<(channelId: string) => void>();
  private readonly channels = new Map<string, { timer: NodeJS.Timeout | null; lastAt: number }>();

  constructor(
    private readonly everyMs: number,
    private readonly now: () => number,
  ) {}

  listen(listener: (channelId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(channelId: string): void {
    let c = this.channels.get(channelId);
    if (!c) this.channels.set(channelId, (c = { timer: null, lastAt: 0 }));
    if (c.timer) return;
    const entry = c;
    entry.timer = setTimeout(
      () => {
        entry.timer = null;
        entry.lastAt = this.now();
        for (const listener of this.listeners) listener(channelId);
      },
      Math.max(0, entry.lastAt + this.everyMs - this.now()),
    );
    entry.timer.unref();
  }

  /** The channel is gone: nothing more to tell once its pending change is told. */
  forget(channelId: string): void {
    const c = this.channels.get(channelId);
    if (c && !c.timer) this.channels.delete(channelId);
  }

  stop(): void {
    for (const c of this.channels.values()) if (c.timer) clearTimeout(c.timer);
    this.channels.clear();
  }
}
