/** Async iteration over the API's cursor-paged lists: pass `next_cursor` back as `cursor` until it is null. */

/** Every page, starting at `cursor` (or the first page). */
export async function* eachPage<P extends { next_cursor: string | null }>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor?: string,
): AsyncGenerator<P, void, undefined> {
  let next: string | null | undefined = cursor;
  do {
    const page: P = await fetchPage(next ?? undefined);
    yield page;
    next = page.next_cursor;
  } while (next);
}

/** Every item of every page. */
export async function* eachItem<P extends { next_cursor: string | null }, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
  cursor?: string,
): AsyncGenerator<T, void, undefined> {
  for await (const page of eachPage(fetchPage, cursor)) yield* itemsOf(page);
}
