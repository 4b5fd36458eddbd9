import { isIP } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALLOWED_URLS, REFUSED_URLS } from '../../../test/fixtures/ssrf-urls.js';
import { checkEndpoint, checkEndpointSyntax, EndpointRefused, REFUSAL, type Resolve } from './index.js';

/** A resolver that answers `addresses` for every name and records what it was asked. */
function answering(...addresses: string[]): { resolve: Resolve; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolve = async (hostname) => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return { resolve, asked };
}

async function refusal(promise: Promise<unknown>): Promise<EndpointRefused> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EndpointRefused);
  return err as EndpointRefused;
}

const REASONS: string[] = Object.values(REFUSAL);

describe('refused URL forms', () => {
  it('covers at least 110 forms, each once', () => {
    expect(REFUSED_URLS.length).toBeGreaterThanOrEqual(110);
    expect(new Set(REFUSED_URLS.map((u) => u.url)).size).toBe(REFUSED_URLS.length);
  });

  it.each(REFUSED_URLS)('refuses $url ($why) by its own rules, not by DNS', async ({ url }) => {
    const { resolve, asked } = answering('93.184.216.34');
    const err = await refusal(checkEndpoint(url, { allowPrivate: false, resolve }));
    expect(REASONS).toContain(err.message);
    expect(err.reason).toBe(err.message);
    expect(asked).toEqual([]);
    expect(() => checkEndpointSyntax(url, { allowPrivate: false })).toThrow(EndpointRefused);
  });

  it('gives one reason for every refused host, never naming the range or the rule', async () => {
    const reasonOf = async (url: string) => (await refusal(checkEndpoint(url, { allowPrivate: false }))).message;
    expect(await reasonOf('http://example.com/')).toBe('the URL must use https');
    expect(await reasonOf('https://[fe80::1%25eth0]/')).toBe('the URL is not valid');
    for (const url of [
      'https://printer.local/',
      'https://intranet/',
      'https://169.254.169.254/',
      'https://2130706433/',
      'https://[::ffff:7f00:1]/',
    ]) {
      expect(await reasonOf(url), url).toBe(REFUSAL.host);
    }
  });

  it('refuses user names and passwords, backslashes, control characters and port 0 on public hosts', async () => {
    const { resolve } = answering('93.184.216.34');
    const reasonOf = async (url: string) =>
      (await refusal(checkEndpoint(url, { allowPrivate: false, resolve }))).reason;
    for (const url of ['https://user:pass@example.com/', 'https://127.0.0.1@1.1.1.1/', 'https://@example.com/']) {
      expect(await reasonOf(url), url).toBe(REFUSAL.credentials);
    }
    for (const url of [
      'https://example.com\\hook',
      'https://exa\tmple.com/',
      'https://example.com/\nhook',
      '\u0001https://example.com/',
      'https://example.com:0/',
      'https://1.1.1.1:00/',
    ]) {
      expect(await reasonOf(url), JSON.stringify(url)).toBe(REFUSAL.invalid);
    }
    // Even where private targets are allowed (tests): the form rules hold for every URL.
    await expect(checkEndpoint('https://user:pass@127.0.0.1/', { allowPrivate: true })).rejects.toThrow(
      REFUSAL.credentials,
    );
  });
});

describe('allowed URL forms', () => {
  it.each(ALLOWED_URLS)('allows $url ($why)', async ({ url }) => {
    const { resolve, asked } = answering('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946');
    const parsed = await checkEndpoint(url, { allowPrivate: false, resolve });
    expect(parsed.href).toBe(new URL(url).href);
    // Names are looked up (after IDNA), literals are not.
    const host = parsed.hostname;
    expect(asked).toEqual(isIP(host.replace(/^\[|\]$/g, '')) ? [] : [host]);
  });

  it('looks up the punycode form of an IDNA name', async () => {
    const { resolve, asked } = answering('93.184.216.34');
    await checkEndpoint('https://faß.de/hook', { allowPrivate: false, resolve });
    expect(asked).toEqual(['xn--fa-hia.de']);
  });
});

