/** The connection's settings as Companion stores them: the address in its config, the API key in its secrets. */
import { Regex, type SomeCompanionConfigField } from '@companion-module/base';

export interface OnairConfig {
  [key: string]: string | number | boolean;
  host: string;
  port: number;
  tls: boolean;
  /** Channel ids, comma or space separated; empty: every channel the key may see. */
  channels: string;
}

export interface OnairSecrets {
  [key: string]: string;
  apiKey: string;
}

export function configFields(): SomeCompanionConfigField[] {
  return [
    { type: 'textinput', id: 'host', label: 'Server address', width: 8, default: '127.0.0.1', regex: Regex.HOSTNAME },
    { type: 'number', id: 'port', label: 'Port', width: 4, default: 8080, min: 1, max: 65535 },
    { type: 'checkbox', id: 'tls', label: 'TLS (https / wss)', width: 4, default: false },
    {
      type: 'textinput',
      id: 'channels',
      label: 'Channels to follow',
      width: 12,
      default: '',
      tooltip: 'Channel ids (ch_…), separated by commas. Empty: every channel the key may see.',
    },
    {
      type: 'secret-text',
      id: 'apiKey',
      label: 'API key',
      width: 12,
      tooltip: 'An onair API key (onair_sk_…) with channels:read, playout:write and inputs:write.',
    },
  ];
}

/** The channel ids to follow, or '*' for every channel the key may see. */
export function followedChannels(config: OnairConfig): string[] | '*' {
  const ids = String(config.channels ?? '')
    .split(/[\s,]+/)
    .filter((id) => id !== '');
  return ids.length === 0 ? '*' : [...new Set(ids)];
}

export interface Endpoint {
  httpBase: string;
  wsUrl: string;
  key: string;
}

/** Where the server is, or null when the settings cannot name one (no host or no key). */
export function endpointOf(config: OnairConfig, secrets: OnairSecrets | undefined): Endpoint | null {
  const host = String(config.host ?? '').trim();
  const key = String(secrets?.apiKey ?? '').trim();
  const port = Number(config.port);
  if (host === '' || key === '' || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const httpBase = `${config.tls ? 'https' : 'http'}://${hostPart}:${port}`;
  const followed = followedChannels(config);
  const channels = followed === '*' ? '*' : followed.map(encodeURIComponent).join(',');
  const wsUrl = `${config.tls ? 'wss' : 'ws'}://${hostPart}:${port}/v1/ws?channels=${channels}&scenes=all`;
  return { httpBase, wsUrl, key };
}
