import { describe, expect, it } from 'vitest';
import { parseServerMessage } from './parse-server-message.js';

describe('parseServerMessage', () => {
  const beat = { type: 'heartbeat', serverTime: 5 };

  it('reads a known message from text or from bytes', () => {
    const text = JSON.stringify(beat);
    expect(parseServerMessage(text)).toEqual(beat);
    const bytes = new TextEncoder().encode(text);
    expect(parseServerMessage(bytes)).toEqual(beat);
    expect(parseServerMessage(bytes.buffer)).toEqual(beat);
    const padded = new Uint8Array(bytes.byteLength + 4);
    padded.set(bytes, 2);
    expect(parseServerMessage(padded.subarray(2, 2 + bytes.byteLength))).toEqual(beat);
  });

  it('reads the outputs message dashboards are sent', () => {
    const outputs = { type: 'outputs', channelId: 'ch_1', outputs: [], total: 0, refused: null };
    expect(parseServerMessage(JSON.stringify(outputs))).toEqual(outputs);
  });

  it('reads channel_removed, sent on a connection following several channels', () => {
    const removed = { type: 'channel_removed', channelId: 'ch_1' };
    expect(parseServerMessage(JSON.stringify(removed))).toEqual(removed);
  });

  it('answers null for what is not a known JSON message', () => {
    for (const data of ['not json', '42', 'null', '[]', '{"type":"gossip"}', '{}', 7, null, undefined]) {
      expect(parseServerMessage(data), String(data)).toBeNull();
    }
  });
});
