/**
 * The one check of a channel's output token: the render socket's upgrade makes it (transport/socket-auth.ts), and
 * the output page asks for it when its socket is refused (api/render/routes.ts), so both always agree.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ChannelRecord, Engine } from '../engine/index.js';
import { AppError } from '../errors.js';

/** The channel the token opens, or null: a wrong token and an unknown channel are one answer, in constant time. */
export function channelOpenedBy(engine: Engine, channelId: string, token: string): ChannelRecord | null {
  const record = engine.has(channelId) ? engine.channelRecord(channelId) : null;
  return record && sameToken(record.outputToken, token) ? record : null;
}

/** The refusal of a wrong token (or one for a channel that does not exist), the same from the upgrade and the page. */
export function outputTokenRefused(): AppError {
  return new AppError('unauthorized', 'The output token is not valid for this channel (it may have been rotated).');
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