describe('allowPrivate', () => {
  const opts = { allowPrivate: true, resolve: answering('127.0.0.1').resolve };

  it('lets http, loopback, private and local names through', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'https://127.0.0.1/',
      'https://[::1]:8443/',
      'http://localhost/hook',
      'http://receiver:3000/hook',
      'https://printer.local/',
      'https://10.0.0.1/',
      'https://169.254.169.254/',
    ]) {
      await expect(checkEndpoint(url, opts), url).resolves.toBeInstanceOf(URL);
    }
  });

  it('still requires a valid http(s) URL', async () => {
    expect((await refusal(checkEndpoint('ftp://127.0.0.1/', opts))).reason).toBe(REFUSAL.httpOrHttps);
    expect((await refusal(checkEndpoint('file:///etc/passwd', opts))).reason).toBe(REFUSAL.httpOrHttps);
    expect((await refusal(checkEndpoint('not a url', opts))).reason).toBe(REFUSAL.invalid);
    expect((await refusal(checkEndpoint('https://[fe80::1%25eth0]/', opts))).reason).toBe(REFUSAL.invalid);
  });
});

describe('resolution when a subscription is saved', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a name with one private address among public ones', async () => {
    for (const addresses of [
      ['93.184.216.34', '10.0.0.1'],
      ['10.0.0.1', '93.184.216.34'],
      ['2606:2800:220:1:248:1893:25c8:1946', 'fd00:ec2::254'],
      ['93.184.216.34', '::ffff:127.0.0.1'],
      ['93.184.216.34', 'not an address'],
    ]) {
      const { resolve } = answering(...addresses);
      const err = await refusal(checkEndpoint('https://hooks.example.com/', { allowPrivate: false, resolve }));
      expect(err.reason, addresses.join(', ')).toBe(REFUSAL.host);
    }
  });

  it('refuses a name that does not resolve, or resolves to nothing, with the same reason as a private one', async () => {
    const failing: Resolve = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const err = await refusal(checkEndpoint('https://nowhere.example/', { allowPrivate: false, resolve: failing }));
    expect(err.message).toBe(REFUSAL.host);
    expect(err.cause).toMatchObject({ code: 'ENOTFOUND' });
    const empty = await refusal(
      checkEndpoint('https://nowhere.example/', { allowPrivate: false, resolve: answering().resolve }),
    );
    expect(empty.reason).toBe(REFUSAL.host);
    const internal = await refusal(
      checkEndpoint('https://nowhere.example/', { allowPrivate: false, resolve: answering('10.1.2.3').resolve }),
    );
    expect(internal.message).toBe(err.message);
  });

  it('gives up on a slow resolver after three seconds', async () => {
    vi.useFakeTimers();
    const never: Resolve = () => new Promise(() => {});
    let settled = false;
    const pending = refusal(checkEndpoint('https://slow.example/', { allowPrivate: false, resolve: never })).finally(
      () => {
        settled = true;
      },
    );
    await vi.advanceTimersByTimeAsync(2_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).reason).toBe(REFUSAL.host);
  });

  it('honours a shorter deadline and leaves no timer behind when the answer is quick', async () => {
    const slow: Resolve = () =>
      new Promise((done) => setTimeout(() => done([{ address: '93.184.216.34', family: 4 }]), 200));
    const err = await refusal(
      checkEndpoint('https://slow.example/', { allowPrivate: false, resolve: slow, resolveTimeoutMs: 20 }),
    );
    expect(err.reason).toBe(REFUSAL.host);
    vi.useFakeTimers();
    await checkEndpoint('https://quick.example/', { allowPrivate: false, resolve: answering('93.184.216.34').resolve });
    expect(vi.getTimerCount()).toBe(0);
  });
});
