#!/usr/bin/env node
/**
 * The `onair` command (`npm start`, `node dist/cli.js`, `tsx src/cli.ts`): `start` runs the server,
 * `backup` and `restore` copy its database out and back, `reset-password` prints a password reset link
 * (./commands/). Exit codes: 0 done (for `start`,
 * after a clean drain), 1 failed (the message says why), 2 the command line was wrong.
 * Each command is loaded only when it runs: a backup beside a live server need not load the server.
 */
import { USAGE, UsageError, parseCommand, type Command } from './commands/args.js';
import { CommandError } from './commands/command-error.js';

const FAILED: Record<Command['name'], string> = {
  start: 'onair could not start',
  backup: 'onair backup failed',
  restore: 'onair restore failed',
  'reset-password': 'onair reset-password failed',
  help: 'onair failed',
};

async function run(command: Command): Promise<void> {
  switch (command.name) {
    case 'help':
      process.stdout.write(USAGE);
      return;
    case 'start':
      return (await import('./commands/start.js')).runStart();
    case 'backup':
      return (await import('./commands/backup.js')).runBackup(command.file, command.force);
    case 'restore':
      return (await import('./commands/restore.js')).runRestore(command.file);
    case 'reset-password':
      return (await import('./commands/reset-password.js')).runResetPassword(command.email);
  }
}

function main(argv: readonly string[]): void {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`onair: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  run(command).catch((err: unknown) => {
    const message = err instanceof CommandError ? err.message : String((err as Error | undefined)?.stack ?? err);
    process.stderr.write(`${FAILED[command.name]}: ${message}\n`);
    process.exit(1);
  });
}

main(process.argv.slice(2));
