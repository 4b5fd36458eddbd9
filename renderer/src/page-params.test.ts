import { describe, expect, it } from 'vitest';
import { parsePageParams, socketUrl } from './page-params.js';

describe('page params', () => {
  it('reads channel, token, bus and clean', () => {
    expect(parsePageParams('/render/ch_1', '?token=abc&bus=preview')).toEqual({
      channelId: 'ch_1',
      token: 'abc',
      bus: 'preview',
      clean: false,
      sketch: false,
      monitor: false,
    });
    expect(parsePageParams('/render/ch_1', '?token=abc&bus=preview&clean=1').clean).toBe(true);
    expect(parsePageParams('/render/ch_1', '?token=abc&monitor=1').monitor).toBe(true);
  });

  it('defaults to program and tolerates a trailing slash and encoding', () => {
    expect(parsePageParams('/render/ch%201/', '')).toEqual({
      channelId: 'ch 1',
      token: null,
      bus: 'program',
      clean: false,
      sketch: false,
      monitor: false,
    });
    expect(parsePageParams('/render/ch_1', '?bus=nonsense').bus).toBe('program');
    expect(parsePageParams('/render/ch_1', '?clean=0').clean).toBe(false);
  });

  it('reads sketch mode: the program bus, never a badge, whatever else the URL says', () => {
    expect(parsePageParams('/render/ch_1', '?sketch=1')).toEqual({
      channelId: 'ch_1',
      token: null,
      bus: 'program',
      clean: true,
      sketch: true,
      monitor: true,
    });
    expect(parsePageParams('/render/ch_1', '?sketch=true&bus=preview')).toMatchObject({ bus: 'program', clean: true });
    expect(parsePageParams('/render/ch_1', '?sketch=0').sketch).toBe(false);
    expect(parsePageParams('/render/ch_1', '?token=t').sketch).toBe(false);
  });

  it('finds no channel in another path', () => {
    expect(parsePageParams('/', '').channelId).toBe('');
  });

  it('builds the socket URL on the page host with the matching scheme', () => {
    const params = {
      channelId: 'ch 1',
      token: 'a&b',
      bus: 'program' as const,
      clean: false,
      sketch: false,
      monitor: false,
    };
    expect(socketUrl('http:', 'localhost:3000', params)).toBe('ws://localhost:3000/v1/ws?channel=ch+1&token=a%26b');
    expect(socketUrl('https:', 'tv.example', { ...params, token: null })).toBe('wss://tv.example/v1/ws?channel=ch+1');
  });
});
