import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('fills the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '0.0.0.0', port: 8080, logLevel: 'info', dbSync: 'full', bootstrapKey: undefined });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('names every bad variable in one message', () => {
    const bad = () => loadConfig({ ONAIR_PORT: '70000', ONAIR_LOG_LEVEL: 'loud', ONAIR_BOOTSTRAP_KEY: 'secret' });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('ONAIR_PORT');
      expect(message).toContain('ONAIR_LOG_LEVEL');
      expect(message).toContain('ONAIR_BOOTSTRAP_KEY');
      expect(message).not.toContain('secret');
    }
  });

  it('refuses the several-node settings, naming them, until several nodes are available', () => {
    expect(() => loadConfig({ ONAIR_DATABASE_URL: 'postgres://db/onair' })).toThrow(
      /^ONAIR_DATABASE_URL: running several nodes .* not available/,
    );
    expect(() => loadConfig({ ONAIR_DATABASE_URL: 'postgres://x', ONAIR_REDIS_URL: 'redis://y' })).toThrow(
      /ONAIR_DATABASE_URL and ONAIR_REDIS_URL/,
    );
    expect(loadConfig({ ONAIR_DATABASE_URL: '' }).port).toBe(8080);
  });

  it('takes a base URL without its trailing slash and refuses a non-http one', () => {
    expect(loadConfig({ ONAIR_BASE_URL: 'https://gfx.example.com/' }).baseUrl).toBe('https://gfx.example.com');
    expect(() => loadConfig({ ONAIR_BASE_URL: 'ftp://gfx.example.com' })).toThrow(/ONAIR_BASE_URL/);
  });

  it('reads trusted proxies as canonical addresses and names the ones that are not addresses', () => {
    expect(loadConfig({}).trustedProxies).toEqual(new Set());
    const c = loadConfig({ ONAIR_TRUSTED_PROXIES: '127.0.0.1, ::1,10.0.0.5' });
    expect(c.trustedProxies).toEqual(new Set(['127.0.0.1', '0:0:0:0:0:0:0:1', '10.0.0.5']));
    expect(() => loadConfig({ ONAIR_TRUSTED_PROXIES: '127.0.0.1, proxy.local' })).toThrow(
      /ONAIR_TRUSTED_PROXIES: not IP addresses: proxy.local/,
    );
  });
});
