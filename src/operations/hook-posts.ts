/**
 * What a post to a hook's URL does (docs/incoming-hooks.md, "Posting"). First the door, before the body is read:
 * the post counts against its channel's updates bucket (the runner's guard, as the hook), then a signed hook checks
 * the signature and claims the post's replay keys. A post refused at the door goes to the hook's refusal log. A post
 * past the door is parsed, mapped and run as the channel operation applyHookPost (or, dry, only answered), already
 * counted, and logged in the hook's log of posts. The hook acts as a principal that may only set inputs on its own
 * channel, so it is limited and locked like any other caller.
 */
import { z } from 'zod';
import type { Principal } from '../auth/permissions.js';
import { AppError, toProblem } from '../errors.js';
import type { HookDeliveryRecord, IncomingHookRecord } from '../store/incoming-hook-store.js';
import { mapPayload } from '../incoming-hooks/hook-mapping.js';
import { nulInJson, visibleNul } from '../nul-char.js';
import type { SignedParts } from '../incoming-hooks/hook-signature.js';
import { applyHookPost } from './hook-post.js';
import type { Caller, ChannelOperation } from './operation.js';
import type { Runner } from './runner.js';
import { withHeaders } from './runner.js';

const PAYLOAD_CAP = 2048;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

export interface HookPost extends SignedParts {
  contentType: string | undefined;
  dryRun: boolean;
}

export interface HookAnswer {
  frame: number | null;
  applied: Record<string, unknown>;
  ignored: string[];
  dryRun?: true;
  headers: Record<string, string>;
}

interface DoorInput {
  hook: IncomingHookRecord;
  post: HookPost;
}

/** The door: counted against the channel's updates, then (signed hooks) checked and claimed. */
const hookDoor: ChannelOperation<DoorInput, string[]> = {
  name: 'incoming-hook.door',
  scope: 'channel',
  permission: 'inputs:write',
  bucket: 'updates',
  input: z.custom<DoorInput>((v) => typeof v === 'object' && v !== null),
  async run({ services }, { hook, post }) {
    return hook.requireSignature ? services.incomingHooks.claim(hook, post) : [];
  },
};

/** A GET on the hook's URL: how to use it, counted against its channel's updates like a post. */
const describeHookUrl: ChannelOperation<IncomingHookRecord, { requireSignature: boolean }> = {
  name: 'incoming-hook.describe',
  scope: 'channel',
  permission: 'inputs:write',
  bucket: 'updates',
  input: z.custom<IncomingHookRecord>((v) => typeof v === 'object' && v !== null),
  run: async (_ctx, hook) => ({ requireSignature: hook.requireSignature }),
};

/** The hook a URL token names (404 for every unknown token, and for a hook whose channel is gone). */
export async function hookAt(runner: Runner, token: string, client: string | undefined): Promise<IncomingHookRecord> {
  const hook = await runner.services.incomingHooks.lookup(token, client);
  if (!runner.services.engine.has(hook.channelId)) {
    throw new AppError('not_found', 'No incoming webhook has this address.');
  }
  return hook;
}

export async function describeHook(runner: Runner, hook: IncomingHookRecord) {
  const outcome = await runner.run(describeHookUrl, hookCaller(hook), { channelId: hook.channelId, input: hook });
  return { headers: outcome.headers, requireSignature: outcome.body.requireSignature };
}

export async function receiveHookPost(runner: Runner, hook: IncomingHookRecord, post: HookPost): Promise<HookAnswer> {
  const desk = runner.services.incomingHooks;
  const at = new Date(runner.services.now()).toISOString();
  const { headers, keys } = await door(runner, hook, post);
  const log = (entry: Omit<HookDeliveryRecord, 'at' | 'payload' | 'dryRun'>) =>
    desk.logPost(hook.id, { ...entry, at, payload: excerpt(post.raw), dryRun: post.dryRun });
  try {
    const answer = await apply(runner, hook, post, headers);
    await log({ status: 200, applied: answer.applied, ignored: answer.ignored, error: null });
    return { ...answer, headers };
  } catch (err) {
    // Nothing was applied: the same signed post may come again.
    await desk.release(hook, keys);
    const problem = toProblem(err);
    await log({ status: problem.status, applied: {}, ignored: [], error: logged(problem) });
    throw err instanceof AppError ? withHeaders(err, headers) : err;
  }
}

/** Through the door, or noted in the refusal log and thrown. */
async function door(runner: Runner, hook: IncomingHookRecord, post: HookPost) {
  try {
    const outcome = await runner.run(hookDoor, hookCaller(hook), { channelId: hook.channelId, input: { hook, post } });
    return { headers: outcome.headers, keys: outcome.body };
  } catch (err) {
    const problem = toProblem(err);
    const error = logged(problem);
    await runner.services.incomingHooks.refused(hook.id, { status: problem.status, error, payload: excerpt(post.raw) });
    throw err;
  }
}

async function apply(runner: Runner, hook: IncomingHookRecord, post: HookPost, headers: Record<string, string>) {
  const payload = parseBody(post);
  const mapped = mapPayload(payload, hook.mapping, runner.services.engine.registry(hook.channelId));
  if (post.dryRun) return { frame: null, applied: mapped.applied, ignored: mapped.ignored, dryRun: true as const };
  const caller = { ...hookCaller(hook), admitted: headers };
  const outcome = await runner.run(applyHookPost, caller, { channelId: hook.channelId, input: mapped });
  return { ...outcome.body, ignored: mapped.ignored };
}

/** A hook may set inputs and drive clocks on its own channel, nothing else. */
function hookCaller(hook: IncomingHookRecord): Caller {
  const principal: Principal = {
    kind: 'key',
    keyId: hook.id,
    name: hook.name,
    orgId: hook.orgId,
    grants: new Set(['inputs:write']),
    channelIds: new Set([hook.channelId]),
  };
  return { principal, source: 'incoming_webhook', actor: { type: 'hook', id: hook.id, name: hook.name } };
}

function parseBody(post: HookPost): unknown {
  if (!JSON_TYPE.test(post.contentType ?? '')) {
    throw new AppError(
      'unsupported_media_type',
      'Post the fields as JSON with "Content-Type: application/json", for example {"home_score": 2}.',
    );
  }
  if (post.raw.byteLength === 0) throw new AppError('invalid_request', 'The body is empty: post a JSON object.');
  const text = Buffer.from(post.raw).toString('utf8');
  let payload: unknown;
  try {
    payload = JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError('invalid_request', `Malformed JSON: ${(err as Error).message}`);
  }
  const nul = nulInJson(text, payload);
  if (nul) throw nul;
  return payload;
}

/** A refusal as the logs keep it; a NUL the sender put in the body (JSON.parse quotes it) written as `\u0000`. */
function logged(problem: { code: string; detail: string }): string {
  return visibleNul(`${problem.code}: ${problem.detail}`);
}

/** The start of the body for the logs; a raw NUL written as `\u0000`, as the store may not hold one. */
function excerpt(raw: Uint8Array): string {
  if (raw.byteLength <= PAYLOAD_CAP) return visibleNul(Buffer.from(raw).toString('utf8'));
  // The cut may fall inside a character: its broken tail is dropped rather than shown as U+FFFD.
  return `${visibleNul(
    Buffer.from(raw.subarray(0, PAYLOAD_CAP))
      .toString('utf8')
      .replace(/\uFFFD+$/, ''),
  )}…`;
}
