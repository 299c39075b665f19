/**
 * The offline sentence encoder over real HTTP, on both engines (MEMORY_LOCAL_ENCODER=on; docs/evidence-layer.md):
 * a question that shares no word with the answer finds it — "What's the user's job?" ranks the nursing memory
 * first — and an unrelated question still gets nothing. Each engine gets its own server with the encoder on.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, tenantApi } from './client';
import { type RunningServer, startServer, tempDataDir } from './server';

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
});

const engines: { name: 'pglite' | 'postgres'; env: () => Record<string, string> }[] = [
  { name: 'pglite', env: () => ({ MEMORY_DATA_DIR: tempDataDir(), DATABASE_URL: '' }) },
  { name: 'postgres', env: () => ({ DATABASE_URL: inject('pgDatabaseUrl') }) },
];

describe.each(engines)('paraphrase with the offline encoder on $name', (engine) => {
  it("ranks the nursing memory first for \"What's the user's job?\" and leaves an unrelated question empty", async () => {
    const server = await startServer(engine.name, { ...engine.env(), MEMORY_LOCAL_ENCODER: 'on' });
    started.push(server);
    const api: Api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'p1',
      messages: [
        {
          role: 'user',
          content:
            "I work as a pediatric nurse at the children's hospital. I have a cat named Miso. I live in Lisbon. I'm looking for a new laptop.",
        },
      ],
    });
    expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
    // The job's embed step stores a vector of the encoder's model with every new memory; it runs after the memories
    // are stored (and the job reads completed), so a memory is found by its words at once and by its meaning once
    // its vector is there. Wait for that, then ask.
    const pets = () => api.post('/v1/memories/retrieve', { external_user_id: 'p1', query: 'does the user have any pets?' });
    // generous: the model loads in a worker that shares the cores with every other test server of the suite
    const deadline = Date.now() + 150_000;
    let first = (await pets()).body.data[0]?.content;
    while (first !== 'The user has a cat named Miso.' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      first = (await pets()).body.data[0]?.content;
    }
    expect(first).toBe('The user has a cat named Miso.');
    const job = await api.post('/v1/memories/retrieve', { external_user_id: 'p1', query: "What's the user's job?" });
    expect(job.status).toBe(200);
    expect(job.body.data[0]).toMatchObject({ content: "The user works as a pediatric nurse at the children's hospital.", category: expect.any(String) });
    expect(job.body.is_degraded).toBe(false);
    const unrelated = await api.post('/v1/memories/retrieve', { external_user_id: 'p1', query: 'quantum chromodynamics lecture notes' });
    expect(unrelated.body.data).toEqual([]);
  }, 240_000);
});
