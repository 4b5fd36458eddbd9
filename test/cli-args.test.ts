/**
 * The command line (src/commands/args.ts): what each form means, and that mistakes are refused with a
 * message rather than guessed at.
 */
import { expect, it } from 'vitest';
import { parseCommand, UsageError } from '../src/commands/args.js';

it('starts the server with no command or with start', () => {
  expect(parseCommand([])).toEqual({ name: 'start' });
  expect(parseCommand(['start'])).toEqual({ name: 'start' });
});

it('reads backup <file> with an optional --force, and restore <file>', () => {
  expect(parseCommand(['backup', 'b.db'])).toEqual({ name: 'backup', file: 'b.db', force: false });
  expect(parseCommand(['backup', '--force', 'b.db'])).toEqual({ name: 'backup', file: 'b.db', force: true });
  expect(parseCommand(['restore', 'b.db'])).toEqual({ name: 'restore', file: 'b.db' });
});

it('reads reset-password <email>', () => {
  expect(parseCommand(['reset-password', 'a@example.com'])).toEqual({ name: 'reset-password', email: 'a@example.com' });
});

it('answers help, --help and -h with the usage, whatever the command', () => {
  for (const argv of [['help'], ['--help'], ['-h'], ['backup', '--help'], ['restore', 'x', '-h']]) {
    expect(parseCommand(argv)).toEqual({ name: 'help' });
  }
});

it.each([
  [['stop'], 'unknown command "stop"'],
  [['backup'], 'backup takes exactly one <file> (got 0)'],
  [['backup', 'a.db', 'b.db'], 'backup takes exactly one <file> (got 2)'],
  [['restore', ''], 'restore needs <file>, not an empty one'],
  [['reset-password'], 'reset-password takes exactly one <email> (got 0)'],
  [['restore', 'a.db', '--force'], '--force goes with backup only'],
  [['start', 'now'], 'start takes no arguments (got now)'],
  [['--port', '80'], "Unknown option '--port'"],
])('refuses %j: %s', (argv, message) => {
  expect(() => parseCommand(argv)).toThrow(UsageError);
  expect(() => parseCommand(argv)).toThrow(message);
});
