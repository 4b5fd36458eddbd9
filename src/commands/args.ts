/**
 * The command line: `onair [start]`, `onair backup <file> [--force]`, `onair restore <file>`,
 * `onair reset-password <email>`, `onair help`.
 * Everything else about a run comes from the environment (../config.ts).
 */
import { parseArgs } from 'node:util';

export type Command =
  | { name: 'start' }
  | { name: 'help' }
  | { name: 'backup'; file: string; force: boolean }
  | { name: 'restore'; file: string }
  | { name: 'reset-password'; email: string };

export const USAGE = `Usage: onair [command]

Commands:
  start                    run the server (the default)
  backup <file> [--force]  copy the database of ONAIR_DATA_DIR to <file>, safely, while the server runs;
                           --force replaces an existing <file>
  restore <file>           put a backup in place of the database of ONAIR_DATA_DIR (stop the server first);
                           the database that was there moves to <data dir>/pre-restore-<time>/
  reset-password <email>   print a one-time link (valid one hour) that sets a new password for the account
                           and ends all its sessions; works while the server runs
  help                     this text (also --help or -h after any command)

Settings come from the environment (ONAIR_DATA_DIR, ONAIR_PORT, ...): see README.md, Configuration.
`;

/** The command line was wrong: the CLI prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = parseOrExplain(argv);
  const [name = 'start', ...files] = positionals;
  if (values.help || name === 'help') return { name: 'help' };
  if (values.force && name !== 'backup') throw new UsageError('--force goes with backup only');
  switch (name) {
    case 'start':
      noArguments(files);
      return { name };
    case 'backup':
      return { name, file: oneFile(name, files), force: values.force ?? false };
    case 'restore':
      return { name, file: oneFile(name, files) };
    case 'reset-password':
      return { name, email: oneFile(name, files, '<email>') };
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { help: { type: 'boolean', short: 'h' }, force: { type: 'boolean' } },
    });
  } catch (err) {
    // node:util's messages name the option and say what is wrong with it.
    throw new UsageError((err as Error).message);
  }
}

function noArguments(files: string[]): void {
  if (files.length > 0) throw new UsageError(`start takes no arguments (got ${files.join(' ')})`);
}

function oneFile(command: string, files: string[], what = '<file>'): string {
  if (files.length !== 1) throw new UsageError(`${command} takes exactly one ${what} (got ${files.length})`);
  if (!files[0]) throw new UsageError(`${command} needs ${what}, not an empty one`);
  return files[0];
}
