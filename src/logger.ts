import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Log lines waiting for a slow stdout are dropped past this many bytes instead of being kept: a flood of
 * requests while stdout is stalled must not grow the server's memory. Dropped lines are counted
 * (`onair_log_lines_dropped_total`).
 */
const MAX_PENDING_LOG_BYTES = 2 * 1024 * 1024;
let dropped = 0;

/** Log lines dropped so far in this process because stdout could not keep up. */
export function droppedLogLines(): number {
  return dropped;
}

function stdoutDestination(): pino.DestinationStream {
  const stream = pino.destination({ fd: 1, sync: false, maxLength: MAX_PENDING_LOG_BYTES });
  stream.on('drop', () => void dropped++);
  return stream;
}

/** Structured JSON logs; secrets never reach a log line. */
export function createLogger(level: string, destination: pino.DestinationStream = stdoutDestination()): Logger {
  return pino(
    {
      level,
      base: { service: 'onair' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'token',
          'secret',
          'key.secret',
          'password',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * A failure that repeats every tick (a broken disk) is logged once a minute with how often it happened
 * meanwhile, not 60 times a second.
 */
export function repeatedOnce<C>(
  log: (err: unknown, context: C, repeats: number) => void,
  windowMs = 60_000,
  clock: () => number = Date.now,
): (err: unknown, context: C) => void {
  let last = { message: '', at: 0, repeats: 0 };
  return (err, context) => {
    const message = err instanceof Error ? err.message : String(err);
    const now = clock();
    if (message === last.message && now - last.at < windowMs) {
      last.repeats++;
      return;
    }
    log(err, context, message === last.message ? last.repeats : 0);
    last = { message, at: now, repeats: 0 };
  };
}
