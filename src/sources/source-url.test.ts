import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import type { Resolve } from '../webhooks/endpoint-guard/index.js';
import { checkSourceUrl, intervalRule, parseSourceUrl } from './source-url.js';

const SHEET_ID = '2PACX-1vQx_abc-DEF123';
const DOC_ID = '1AbC_dEf-123';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  return expect.fail('the URL should have been refused');
}

describe('parseSourceUrl', () => {
  it('takes any http(s) URL of an acceptable form, not a sheet', () => {
    for (const raw of ['https://feeds.example.com/game.json', 'http://127.0.0.1:8080/score.csv']) {
      const { url, sheet } = parseSourceUrl('json_url', raw);
      expect(url.href).toBe(new URL(raw).href);
      expect(sheet).toBe(false);
    }
  });

  it("refuses the webhooks' bad forms with endpoint_refused naming url", () => {
    for (const raw of [
      'ftp://example.com/x.csv',
      'file:///etc/passwd',
      'not a url',
      'https://user:pass@example.com/x.json',
      'https://example.com\\x.json',
      'https://example.com:0/',
    ]) {
      const err = refusal(() => parseSourceUrl('json_url', raw));
      expect(err.code, raw).toBe('endpoint_refused');
      expect(err.status).toBe(422);
      expect(err.errors?.[0]?.path).toBe('url');
    }
  });

  it('recognises a published Google Sheet and an exported or queried one as CSV', () => {
    for (const raw of [
      `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pub?output=csv`,
      `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pub?gid=0&single=true&output=csv`,
      `https://docs.google.com/spreadsheets/d/${DOC_ID}/export?format=csv`,
      `https://docs.google.com/spreadsheets/d/${DOC_ID}/export?format=csv&gid=123`,
      `https://docs.google.com/spreadsheets/d/${DOC_ID}/gviz/tq?tqx=out:csv&sheet=Results`,
    ]) {
      expect(parseSourceUrl('csv_url', raw).sheet, raw).toBe(true);
    }
    expect(parseSourceUrl('csv_url', 'https://example.com/spreadsheets/d/e/x/pub?output=csv').sheet).toBe(false);
  });

  it('refuses a Sheets link that is not its CSV, telling what to publish', () => {
    for (const raw of [
      `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pubhtml`,
      `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pub?output=html`,
      `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pub?output=tsv`,
      `https://docs.google.com/spreadsheets/d/${DOC_ID}/edit#gid=0`,
      `https://docs.google.com/spreadsheets/d/${DOC_ID}/export?format=xlsx`,
    ]) {
      const err = refusal(() => parseSourceUrl('csv_url', raw));
      expect(err.code, raw).toBe('endpoint_refused');
      expect(err.errors?.[0]?.path).toBe('url');
      expect(err.errors?.[0]?.message).toMatch(/Publish to web.*\.csv/);
    }
  });

  it('refuses a Sheets link for a JSON source, pointing at csv_url', () => {
    const err = refusal(() =>
      parseSourceUrl('json_url', `https://docs.google.com/spreadsheets/d/e/${SHEET_ID}/pub?output=csv`),
    );
    expect(err.message).toMatch(/csv_url/);
  });
});

describe('checkSourceUrl', () => {
  const resolveTo =
    (address: string): Resolve =>
    async () => [{ address, family: 4 }];

  it('applies the host rules of the server: a private address is refused unless allowed', async () => {
    const raw = 'https://feed.example.com/game.json';
    await expect(
      checkSourceUrl('json_url', raw, { allowPrivate: false, resolve: resolveTo('10.0.0.7') }),
    ).rejects.toMatchObject({ code: 'endpoint_refused', errors: [{ path: 'url' }] });
    await expect(
      checkSourceUrl('json_url', 'http://feed.example.com/', {
        allowPrivate: false,
        resolve: resolveTo('93.184.216.34'),
      }),
    ).rejects.toMatchObject({ code: 'endpoint_refused' });
    const ok = await checkSourceUrl('json_url', raw, { allowPrivate: false, resolve: resolveTo('93.184.216.34') });
    expect(ok.url.href).toBe(raw);
    const local = await checkSourceUrl('csv_url', 'http://10.0.0.7/x.csv', { allowPrivate: true });
    expect(local.sheet).toBe(false);
  });
});

describe('intervalRule', () => {
  it('gives feeds 1 s / 10 s and published sheets 30 s / 60 s, both at most an hour', () => {
    expect(intervalRule('json_url', false)).toEqual({ minMs: 1_000, defaultMs: 10_000, maxMs: 3_600_000 });
    expect(intervalRule('csv_url', false)).toEqual({ minMs: 1_000, defaultMs: 10_000, maxMs: 3_600_000 });
    expect(intervalRule('csv_url', true)).toEqual({ minMs: 30_000, defaultMs: 60_000, maxMs: 3_600_000 });
  });
});
