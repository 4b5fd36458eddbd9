/**
 * What the output page's URL asks for: `/render/<channelId>?token=…&bus=program|preview&clean=1`, or
 * `/render/<channelId>?sketch=1` for a page that draws what its parent posts (sketch-feed.ts). `monitor=1`: a
 * dashboard's monitor, which draws the channel like any output page but is not one of its outputs.
 */

export type Bus = 'program' | 'preview';

export interface PageParams {
  /** Empty when the path holds no channel id. */
  channelId: string;
  token: string | null;
  bus: Bus;
  /** `clean=1`: no "PREVIEW" badge on the preview bus (a clean feed for a multiviewer). */
  clean: boolean;
  /**
   * `sketch=1`: no socket; the page draws the snapshots its same-origin parent posts (a scene editor's preview).
   * It draws the program bus, with no badge.
   */
  sketch: boolean;
  /**
   * `monitor=1`: an operator's monitor (the dashboard's program and preview): it reports nothing, so it is never
   * listed as an output and never confirms what aired.
   */
  monitor: boolean;
}

export function parsePageParams(pathname: string, search: string): PageParams {
  const query = new URLSearchParams(search);
  const match = /\/render\/([^/]+)\/?$/.exec(pathname);
  const flag = (name: string) => query.get(name) === '1' || query.get(name) === 'true';
  const sketch = flag('sketch');
  return {
    channelId: match?.[1] ? safeDecode(match[1]) : '',
    token: query.get('token'),
    bus: !sketch && query.get('bus') === 'preview' ? 'preview' : 'program',
    clean: sketch || flag('clean'),
    sketch,
    monitor: sketch || flag('monitor'),
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The render socket on the same host that served the page, so TLS and host name always match. */
export function socketUrl(protocol: string, host: string, params: PageParams): string {
  const scheme = protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams({ channel: params.channelId });
  if (params.token !== null) query.set('token', params.token);
  return `${scheme}://${host}/v1/ws?${query.toString()}`;
}

/**
 * Where the page asks whether its token still opens the channel (204, or 401 as the socket's upgrade answers):
 * a browser reports a refused upgrade only as a close with code 1006, the same as a server that is down.
 */
export function accessUrl(params: PageParams): string {
  const query = new URLSearchParams({ token: params.token ?? '' });
  return `/render/${encodeURIComponent(params.channelId)}/access?${query.toString()}`;
}
