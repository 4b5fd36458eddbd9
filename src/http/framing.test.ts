import { describe, expect, it } from 'vitest';
import { framingProblem } from './framing.js';

describe('framingProblem', () => {
  it.each([
    [undefined, undefined],
    ['0', undefined],
    ['65536', undefined],
    ['007', undefined],
    [undefined, 'chunked'],
    [undefined, 'Chunked'],
  ])('accepts Content-Length %j with Transfer-Encoding %j', (length, encoding) => {
    expect(framingProblem(length, encoding)).toBeNull();
  });

  it.each([
    ['3, 3', undefined, 'Send Content-Length once.'],
    ['3, 5', undefined, 'Send Content-Length once.'],
    ['abc', undefined, 'decimal'],
    ['-1', undefined, 'decimal'],
    ['+1', undefined, 'decimal'],
    ['0x10', undefined, 'decimal'],
    ['1e3', undefined, 'decimal'],
    ['1.0', undefined, 'decimal'],
    ['', undefined, 'decimal'],
    ['1234567890123456', undefined, 'decimal'],
    ['3', 'chunked', 'not both'],
    [undefined, 'gzip', '"chunked"'],
    [undefined, 'gzip, chunked', '"chunked"'],
    [undefined, 'chunked, chunked', '"chunked"'],
    [undefined, '', '"chunked"'],
  ])('refuses Content-Length %j with Transfer-Encoding %j', (length, encoding, detail) => {
    expect(framingProblem(length, encoding)).toContain(detail);
  });
});
