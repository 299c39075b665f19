/**
 * kill -9 during adds, on both engines: the server is killed with SIGKILL while 60 adds are in flight, started
 * again on the same database, and every add is sent again with the same Idempotency-Key, as a client that saw no
 * answer (or a connection reset) would. Nothing is lost (every add answers, every job completes) and nothing is
 * doubled (one source event and one job per key; an answer given before the crash is the answer after it).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { type RunningServer, type ServerInfo, createTestDatabase, startServer, tempDataDir } from './server';

const ADDS = 60;
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function engineEnv(name: ServerInfo['name']): Promise<Record<string, string>> {
  if (name === 'pglite') {
    const dir = tempDataDir();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return { MEMORY_DATA_DIR: dir };
  }
  const database = await createTestDatabase('memory_crash');
  cleanups.push(() => database.drop());
  return { DATABASE_URL: database.url };
}

const body = (i: number) => ({
  external_user_id: `crash-user-${i % 12}`,
  messages: [{ role: 'user', content: `Note ${i}: I keep a stamp from series ${i} in my album.` }],
});

/** One add with its key; null when the connection died before an answer. */
async function send(server: ServerInfo, key: string, i: number): Promise<{ status: number; jobId: string } | null> {
  try {
    const res = await fetch(`${server.baseUrl}/v1/memories/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `ApiKey ${key}`, 'idempotency-key': `crash-add-${i}` },
      body: JSON.stringify(body(i)),
    });
    const json = (await res.json()) as { job_id?: string };
    return { status: res.status, jobId: json.job_id ?? '' };
  } catch {
    return null;
  }
}

describe.each(['pglite', 'postgres'] as const)('kill -9 during adds on %s', (name) => {
  it('re-sent with the same Idempotency-Key: 0 adds lost, 0 duplicated, every job completes', async () => {
    const env = await engineEnv(name);
    let server: RunningServer = await startServer(name, env);
    cleanups.push(() => server.stop());
    const root = new Api(server);
    const { api_key: key } = await root.createTenant();

    let answered = 0;
    const inFlight = Array.from({ length: ADDS }, (_, i) =>
      send(server, key, i).then((r) => {
        if (r) answered++;
        return r;
      }),
    );
    // kill once some adds have answered and others have not
    const deadline = Date.now() + 60_000;
    while (answered < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await server.stop('SIGKILL');
    const before = await Promise.all(inFlight);
    const answeredBefore = before.filter((r) => r?.status === 200).length;
    expect(answeredBefore).toBeGreaterThanOrEqual(5);

    server = await startServer(name, env);
    const again = await Promise.all(Array.from({ length: ADDS }, (_, i) => send(server, key, i)));
    for (const r of again) expect(r?.status).toBe(200);
    // an answer given before the crash is the answer after it
    before.forEach((r, i) => {
      if (r?.status === 200) expect(again[i]?.jobId).toBe(r.jobId);
    });
    const jobIds = new Set(again.map((r) => r?.jobId));
    expect(jobIds.size).toBe(ADDS);

    const api = new Api(server).withKey(key);
    // one source event per add: walk every page
    let events = 0;
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: { items: unknown[]; next_cursor: string | null } } } = await api.get(
        `/v1/tenant/source-events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      events += page.body.data.items.length;
      cursor = page.body.data.next_cursor;
    } while (cursor);
    expect(events).toBe(ADDS);

    // every job, including one the crash left running, finishes after the restart (`processed`: nothing to keep)
    for (const id of jobIds) expect(['completed', 'processed']).toContain((await api.waitForJob(id as string, 90_000)).status);
  }, 240_000);
});
