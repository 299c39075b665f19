import { BuiltinExtractor, getJobView } from '@memory/core';
import type { Database } from '@memory/db';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_REQUESTED } from './extraction';
import { createExtractionFunction, createInngestClient } from './inngest';
import { openTestDatabase, queueConversation } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

describe('extraction as an Inngest function', () => {
  it('runs its steps and completes the job row', async () => {
    const { auth, jobId } = await queueConversation(database, "I'm a vegetarian and I live in Lisbon.");
    const inngest = createInngestClient();
    const fn = createExtractionFunction(inngest, async () => ({ db: database.db, extractor: new BuiltinExtractor() }));
    const t = new InngestTestEngine({
      function: fn,
      events: [{ name: EXTRACTION_REQUESTED, data: { job_id: jobId, tenant_id: auth.tenantId, user_id: 'x' } }],
    });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ status: 'completed', memories_created: 2, memories_reinforced: 0, passages_indexed: 1 });
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'completed', memories_created: 2, attempts: 1 });
  });

  it('registers a per-user concurrency key, retries and a failure handler with Inngest', () => {
    const fn = createExtractionFunction(createInngestClient(), async () => {
      throw new Error('unused');
    });
    type Config = { id: string; concurrency?: unknown; steps: { step: { retries: unknown } }; triggers: unknown[] };
    const getConfig = (fn as unknown as { getConfig(o: { baseUrl: URL; appPrefix: string }): Config[] }).getConfig;
    const [main, failure] = getConfig.call(fn, { baseUrl: new URL('http://127.0.0.1/api/inngest'), appPrefix: 'memory-service' });
    expect(main.triggers).toEqual([{ event: EXTRACTION_REQUESTED }]);
    expect(main.concurrency).toEqual([{ key: 'event.data.tenant_id + ":" + event.data.user_id', limit: 1 }]);
    expect(main.steps.step.retries).toEqual({ attempts: 4 });
    expect(failure.id).toBe('memory-service-memory-extraction-failure');
  });
});
