/** A pino logger that keeps its lines for the test to read, each parsed. */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export function recordingLogger<Line extends { level: number; msg: string }>(
  level: 'debug' | 'info' = 'info',
): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
