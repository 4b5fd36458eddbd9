/**
 * The data-source shapes of docs/data-sources.md, written out from the documentation (not imported from src/) so
 * the tests check the contract, and a few steps the tests share: a feed whose answer the test changes, with the
 * time of every request it got.
 */
import type http from 'node:http';
import { expectStatus, type Api, type Event, type List } from './api.js';

export interface Source {
  id: string;
  channelId: string;
  type: 'json_url' | 'csv_url';
  name: string;
  url: string;
  intervalMs: number;
  mapping: Record<string, string>;
  row: { by: 'number'; number: number } | { by: 'match'; column: string; value: string } | { by: 'cursor' } | null;
  table: { input: string; path?: string } | null;
  paused: boolean;
  status: {
    state: 'pending' | 'ok' | 'failing' | 'paused';
    lastFetchAt: string | null;
    lastChangeAt: string | null;
    lastError: string | null;
    etag: string | null;
    cursor: number;
  };
  createdAt: string;
  updatedAt: string;
}

export interface SourceFetch {
  at: string;
  status: number | null;
  bytes: number;
  ms: number;
  changed: boolean;
  error: string | null;
}

export interface DryRun {
  values: Record<string, unknown>;
  unmapped: string[];
  fetch: { status: number | null; bytes: number; ms: number };
  error: string | null;
}

export const sourcesPath = (channelId: string) => `/v1/channels/${channelId}/sources`;

export async function addSource(call: Api, channelId: string, body: Record<string, unknown>): Promise<Source> {
  return expectStatus(await call<Source>('POST', sourcesPath(channelId), body), 201);
}

export async function getSource(call: Api, source: Source): Promise<Source> {
  return expectStatus(await call<Source>('GET', `${sourcesPath(source.channelId)}/${source.id}`), 200);
}

export async function fetchesOf(call: Api, source: Source): Promise<SourceFetch[]> {
  return expectStatus(
    await call<List<SourceFetch>>('GET', `${sourcesPath(source.channelId)}/${source.id}/fetches`),
    200,
  ).data;
}

/** The channel's `channel.bind_updated` events a data source caused, oldest first. */
export async function sourceEvents(call: Api, channelId: string): Promise<Event[]> {
  const list = expectStatus(
    await call<List<Event>>('GET', `/v1/events?type=channel.bind_updated&channelId=${channelId}&limit=100`),
    200,
  );
  return list.data.filter((e) => e.data.source === 'data_source');
}

/** What a feed answers now: a status, headers and a body the test changes between fetches. */
export interface FeedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A handler answering `answer` as it is when each request comes, recording when each came and its headers. */
export function liveFeed(answer: FeedAnswer) {
  const seen: { at: number; headers: http.IncomingHttpHeaders }[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ at: Date.now(), headers: req.headers });
    res.writeHead(answer.status, answer.headers).end(answer.status === 304 ? undefined : answer.body);
  };
  return { answer, seen, handler };
}

export const json = (value: unknown, headers: Record<string, string> = {}): FeedAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

export const csv = (text: string): FeedAnswer => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: text });
