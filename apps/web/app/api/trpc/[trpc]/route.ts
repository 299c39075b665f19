/** The console's tRPC endpoint (fetch adapter). Session, CSRF and tenant scoping live in @memory/api. */
import { apiErrorOf, appRouter, createContext } from '@memory/api';
import { randomUUID } from 'node:crypto';
import { describeError, isApiError, toProblem } from '@memory/core';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { consoleDeps } from '@/lib/console';
import { readBodyBytes } from '@/lib/http';
import { getRuntime } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

async function handler(incoming: Request): Promise<Response> {
  const rt = await getRuntime();
  const deps = consoleDeps(rt);
  let req = incoming;
  if (incoming.method === 'POST') {
    // the body limit of the REST API, enforced while the body streams in (readBodyBytes)
    let body: Buffer;
    try {
      body = await readBodyBytes(incoming);
    } catch (err) {
      if (!isApiError(err)) throw err;
      const { problem } = toProblem(err, randomUUID(), new URL(incoming.url).pathname);
      return Response.json(problem.body, { status: problem.status, headers: problem.headers });
    }
    req = new Request(incoming.url, { method: 'POST', headers: incoming.headers, body: new Uint8Array(body) });
  }
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
        rt.log.error({ trpc_path: path, ...describeError(error.cause ?? error) }, 'unhandled console error');
      }
    },
  });
}

export { handler as GET, handler as POST };
