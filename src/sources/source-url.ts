/**
 * Which URLs a data source may poll, and how often. The form rules are the outgoing webhooks' (a user name, a
 * backslash or a control character refused alike, endpoint-guard); the host rules run at save (checkSourceUrl) and
 * again at every connection (the guarded agent). A published Google Sheet is recognised because Google republishes
 * it only every few minutes and throttles eager readers: it gets a longer interval.
 */
import { AppError } from '../errors.js';
import {
  checkEndpoint,
  checkEndpointSyntax,
  EndpointRefused,
  type CheckEndpointOptions,
} from '../webhooks/endpoint-guard/index.js';

export type SourceType = 'json_url' | 'csv_url';

export interface SourceUrl {
  url: URL;
  /** A published Google Sheet (CSV): polled no more than every 30 s. */
  sheet: boolean;
}

export interface IntervalRule {
  minMs: number;
  defaultMs: number;
  maxMs: number;
}

const HOUR_MS = 3_600_000;
const FEED_INTERVAL: IntervalRule = { minMs: 1_000, defaultMs: 10_000, maxMs: HOUR_MS };
const SHEET_INTERVAL: IntervalRule = { minMs: 30_000, defaultMs: 60_000, maxMs: HOUR_MS };

/** What to do in Google Sheets to get a link onair can read. */
const PUBLISH_HINT =
  'in Google Sheets choose File → Share → Publish to web, pick the sheet and "Comma-separated values (.csv)", ' +
  'and use the link it gives';

/**
 * The URL, parsed, with whether it is a published Google Sheet. Throws 422 endpoint_refused naming `url` for a
 * form the webhooks refuse, a scheme other than http(s), a Sheets link for a JSON source, or a Sheets link that
 * is not the sheet's CSV (an /edit or HTML link answers a sign-in or web page, never the data).
 */
export function parseSourceUrl(type: SourceType, raw: string): SourceUrl {
  const url = syntaxChecked(raw);
  if (!isSheetsLink(url)) return { url, sheet: false };
  if (type === 'json_url') {
    throw refused(`a Google Sheet is read as CSV: make this a csv_url source (${PUBLISH_HINT})`);
  }
  if (!isSheetCsv(url)) throw refused(`this Sheets link is not the sheet's CSV: ${PUBLISH_HINT}`);
  return { url, sheet: true };
}

/**
 * parseSourceUrl, then the webhooks' host rules: a public host whose every address is public (a lookup is made),
 * unless private targets are allowed for this server.
 */
export async function checkSourceUrl(type: SourceType, raw: string, opts: CheckEndpointOptions): Promise<SourceUrl> {
  const parsed = parseSourceUrl(type, raw);
  try {
    return { url: await checkEndpoint(raw, opts), sheet: parsed.sheet };
  } catch (err) {
    throw asRefusal(err);
  }
}

export function intervalRule(type: SourceType, sheet: boolean): IntervalRule {
  return type === 'csv_url' && sheet ? SHEET_INTERVAL : FEED_INTERVAL;
}

function isSheetsLink(url: URL): boolean {
  return url.hostname === 'docs.google.com' && url.pathname.startsWith('/spreadsheets/');
}

/** Published to the web (`/d/e/<id>/pub?output=csv`), exported (`/d/<id>/export?format=csv`) or queried as CSV. */
function isSheetCsv(url: URL): boolean {
  const path = url.pathname;
  const q = url.searchParams;
  if (/^\/spreadsheets\/d\/e\/[\w-]+\/pub$/.test(path)) return q.get('output') === 'csv';
  if (/^\/spreadsheets\/d\/[\w-]+\/export$/.test(path)) return q.get('format') === 'csv';
  if (/^\/spreadsheets\/d\/[\w-]+\/gviz\/tq$/.test(path)) return q.get('tqx')?.split(';').includes('out:csv') === true;
  return false;
}

/** The form rules and http(s); the host rules wait for checkSourceUrl (they depend on the server's setting). */
function syntaxChecked(raw: string): URL {
  try {
    return checkEndpointSyntax(raw, { allowPrivate: true });
  } catch (err) {
    throw asRefusal(err);
  }
}

function asRefusal(err: unknown): unknown {
  return err instanceof EndpointRefused ? refused(err.reason) : err;
}

/** The webhooks' refusal (subscription-desk.ts), named at the source's `url`. */
function refused(reason: string): AppError {
  return new AppError('endpoint_refused', `This source URL is refused: ${reason}.`, {
    errors: [{ path: 'url', message: reason }],
    extra: { reason },
  });
}
