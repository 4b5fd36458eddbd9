/** What the output page's URL asks for: `/render/<channelId>?token=…&bus=program|preview`. */

export type Bus = 'program' | 'preview';

export interface PageParams {
  /** Empty when the path holds no channel id. */
  channelId: string;
  token: string | null;
  bus: Bus;
}

export function parsePageParams(pathname: string, search: string): PageParams {
  const query = new URLSearchParams(search);
  const match = /\/render\/([^/]+)\/?$/.exec(pathname);
  return {
    channelId: match?.[1] ? safeDecode(match[1]) : '',
    token: query.get('token'),
    bus: query.get('bus') === 'preview' ? 'preview' : 'program',
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
