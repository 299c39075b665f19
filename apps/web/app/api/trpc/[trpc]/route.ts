/** The console's tRPC endpoint (fetch adapter). Session, CSRF and tenant scoping live in @memory/api. */
import { apiErrorOf, appRouter, createContext } from '@memory/api';
import { describeError } from '@memory/core';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { consoleDeps } from '@/lib/console';
import { readBodyBytes, route } from '@/lib/http';

export const dynamic = 'force-dynamic';

// route(): a body over the REST API's limit is refused as it streams in (readBodyBytes), with the same problem+json
const handler = route<{ trpc: string }>(async ({ req: incoming, rt, log }) => {
  const deps = consoleDeps(rt);
  const req =
    incoming.method === 'POST'
      ? new Request(incoming.url, { method: 'POST', headers: incoming.headers, body: new Uint8Array(await readBodyBytes(incoming)) })
      : incoming;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: (opts) => createContext(deps, opts),
    responseMeta({ errors }) {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      for (const e of errors) {
        const retryAfter = apiErrorOf(e)?.extra.headers?.['Retry-After'];
        if (retryAfter) headers.set('Retry-After', retryAfter);
      }
      return { headers };
    },
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !apiErrorOf(error)) {
        // Name, SQLSTATE and message of the cause only: never inputs, codes or tokens.
        log.error({ trpc_path: path, ...describeError(error.cause ?? error) }, 'unhandled console error');
      }
    },
  });
});

export { handler as GET, handler as POST };
