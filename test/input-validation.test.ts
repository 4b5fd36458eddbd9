/**
 * Bad PATCH …/inputs bodies (docs/api.md, "Conventions" and "Channels"): each is a 4xx problem with the right code, and
 * the channel's state is exactly what it was before (a patch is all-or-nothing).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  type Api,
  type ApiResponse,
  type CallOptions,
} from './helpers/api.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let channelId: string;
let before: unknown;

/** A scene declaring n0…n100: 101 valid names, so a 101-input patch fails only on its size. */
const WIDE_INPUTS = Array.from({ length: 101 }, (_, i) => ({ name: `n${i}`, type: 'number' }));

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId } = await createChannelWithScoreboard(call));
  expectStatus(
    await call('POST', `/v1/channels/${channelId}/scenes`, { name: 'Wide', definition: { inputs: WIDE_INPUTS } }),
    201,
  );
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 2, home: 'Lions' }), 200);
  before = stableState(await getState(call, channelId));
});

afterEach(async () => {
  await server.dispose();
});

function patch(body: unknown, options?: CallOptions): Promise<ApiResponse<unknown>> {
  return call('PATCH', `/v1/channels/${channelId}/inputs`, body, options);
}

async function expectUnchanged(): Promise<void> {
  expect(stableState(await getState(call, channelId))).toEqual(before);
}

describe('PATCH …/inputs refuses', () => {
  it('malformed JSON with 400 invalid_request', async () => {
    expectProblem(await patch(undefined, { raw: '{"scoreA": 1,' }), 400, 'invalid_request');
    await expectUnchanged();
  });

  it('a body that is not JSON with 415 unsupported_media_type', async () => {
    const res = await patch(undefined, { raw: '{"scoreA": 9}', headers: { 'content-type': 'text/plain' } });
    expectProblem(res, 415, 'unsupported_media_type');
    await expectUnchanged();
  });

  it('a body over 64 KiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ home: 'x'.repeat(64 * 1024) });
    expectProblem(await patch(undefined, { raw: big }), 413, 'payload_too_large');
    await expectUnchanged();
  });

  it('a chunked body over 64 KiB (no Content-Length) with 413 payload_too_large', async () => {
    const chunk = new TextEncoder().encode(`{"home":"${'y'.repeat(40 * 1024)}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/v1/channels/${channelId}/inputs`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    expectProblem({ status: res.status, headers: res.headers, body: JSON.parse(text) }, 413, 'payload_too_large');
    await expectUnchanged();
  });

  it('an unknown input with 400 unknown_input naming it and the closest declared name', async () => {
    const problem = expectProblem(await patch({ scoreA: 5, scoreX: 1 }), 400, 'unknown_input');
    expect(problem.closest).toBe('scoreA');
    expect(errorPaths(problem)).toContain('scoreX');
    expect(problem.detail).toContain('scoreX');
    await expectUnchanged();
  });

  it('a string sent to a number input with 400 invalid_request', async () => {
    const problem = expectProblem(await patch({ scoreB: 1, scoreA: 'five' }), 400, 'invalid_request');
    expect(errorPaths(problem)).toContain('scoreA');
    await expectUnchanged();
  });

  it('a number sent to a text input with 400 invalid_request', async () => {
    expectProblem(await patch({ home: 42 }), 400, 'invalid_request');
    await expectUnchanged();
  });

  it.each(['{"__proto__": 1}', '{"__proto__": {"polluted": true}}', '{"constructor": 1}', '{"toString": "x"}'])(
    '%s with 400 unknown_input, without touching Object.prototype',
    async (raw) => {
      expectProblem(await patch(undefined, { raw }), 400, 'unknown_input');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      await expectUnchanged();
    },
  );

  it.each([1e16, -1e16, 1e300])('the number %d (outside ±1e15) with 400 invalid_request', async (value) => {
    const problem = expectProblem(await patch({ scoreA: value }), 400, 'invalid_request');
    expect(errorPaths(problem)).toContain('scoreA');
    await expectUnchanged();
  });

  it('text over 4 KiB with 400 invalid_request, counting UTF-8 bytes', async () => {
    expectProblem(await patch({ home: 'a'.repeat(4097) }), 400, 'invalid_request');
    // 2,049 two-byte characters: under 4,096 characters, over 4 KiB.
    expectProblem(await patch({ away: 'é'.repeat(2049) }), 400, 'invalid_request');
    await expectUnchanged();
  });

  it('more than 100 inputs with 400 invalid_request', async () => {
    const inputs = Object.fromEntries(WIDE_INPUTS.map((d, i) => [d.name, i]));
    expectProblem(await patch(inputs), 400, 'invalid_request');
    await expectUnchanged();
  });

  it('an empty patch with 400 invalid_request', async () => {
    expectProblem(await patch({}), 400, 'invalid_request');
    await expectUnchanged();
  });

  it('a patch that is not an object with 400 invalid_request', async () => {
    for (const body of [[{ scoreA: 1 }], 'scoreA', 7, null]) {
      expectProblem(await patch(body), 400, 'invalid_request');
    }
    await expectUnchanged();
  });

  it('a whole patch when only one of its inputs is bad (all or nothing)', async () => {
    expectProblem(await patch({ scoreA: 9, home: 'Tigers', scoreB: 'x' }), 400, 'invalid_request');
    await expectUnchanged();
  });
});

describe('PATCH …/inputs accepts', () => {
  it('the limits themselves: ±1e15, exactly 4 KiB of text, exactly 100 inputs', async () => {
    expectStatus(await patch({ scoreA: 1e15, scoreB: -1e15, home: 'é'.repeat(2048) }), 200);
    const hundred = Object.fromEntries(WIDE_INPUTS.slice(0, 100).map((d, i) => [d.name, i]));
    expectStatus(await patch(hundred), 200);
    const state = await getState(call, channelId);
    expect(state.inputs).toMatchObject({ scoreA: 1e15, scoreB: -1e15, n0: 0, n99: 99, n100: 0 });
  });
});
