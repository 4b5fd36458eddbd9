import { expect, it } from 'vitest';
import { canonicalIp, networkOf } from './ip-address.js';

it('writes every spelling of an address the same way', () => {
  expect(canonicalIp('192.0.2.1')).toBe('192.0.2.1');
  expect(canonicalIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(canonicalIp('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
  expect(canonicalIp('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('0:0:0:0:0:0:0:1');
  expect(canonicalIp('::1')).toBe('0:0:0:0:0:0:0:1');
  expect(canonicalIp('[2001:DB8::1]')).toBe('2001:db8:0:0:0:0:0:1');
  expect(canonicalIp('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2:ffff:0:0:9');
  expect(canonicalIp('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
});

it('refuses what is not an address', () => {
  for (const text of ['', 'unknown', '1.2.3', '1.2.3.256', '1:2:3', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1', 'a.b.c.d'])
    expect(canonicalIp(text), text).toBeNull();
});

it('counts IPv6 by its /64 network and IPv4 by its address', () => {
  expect(networkOf('192.0.2.1')).toBe('192.0.2.1');
  expect(networkOf('2001:db8:1:2:aaaa:0:0:1')).toBe('2001:db8:1:2::/64');
});
