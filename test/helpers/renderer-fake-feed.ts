/**
 * A stand-in for onair's render path, to drive the output page in Chromium with hand-made messages: the
 * real render routes (the shell with its Content-Security-Policy, the bundle, the fonts) served from
 * renderer/dist, and a WebSocket at /v1/ws that sends each page a snapshot of a scripted channel, then
 * whatever frames the test sends. It checks the renderer against the wire contract (@onair/protocol, protocol/src), not
 * against the engine. Build the renderer first (`npm run build:renderer`; `npm test` does).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';
import { loadRendererAssets } from '../../src/api/render/renderer-assets.js';
import { renderRoutes } from '../../src/api/render/routes.js';
import type { ApiDeps, ApiEnv } from '../../src/api/env.js';
import type {
  ClockState,
  FiredTrigger,
  FrameMessage,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  SceneView,
  ServerMessage,
  SnapshotMessage,
} from '@onair/protocol';

export const RENDERER_DIST = path.join(import.meta.dirname, '..', '..', 'renderer', 'dist');

/** The channel the fake server plays: what its snapshots say, and the numbering of its frames. */
export interface FeedChannel {
  id: string;
  frame: number;
  width: number;
  height: number;
  program: ProgramEntry[];
  preview: PreviewEntry[];
  scenes: SceneView[];
  inputs: Record<string, InputValue>;
  clocks: Record<string, ClockState>;
}

/** What a frame changes; `prev`, `frame`, `serverTime` and the channel id are filled in. */
export type FrameChange = Omit<Partial<FrameMessage>, 'type' | 'channelId' | 'frame' | 'prev'>;

export interface FakeFeed {
  /** http://127.0.0.1:<port> */
  url: string;
  channel: FeedChannel;
  /** The output page of the channel, with `query` added (e.g. `bus=preview&clean=1`). */
  pageUrl(query?: string): string;
  /** Open sockets. */
  sockets(): number;
  /** Applies a change to the channel and sends it to every page as the next frame. */
  frame(change: FrameChange): FrameMessage;
  /** Sends any message as it is. */
  send(msg: ServerMessage): void;
  /** Closes every socket as a restarting server does (1001), or with another code. */
  dropAll(code?: number): void;
  /** While paused, new sockets are refused: the server is "down". */
  setAccepting(accepting: boolean): void;
  /** Every message the pages sent (their `painted` reports among them), oldest first. */
  received(): { op?: string; [key: string]: unknown }[];
  close(): Promise<void>;
}

export function snapshotOf(channel: FeedChannel): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: channel.id,
    frame: channel.frame,
    serverTime: Date.now(),
    fps: 50,
    width: channel.width,
    height: channel.height,
    program: channel.program,
    preview: channel.preview,
    scenes: channel.scenes,
    inputs: channel.inputs,
    clocks: channel.clocks,
  };
}

function applyChange(channel: FeedChannel, change: FrameChange): void {
  if (change.inputs) Object.assign(channel.inputs, change.inputs);
  if (change.clocks) Object.assign(channel.clocks, change.clocks);
  if (change.program) channel.program = change.program;
  if (change.preview) channel.preview = change.preview;
  for (const scene of change.scenes ?? []) {
    channel.scenes = [...channel.scenes.filter((s) => s.id !== scene.id), scene];
  }
}

/** `routes` adds routes of the test's own to the server (files a scene loads, say). */
export async function startFakeFeed(
  initial: Partial<FeedChannel> = {},
  routes?: (app: Hono<ApiEnv>) => void,
): Promise<FakeFeed> {
  const channel: FeedChannel = {
    id: 'ch_fake',
    frame: 1000,
    width: 1920,
    height: 1080,
    program: [],
    preview: [],
    scenes: [],
    inputs: {},
    clocks: {},
    ...initial,
  };
  const app = new Hono<ApiEnv>();
  // A picture for image elements: 8×8 opaque red.
  app.get('/test/red.png', () => new Response(redPng(), { headers: { 'Content-Type': 'image/png' } }));
  routes?.(app);
  app.route('/', renderRoutes({ renderer: loadRendererAssets(RENDERER_DIST) } as unknown as ApiDeps));
  const server = http.createServer(getRequestListener(app.fetch));
  const wss = new WebSocketServer({ noServer: true });
  const open = new Set<WebSocket>();
  let accepting = true;
  const received: { op?: string }[] = [];

  server.on('upgrade', (req, socket, head) => {
    if (!accepting || !req.url?.startsWith('/v1/ws')) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      ws.on('close', () => open.delete(ws));
      ws.on('message', (data: Buffer) => {
        const msg = JSON.parse(data.toString('utf8')) as { op?: string };
        received.push(msg);
        if (msg.op === 'resync') ws.send(JSON.stringify(snapshotOf(channel)));
      });
      ws.send(JSON.stringify(snapshotOf(channel)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const send = (msg: ServerMessage) => {
    const text = JSON.stringify(msg);
    for (const ws of open) ws.send(text);
  };

  return {
    url,
    channel,
    pageUrl: (query = '') => `${url}/render/${channel.id}?token=fake${query ? `&${query}` : ''}`,
    sockets: () => open.size,
    frame(change) {
      applyChange(channel, change);
      const msg: FrameMessage = {
        type: 'frame',
        channelId: channel.id,
        prev: channel.frame,
        frame: channel.frame + 1,
        serverTime: Date.now(),
        ...change,
      };
      channel.frame += 1;
      send(msg);
      return msg;
    },
    send,
    dropAll(code = 1001) {
      for (const ws of open) ws.close(code, 'restart');
    },
    setAccepting(value) {
      accepting = value;
    },
    received: () => received,
    async close() {
      for (const ws of open) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type { FiredTrigger };

function redPng(): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 8, 0, 0, 0, 8, 8, 2, 0, 0, 0]);
  const row = Buffer.from([0, ...Array.from({ length: 8 }, () => [255, 0, 0]).flat()]);
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 8 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}
