/**
 * A dispatcher for testing redirects out of a local feed: requests to `trusted` origins (the feed, standing in
 * for a public server) go through `open`, every other request through `guarded`. A test feed listens on
 * 127.0.0.1, which a guarded agent that refuses private targets would refuse at the first hop; with this, only
 * the hops after the first meet the real rules.
 */
import type { Dispatcher } from 'undici';

export function splitDispatcher(guarded: Dispatcher, open: Dispatcher, trusted: string[]): Dispatcher {
  const origins = new Set(trusted.map((o) => new URL(o).origin));
  return guarded.compose(
    (dispatch) => (options, handler) =>
      origins.has(new URL(String(options.origin)).origin)
        ? open.dispatch(options, handler)
        : dispatch(options, handler),
  );
}
