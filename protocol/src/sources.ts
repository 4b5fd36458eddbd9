/**
 * A channel's data sources as the real-time WebSocket pushes them (docs/data-sources.md, docs/api.md): what
 * `GET /v1/channels/{id}/sources` shows of each source's state, without its configuration (URL, mapping) or the time
 * of each fetch, so the message changes only when something an operator sees changes.
 */

/** One source's state; `state` is `paused` while the source is paused. */
export interface SourceSummary {
  id: string;
  name: string;
  type: 'json_url' | 'csv_url';
  paused: boolean;
  state: 'pending' | 'ok' | 'failing' | 'paused';
  lastError: string | null;
  lastChangeAt: string | null;
  /** The row the source reads now (1-based); null unless it picks its row by cursor. */
  cursor: number | null;
}

/**
 * Goes to key and session connections only, never to output pages: at once when the channel has sources, then
 * whenever one is created, edited, paused, resumed or deleted or its state, error or row changes (at most twice a
 * second per channel; the last change is always sent). Every message lists all the channel's sources.
 */
export interface SourcesMessage {
  type: 'sources';
  channelId: string;
  sources: SourceSummary[];
}
