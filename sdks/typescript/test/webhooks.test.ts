/**
 * Webhooks end to end against a real server: a delivery the server sent to a local HTTPS receiver verifies with
 * the subscription's secret (and altered copies of it do not); a signed incoming-hook post is accepted and a
 * wrongly signed one refused.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OnairApiError,
  verifyWebhook,
  WebhookVerificationError,
  type OnairClient,
  type WebhookCreated,
} from '../src/index.js';
import { clientFor, eventually, scoreboardChannel, startServer, type SdkServer } from './helpers.js';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

let sdk: SdkServer;
let client: OnairClient;
let receiver: https.Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  sdk = await startServer();
  client = clientFor(sdk);
  receiver = https.createServer(
    { cert: fs.readFileSync(sdk.env.ONAIR_TEST_TLS_CERT!), key: fs.readFileSync(sdk.env.ONAIR_TEST_TLS_KEY!) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/onair`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await sdk?.dispose();
});

const header = (d: Delivery, name: string) => d.headers[name] as string;

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('outgoing webhooks', () => {
  let webhook: WebhookCreated;
  let delivery: Delivery;

  it('verifies a real delivery with the subscription’s secret', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK webhooks');
    webhook = await client.webhooks.create({
      url: receiverUrl,
      events: ['channel.bind_updated'],
      channelId: channel.id,
      description: 'SDK test receiver',
    });
    expect(webhook.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.get(webhook.id)).status).toBe('enabled');

    await client.channels.patchInputs(channel.id, { scoreA: 5 });
    await eventually(() => deliveries.some((d) => header(d, 'x-service-event') === 'channel.bind_updated'), 10_000);
    delivery = deliveries.find((d) => header(d, 'x-service-event') === 'channel.bind_updated')!;

    const event = await verifyWebhook(delivery.raw, delivery.headers, webhook.secret);
    expect(event.type).toBe('channel.bind_updated');
    expect(event.channelId).toBe(channel.id);
    expect(event.id).toBe(header(delivery, 'x-service-delivery'));
    expect((event.data.inputs as Record<string, unknown>).scoreA).toBe(5);
    expect(event.data.source).toBe('api');

    // The same event is in the log, with the same id.
    const logged = [];
    for await (const e of client.events.listAll({ channelId: channel.id, type: 'channel.bind_updated' }))
      logged.push(e);
    expect(logged.map((e) => e.id)).toContain(event.id);
  });

  it('refuses a tampered body, a wrong secret, a stale timestamp and a mismatched delivery id', async () => {
    expect(delivery).toBeDefined();
    const tampered = Buffer.from(delivery.raw.toString('utf8').replace('"scoreA":5', '"scoreA":6'));
    expect(tampered.equals(delivery.raw)).toBe(false);
    expect((await rejection(verifyWebhook(tampered, delivery.headers, webhook.secret))).code).toBe(
      'signature_mismatch',
    );

    expect((await rejection(verifyWebhook(delivery.raw, delivery.headers, `${webhook.secret}x`))).code).toBe(
      'signature_mismatch',
    );

    const sentAt = Number(header(delivery, 'x-service-timestamp'));
    expect(
      (await rejection(verifyWebhook(delivery.raw, delivery.headers, webhook.secret, { now: sentAt + 301 }))).code,
    ).toBe('timestamp_out_of_tolerance');
    await expect(
      verifyWebhook(delivery.raw, delivery.headers, webhook.secret, { now: sentAt + 299 }),
    ).resolves.toBeTruthy();

    const otherDelivery = { ...delivery.headers, 'x-service-delivery': 'evt_00000000000000000000000000000000' };
    expect((await rejection(verifyWebhook(delivery.raw, otherDelivery, webhook.secret))).code).toBe(
      'delivery_mismatch',
    );

    const unsigned = Object.fromEntries(
      Object.entries(delivery.headers).filter(([name]) => name !== 'x-service-signature'),
    );
    expect((await rejection(verifyWebhook(delivery.raw, unsigned, webhook.secret))).code).toBe('missing_header');

    // Re-serialised JSON is not the raw body: it must not verify.
    const reserialised = JSON.stringify(JSON.parse(delivery.raw.toString('utf8')), null, 1);
    expect((await rejection(verifyWebhook(reserialised, delivery.headers, webhook.secret))).code).toBe(
      'signature_mismatch',
    );
  });

  it('rolls the secret: the next delivery verifies with the new one and, during the overlap, the old one', async () => {
    expect(webhook).toBeDefined();
    const rolled = await client.webhooks.rollSecret(webhook.id, { overlapSeconds: 600 });
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(webhook.secret);
    expect(rolled.previousSecretExpiresAt).not.toBeNull();
    expect((await client.webhooks.get(webhook.id)).previousSecretExpiresAt).toBe(rolled.previousSecretExpiresAt);

    const channelId = webhook.channelId!;
    const seen = deliveries.length;
    await client.channels.patchInputs(channelId, { scoreA: 6 });
    await eventually(() => deliveries.length > seen, 10_000);
    const next = deliveries[deliveries.length - 1]!;
    expect(header(next, 'x-service-signature').split(' ')).toHaveLength(2);
    await expect(verifyWebhook(next.raw, next.headers, rolled.secret)).resolves.toMatchObject({
      type: 'channel.bind_updated',
    });
    await expect(verifyWebhook(next.raw, next.headers, webhook.secret)).resolves.toMatchObject({
      type: 'channel.bind_updated',
    });
    expect((await rejection(verifyWebhook(next.raw, next.headers, 'whsec_neither'))).code).toBe('signature_mismatch');
  });

  it('pings the receiver with a signed webhook.ping, logs the attempts, and deletes the subscription', async () => {
    expect(webhook).toBeDefined();
    const ping = await client.webhooks.ping(webhook.id);
    expect(ping).toMatchObject({ ok: true, status: 204, error: null });
    const pinged = deliveries.find((d) => header(d, 'x-service-event') === 'webhook.ping');
    expect(pinged).toBeDefined();
    const event = await verifyWebhook(pinged!.raw, pinged!.headers, webhook.secret);
    expect(event).toMatchObject({ type: 'webhook.ping', data: { webhookId: webhook.id } });

    const attempts = [];
    for await (const attempt of client.webhooks.deliveriesAll(webhook.id, { limit: 1 })) attempts.push(attempt);
    expect(attempts.some((a) => a.type === 'channel.bind_updated' && a.outcome === 'succeeded')).toBe(true);
    expect((await client.webhooks.list()).data.map((w) => w.id)).toContain(webhook.id);

    await client.webhooks.delete(webhook.id);
    await expect(client.webhooks.get(webhook.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('incoming hooks', () => {
  it('signs a post the server accepts, and a wrong secret is refused with 401 bad_signature', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK incoming');
    const hook = await client.incomingHooks.create(channel.id, {
      name: 'Scorekeeper',
      mapping: { home_score: 'scoreA', 'game.period': 'period' },
      requireSignature: true,
    });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.url).toContain('/v1/hooks/');

    const answer = await client.hooks.post(
      hook.url,
      { home_score: '4', game: { period: 2 }, venue: 'Arena' },
      hook.secret!,
    );
    expect(answer.applied).toEqual({ scoreA: 4, period: 2 });
    expect(answer.ignored).toEqual(['venue']);
    expect(answer.frame).toBeGreaterThan(0);
    expect((await client.channels.getState(channel.id)).inputs).toMatchObject({ scoreA: 4, period: 2 });

    const wrong = await client.hooks.post(hook.url, { home_score: 9 }, 'whsec_wrong').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(OnairApiError);
    expect(wrong).toMatchObject({ status: 401, code: 'bad_signature' });
    await expect(client.hooks.post(hook.url, { home_score: 9 })).rejects.toMatchObject({ code: 'bad_signature' });
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(4);

    // By token alone, exact bytes, dry run: nothing applied.
    const token = hook.url.split('/').pop()!;
    const dry = await client.hooks.post(token, '{"home_score":7}', { secret: hook.secret!, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, frame: null, applied: { scoreA: 7 } });
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(4);

    const log = await client.incomingHooks.deliveries(channel.id, hook.id);
    expect(log.data.map((d) => d.status)).toEqual([200, 200]);
    // Refused at the door: one line per second, the first refusal of a second written at once.
    const refused = await client.incomingHooks.refusals(channel.id, hook.id);
    expect(refused.data[0]?.status).toBe(401);
    expect(refused.data[0]?.error).toMatch(/^bad_signature: /);
  });

  it('lists, reads, updates and deletes a hook', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK incoming CRUD');
    const hook = await client.incomingHooks.create(channel.id, { name: 'Plain' });
    expect(hook.secret).toBeNull();
    expect((await client.incomingHooks.list(channel.id)).data.map((h) => h.id)).toEqual([hook.id]);
    const updated = await client.incomingHooks.update(channel.id, hook.id, {
      name: 'Renamed',
      mapping: { s: 'scoreB' },
    });
    expect(updated).toMatchObject({ name: 'Renamed', mapping: { s: 'scoreB' } });
    expect((await client.incomingHooks.get(channel.id, hook.id)).name).toBe('Renamed');
    expect((await client.hooks.post(hook.url, { s: 2 })).applied).toEqual({ scoreB: 2 });
    await client.incomingHooks.delete(channel.id, hook.id);
    await expect(client.hooks.post(hook.url, { s: 3 })).rejects.toMatchObject({ status: 404 });
  });
});
