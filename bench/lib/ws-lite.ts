/**
 * A minimal WebSocket client over node:net for load generation. Thousands of these fit in one process:
 * frames are counted from their headers and only decoded when a handler asks for the text, so the client
 * costs the same for every server under test and measures the server, not itself.
 * Speaks engine.io v4 too (`eio: true`): answers pings and strips the "4" message prefix.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface LiteOptions {
  host: string;
  port: number;
  path: string;
  headers?: Record<string, string>;
  /** engine.io framing (socket.io server). */
  eio?: boolean;
  /** Called for every text message; `text` is decoded only when `wantText` is true. */
  onMessage?: (text: string | null) => void;
  wantText?: boolean;
  onClose?: () => void;
  /** The server's close frame: its code (1005 when it carried none). */
  onCloseFrame?: (code: number) => void;
}

export interface LiteSocket {
  send(text: string): void;
  close(): void;
  readonly socket: net.Socket;
}

const MASK = Buffer.alloc(4); // a zero mask: valid framing, no per-byte XOR cost

export function connectLite(opts: LiteOptions): Promise<LiteSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: opts.host, port: opts.port, noDelay: true });
    const key = randomBytes(16).toString('base64');
    const extra = Object.entries(opts.headers ?? {})
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.once('connect', () => {
      socket.write(
        `GET ${opts.path} HTTP/1.1\r\nHost: ${opts.host}:${opts.port}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      );
    });
    let handshake: Buffer | null = Buffer.alloc(0);
    const parser = new FrameParser(opts, (payload, opcode) => lite.send(payload, opcode));
    const lite = {
      socket,
      send: (text: string | Buffer, opcode = 0x1) => socket.write(encodeFrame(text, opcode)),
      close: () => socket.end(),
    };
    socket.on('data', (chunk: Buffer) => {
      if (handshake === null) return parser.push(chunk);
      handshake = Buffer.concat([handshake, chunk]);
      const end = handshake.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = handshake.subarray(0, end).toString('latin1');
      const rest = handshake.subarray(end + 4);
      handshake = null;
      if (!head.startsWith('HTTP/1.1 101')) {
        socket.destroy();
        return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]} ${rest.toString('utf8').slice(0, 200)}`));
      }
      resolve({ socket, send: (t) => void lite.send(t), close: lite.close });
      if (rest.length > 0) parser.push(rest);
    });
    socket.on('error', (err) => {
      if (handshake !== null) reject(err);
    });
    socket.on('close', () => opts.onClose?.());
  });
}

function encodeFrame(text: string | Buffer, opcode: number): Buffer {
  const payload = typeof text === 'string' ? Buffer.from(text) : text;
  const len = payload.length;
  const headLen = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(headLen + 4 + len);
  out[0] = 0x80 | opcode;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 65536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  MASK.copy(out, headLen);
  payload.copy(out, headLen + 4);
  return out;
}

/** Splits a server byte stream (unmasked frames) into messages. */
class FrameParser {
  private pending: Buffer | null = null;

  constructor(
    private readonly opts: LiteOptions,
    private readonly reply: (payload: Buffer | string, opcode: number) => void,
  ) {}

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let off = 0;
    while (buf.length - off >= 2) {
      const opcode = buf[off]! & 0x0f;
      let len = buf[off + 1]! & 0x7f;
      let head = 2;
      if (len === 126) {
        if (buf.length - off < 4) break;
        len = buf.readUInt16BE(off + 2);
        head = 4;
      } else if (len === 127) {
        if (buf.length - off < 10) break;
        len = Number(buf.readBigUInt64BE(off + 2));
        head = 10;
      }
      if (buf.length - off < head + len) break;
      this.frame(opcode, buf, off + head, off + head + len);
      off += head + len;
    }
    if (off < buf.length) this.pending = Buffer.from(buf.subarray(off));
  }

  private frame(opcode: number, buf: Buffer, start: number, end: number): void {
    if (opcode === 0x9) return this.reply(Buffer.from(buf.subarray(start, end)), 0xa);
    if (opcode === 0x8) return this.opts.onCloseFrame?.(end - start >= 2 ? buf.readUInt16BE(start) : 1005);
    if (opcode !== 0x1 && opcode !== 0x0) return;
    if (this.opts.eio) {
      const type = buf[start];
      if (type === 0x32 /* "2" ping */) return this.reply('3', 0x1);
      if (type !== 0x34 /* "4" message */) return;
      start += 1;
    }
    const handler = this.opts.onMessage;
    if (!handler) return;
    handler(this.opts.wantText ? buf.toString('utf8', start, end) : null);
  }
}

/** Connects `count` sockets, `parallel` at a time (so the server's accept backlog never overflows). */
export async function connectMany(
  count: number,
  parallel: number,
  make: (i: number) => Promise<LiteSocket>,
): Promise<LiteSocket[]> {
  const out: LiteSocket[] = new Array<LiteSocket>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return out;
}
