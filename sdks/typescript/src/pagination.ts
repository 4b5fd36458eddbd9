/**
 * Lists answer one page at a time (`{ data, nextCursor }`); `paginate` follows `nextCursor` until it is null and
 * yields every item, fetching the next page only when the loop gets there:
 *
 *   for await (const channel of client.channels.listAll({ limit: 100 })) console.log(channel.name);
 *
 * A page may hold fewer items than `limit`, or none, while `nextCursor` is set (filtered event lists): the
 * iterator keeps going until the cursor is null.
 */
import type { Page } from './types.js';

export function paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  startCursor?: string,
): AsyncIterableIterator<T> {
  async function* pages(): AsyncGenerator<T, void, undefined> {
    let cursor = startCursor;
    do {
      const page = await fetchPage(cursor);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return pages();
}
