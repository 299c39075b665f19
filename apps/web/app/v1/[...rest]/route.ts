import { Errors } from '@memory/core';
import { route } from '@/lib/http';

/** Unknown /v1 paths answer problem+json like the rest of the API, not an HTML page. */
const notFound = route<{ rest: string[] }>(async (ctx) => {
  throw Errors.notFound(`The path ${new URL(ctx.req.url).pathname}`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
