import type { ChannelRecord } from '../../engine/index.js';
import type { ChannelOut } from './schemas.js';

export function channelView(c: ChannelRecord, baseUrl: string): ChannelOut {
  const outputUrl = `${baseUrl}/render/${c.id}?token=${c.outputToken}`;
  return {
    id: c.id,
    name: c.name,
    fps: c.fps,
    width: c.width,
    height: c.height,
    outputUrl,
    previewUrl: `${outputUrl}&bus=preview`,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
