import { describe, expect, it } from 'vitest';
import { decodeChannelMessage, encodeFrame, frameNumberOf } from './channel-messages.js';

describe('frameNumberOf', () => {
  it("reads a frame's number from the bytes transports send on, for both scopes", () => {
    const all = {
      type: 'frame' as const,
      channelId: 'ch_01a20a2171e87152a02191f46d39c561',
      frame: 107727977642,
      prev: 107727977600,
      serverTime: 1795466294063,
      inputs: { frame: 3 },
    };
    const buses = { ...all, scenes: [] };
    const msg = decodeChannelMessage(encodeFrame(all, buses));
    if (msg.kind !== 'frame') throw new Error('not a frame');
    expect(frameNumberOf(msg.buses)).toBe(107727977642);
    expect(frameNumberOf(msg.all)).toBe(107727977642);
  });

  it('is null for bytes that carry no frame number near their start', () => {
    expect(frameNumberOf(Buffer.from('{"type":"heartbeat","serverTime":5}'))).toBeNull();
  });
});
