/**
 * An error whose message alone tells the user what went wrong and what to do: the CLI prints it without a
 * stack trace. Anything else is a bug and is printed with its stack.
 */
export class CommandError extends Error {
  override name = 'CommandError';
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** Runs `work`, turning the listed error classes into CommandError. */
export async function explained<T>(known: readonly ErrorClass[], work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (known.some((k) => err instanceof k)) throw new CommandError((err as Error).message, { cause: err });
    throw err;
  }
}
