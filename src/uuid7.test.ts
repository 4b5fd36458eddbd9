import { expect, it } from 'vitest';
import { uuid7Hex } from './uuid7.js';

it('is a version 7, variant 10 UUID in 32 hex digits with the time in front', () => {
  const at = Date.UTC(2026, 10, 23, 12, 0, 0, 5);
  const id = uuid7Hex(at);
  expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  expect(parseInt(id.slice(0, 12), 16)).toBe(at);
});

it('sorts in the order the ids were made, within a millisecond and across many', () => {
  const ids: string[] = [];
  const start = Date.now() + 10_000;
  for (let i = 0; i < 20_000; i++) ids.push(uuid7Hex(start + Math.floor(i / 5_000)));
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
});

it('never goes backwards when the clock does', () => {
  const later = uuid7Hex(Date.now() + 60_000);
  expect(uuid7Hex(Date.now()) > later).toBe(true);
});
