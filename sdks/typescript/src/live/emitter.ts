/**
 * A small typed event emitter (no Node `events`, so it runs in browsers). Unlike Node's, an `error` with no
 * listener is not thrown: the live client reports errors it recovers from, and nobody has to listen.
 */
export type Listener<A extends unknown[]> = (...args: A) => void;

export class Emitter<Events extends { [K in keyof Events]: unknown[] }> {
  private readonly listeners = new Map<keyof Events, Set<unknown>>();

  /** Adds a listener; answers a function that removes it. */
  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => this.off(name, listener);
  }

  /** Adds a listener called at most once. */
  once<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    const off = this.on(name, (...args: Events[K]) => {
      off();
      listener(...args);
    });
    return off;
  }

  off<K extends keyof Events>(name: K, listener: Listener<Events[K]>): void {
    this.listeners.get(name)?.delete(listener);
  }

  protected emit<K extends keyof Events>(name: K, ...args: Events[K]): void {
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        (listener as Listener<Events[K]>)(...args);
      } catch (err) {
        // A listener's bug must not break the connection's bookkeeping: report it on the next turn.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
