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

  it('reads the several-node settings: both URLs and a shared secret key, or none', () => {
    expect(loadConfig({}).cluster).toBeUndefined();
    const key = 'k'.repeat(32);
    const both = {
      ONAIR_DATABASE_URL: 'postgres://db/onair',
      ONAIR_REDIS_URL: 'redis://r:6379',
      ONAIR_SECRET_KEY: key,
    };
    expect(loadConfig({ ...both, ONAIR_NODE_ID: 'node-a' }).cluster).toEqual({
      databaseUrl: 'postgres://db/onair',
      redisUrl: 'redis://r:6379',
      redisPrefix: 'onair:',
      nodeId: 'node-a',
    });
    expect(loadConfig(both).cluster?.nodeId).toMatch(/-\d+$/);
    expect(() => loadConfig({ ONAIR_DATABASE_URL: 'postgres://db/onair', ONAIR_SECRET_KEY: key })).toThrow(
      /ONAIR_REDIS_URL: several nodes need both/,
    );
    expect(() => loadConfig({ ...both, ONAIR_SECRET_KEY: undefined })).toThrow(
      /ONAIR_SECRET_KEY: several nodes must share/,
    );
    expect(() => loadConfig({ ...both, ONAIR_DATABASE_URL: 'mysql://x' })).toThrow(
      /ONAIR_DATABASE_URL: must be a postgres/,
    );
    expect(() => loadConfig({ ...both, ONAIR_NODE_ID: 'a b' })).toThrow(/ONAIR_NODE_ID/);
    expect(loadConfig({ ONAIR_DATABASE_URL: '', ONAIR_REDIS_URL: '' }).cluster).toBeUndefined();
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

  it('reads the cap on password work: 1 at once and a 250 ms wait by default, within bounds', () => {
    expect(loadConfig({}).passwords).toEqual({ concurrency: 1, maxWaitMs: 250 });
    const c = loadConfig({ ONAIR_PASSWORD_CONCURRENCY: '2', ONAIR_PASSWORD_WAIT_MS: '0' });
    expect(c.passwords).toEqual({ concurrency: 2, maxWaitMs: 0 });
    expect(() => loadConfig({ ONAIR_PASSWORD_CONCURRENCY: '0' })).toThrow(/ONAIR_PASSWORD_CONCURRENCY/);
    expect(() => loadConfig({ ONAIR_PASSWORD_WAIT_MS: '60000' })).toThrow(/ONAIR_PASSWORD_WAIT_MS/);
  });

  it('keeps the as-run log 90 days by default, 1 to 3650 when told', () => {
    expect(loadConfig({}).asRunRetentionDays).toBe(90);
    expect(loadConfig({ ONAIR_AS_RUN_RETENTION_DAYS: '400' }).asRunRetentionDays).toBe(400);
    expect(() => loadConfig({ ONAIR_AS_RUN_RETENTION_DAYS: '0' })).toThrow(/ONAIR_AS_RUN_RETENTION_DAYS/);
    expect(() => loadConfig({ ONAIR_AS_RUN_RETENTION_DAYS: '3651' })).toThrow(/ONAIR_AS_RUN_RETENTION_DAYS/);
  });
});
