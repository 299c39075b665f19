/** A scripted fetch for the unit tests (not part of the build). */

export type Reply = Response | Error;

/** A fetch that answers from a script and records what it was asked. */
export function fakeFetch(...replies: Reply[]) {
  const calls: { url: string; init: RequestInit; headers: Record<string, string> }[] = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init, headers: { ...(init.headers as Record<string, string>) } });
    const reply = replies.shift();
    if (!reply) throw new Error('no reply scripted');
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': status < 300 ? 'application/json' : 'application/problem+json', ...headers } });
