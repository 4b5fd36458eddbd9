import { expect, it } from 'vitest';
import { clientAddress } from './client-address.js';

const PROXIES = new Set(['127.0.0.1', '0:0:0:0:0:0:0:1', '10.0.0.5']);

it('believes no header when the peer is not a trusted proxy', () => {
  expect(clientAddress('203.0.113.9', '198.51.100.1', PROXIES)).toBe('203.0.113.9');
  expect(clientAddress('203.0.113.9', '198.51.100.1', new Set())).toBe('203.0.113.9');
  expect(clientAddress('127.0.0.1', '198.51.100.1', new Set())).toBe('127.0.0.1');
});

it('takes the nearest address that is not a trusted proxy, from the right', () => {
  expect(clientAddress('127.0.0.1', '198.51.100.1', PROXIES)).toBe('198.51.100.1');
  expect(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', '198.51.100.1', PROXIES)).toBe('198.51.100.1');
  expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.0.0.5', PROXIES)).toBe('198.51.100.1');
  expect(clientAddress('::1', ' 2001:db8::7 ', PROXIES)).toBe('2001:db8:0:0:0:0:0:7');
});

it('stops at the first hop that is not an address, and falls back to the peer without a header', () => {
  expect(clientAddress('127.0.0.1', 'unknown, 10.0.0.5', PROXIES)).toBe('10.0.0.5');
  expect(clientAddress('127.0.0.1', null, PROXIES)).toBe('127.0.0.1');
  expect(clientAddress('127.0.0.1', '10.0.0.5', PROXIES)).toBe('10.0.0.5');
});
