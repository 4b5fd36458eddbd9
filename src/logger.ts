import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets never reach a log line. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
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
