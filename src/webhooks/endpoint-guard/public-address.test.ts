import { expect, it } from 'vitest';
import { isPublicAddress } from './public-address.js';

it('allows public unicast, right up to the edges of the refused ranges', () => {
  const open = [
    '93.184.216.34',
    '8.8.8.8',
    '1.0.0.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:2800:220:1:248:1893:25c8:1946',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '2001:200::1', // just past 2001::/23 (IETF protocol assignments)
    '2003::1',
  ];
  for (const ip of open) expect(isPublicAddress(ip), ip).toBe(true);
});

it('refuses every special range, including the ones ipaddr.js calls unicast', () => {
  const closed = [
    '0.0.0.0',
    '10.0.0.1',
    '100.64.0.0',
    '100.127.255.255',
    '100.100.100.200',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.0',
    '172.31.255.255',
    '192.0.0.192',
    '192.0.2.255',
    '192.88.99.1',
    '192.168.255.255',
    '198.18.0.0',
    '198.51.100.1',
    '203.0.113.255',
    '224.0.0.0',
    '240.0.0.0',
    '255.255.255.255',
    '168.63.129.16',
    '::',
    '::1',
    '::7f00:1',
    '::5db8:d822', // IPv4-compatible form of a public address: still an embedding, still refused
    '::ffff:93.184.216.34', // mapped, even of a public address
    '::ffff:0:7f00:1',
    '64:ff9b::5db8:d822',
    '64:ff9b:1::1',
    '2001::1',
    '2001:1::1', // 2001::/23, IETF protocol assignments
    '2001:2::1',
    '2001:db8::1',
    '2002:5db8:d822::1',
    '3fff::1',
    '3fff:fff:ffff::1',
    '100::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '4000::1', // outside 2000::/3, not handed out
  ];
  for (const ip of closed) expect(isPublicAddress(ip), ip).toBe(false);
});

it('refuses whatever is not one address in standard notation', () => {
  for (const text of ['', 'example.com', '0177.0.0.1', '0x7f000001', '2130706433', '[::1]', '[2001:4860:4860::8888]'])
    expect(isPublicAddress(text), text).toBe(false);
  expect(isPublicAddress('2001:4860:4860::8888%eth0'), 'zone id').toBe(false);
  expect(isPublicAddress(' 8.8.8.8'), 'whitespace').toBe(false);
});
