/** The store step beyond plain memories: pending candidates, the compositional pass, embeddings. */
import { BuiltinExtractor, type ExtractionProvider, OpenAIEmbeddings, addMemories, apiKeyActor, createTenant, getJobView } from '@memory/core';
import { type FakeOpenAI, startFakeOpenAI } from '@memory/core/testing';
import { type Database, and, claimRevisions, entities, entityRelationships, eq, memories, memoryEntities, pendingCandidates } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtraction } from './extraction';
import { openTestDatabase, testAddDeps } from './test-support';

let database: Database;
let fake: FakeOpenAI;
beforeAll(async () => {
  [database, fake] = await Promise.all([openTestDatabase(), startFakeOpenAI({ dimensions: 8 })]);
}, 60_000);
afterAll(async () => {
  await fake.close();
  await database.close();
});

const direct = { run: async <T>(_id: string, fn: () => Promise<T> | T) => fn() };

/** One tenant and user; each call adds a conversation and runs its job to the end. */
async function conversationRunner(deps: Partial<Parameters<typeof runExtraction>[2]> = {}) {
  const tenant = await createTenant(database.db, `t-${Math.random()}`);
  const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
  return async (content: string) => {
    const res = await addMemories(
      testAddDeps(database.db),
      auth,
      { external_user_id: 'u1', messages: [{ role: 'user', content }] },
      { requestId: crypto.randomUUID() },
    );
    const jobId = res.body.job_id as string;
    await runExtraction(jobId, direct, { db: database.db, extractor: new BuiltinExtractor(), ...deps });
    const view = await getJobView(database.db, auth.tenantId, jobId);
    return { jobId, view: view as NonNullable<typeof view>, tenantId: auth.tenantId };
  };
}

async function activeContents(tenantId: string) {
  const rows = await database.db
    .select({ content: memories.content })
    .from(memories)
    .where(and(eq(memories.tenantId, tenantId), eq(memories.status, 'active')));
  return rows.map((r) => r.content);
}

describe('pending candidates', () => {
  it('buffers a hedged statement and promotes it when it is said again', async () => {
    const say = await conversationRunner();
    const first = await say('I think I might move to Berlin.');
    expect(first.view).toMatchObject({ status: 'processed', memories_created: 0, pending_candidates_buffered: 1, pending_candidates_promoted: 0 });
    expect(await activeContents(first.tenantId)).toEqual([]);

    const again = await say('I think I might move to Berlin.');
    expect(again.view).toMatchObject({ status: 'completed', memories_created: 1, pending_candidates_buffered: 0, pending_candidates_promoted: 1 });
    expect(await activeContents(first.tenantId)).toEqual(['The user might move to Berlin.']);
    const [candidate] = await database.db.select().from(pendingCandidates).where(eq(pendingCandidates.tenantId, first.tenantId));
    expect(candidate).toMatchObject({ status: 'promoted', occurrences: 2, reason: 'hedged' });
  });

  it('confirms a buffered candidate when a confident statement says the same thing', async () => {
    const say = await conversationRunner();
    const hedged = await say('Maybe I live in Porto.');
    expect(hedged.view.pending_candidates_buffered).toBe(1);
    const sure = await say('I live in Porto.');
    expect(sure.view).toMatchObject({ memories_created: 1, pending_candidates_promoted: 1 });
    const [candidate] = await database.db.select().from(pendingCandidates).where(eq(pendingCandidates.tenantId, hedged.tenantId));
    expect(candidate.status).toBe('promoted');
    expect(candidate.promotedMemoryId).not.toBeNull();
  });

  it('counts a buffered candidate once when the same job runs twice', async () => {
    const say = await conversationRunner();
    const { jobId, tenantId } = await say('I guess I kind of like opera.');
    await runExtraction(jobId, direct, { db: database.db, extractor: new BuiltinExtractor() });
    const rows = await database.db.select().from(pendingCandidates).where(eq(pendingCandidates.tenantId, tenantId));
    expect(rows).toHaveLength(1);
    expect(rows[0].occurrences).toBe(1);
  });
});

describe('compositional pass', () => {
  it('stores entities, links memories to them and reads relationships, and says so on the job', async () => {
    const say = await conversationRunner();
    const { view, tenantId, jobId } = await say('My sister Ana lives in Porto. I work at Google.');
    expect(view.extraction_metadata).toMatchObject({ compositional_pass_attempted: true, compositional_pass_used: true, compositional_error: null });
    const stored = await database.db.select().from(entities).where(eq(entities.tenantId, tenantId));
    const names = stored.map((e) => `${e.kind}:${e.normalized}`).sort();
    expect(names).toEqual(expect.arrayContaining(['person:ana', 'place:porto', 'organization:google', 'person:the user']));
    expect(view.extraction_metadata.compositional_entities).toBe(stored.length);

    const rels = await database.db.select().from(entityRelationships).where(eq(entityRelationships.tenantId, tenantId));
    const byId = new Map(stored.map((e) => [e.id, e.normalized]));
    const triples = rels.map((r) => `${byId.get(r.subjectEntityId)} ${r.predicate} ${byId.get(r.objectEntityId)}`).sort();
    expect(triples).toEqual(['ana lives_in porto', 'ana sister_of the user', 'the user works_at google']);
    expect(view.extraction_metadata.compositional_relationships).toBe(3);

    const jobMemories = await database.db.select().from(memories).where(eq(memories.jobId, jobId));
    const links = await database.db.select().from(memoryEntities).where(eq(memoryEntities.tenantId, tenantId));
    const sisterMemory = jobMemories.find((m) => m.content.includes('sister'));
    const linked = links.filter((l) => l.memoryId === sisterMemory?.id).map((l) => byId.get(l.entityId));
    expect(linked).toEqual(expect.arrayContaining(['ana', 'porto']));
  });
});

describe('embeddings after the store step', () => {
  it('gives each new memory a vector from the configured endpoint', async () => {
    const provider = new OpenAIEmbeddings({
      baseUrl: fake.url,
      model: 'fake-embed',
      apiKey: null,
      apiStyle: 'openai',
      azureApiVersion: '2024-10-21',
      timeoutMs: 5_000,
      maxRetries: 0,
      dimensions: 8,
      batchSize: 16,
    });
    const say = await conversationRunner({ embeddings: provider });
    const { jobId } = await say('I live in Lisbon. I love jazz.');
    const rows = await database.db.select().from(memories).where(eq(memories.jobId, jobId));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.embeddingModel).toBe('openai-embeddings:fake-embed');
      expect(r.embedding).toHaveLength(8);
    }
  });
});

describe('one run, several memories', () => {
  /** An extractor that returns these statements (confident, one per message) whatever the conversation says. */
  const saying = (...contents: string[]): ExtractionProvider => ({
    name: 'scripted',
    extract: async () => {
      const result = await new BuiltinExtractor().extract({ messages: [], observedAt: new Date() });
      return {
        ...result,
        memories: contents.map((content, i) => ({ content, category: 'fact' as const, importance: 0.5, confidence: 0.9, messageIndices: [i] })),
      };
    },
  });

  async function runner() {
    const tenant = await createTenant(database.db, `t-${Math.random()}`);
    const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
    const run = async (extractor: ExtractionProvider) => {
      const res = await addMemories(
        testAddDeps(database.db),
        auth,
        { external_user_id: 'u1', messages: [{ role: 'user', content: 'whatever the extractor is told to find' }] },
        { requestId: crypto.randomUUID() },
      );
      await runExtraction(res.body.job_id as string, direct, { db: database.db, extractor });
      return (await getJobView(database.db, auth.tenantId, res.body.job_id as string)) as NonNullable<Awaited<ReturnType<typeof getJobView>>>;
    };
    const rows = () => database.db.select().from(memories).where(eq(memories.tenantId, auth.tenantId)).orderBy(memories.createdAt);
    const ledger = () => database.db.select().from(claimRevisions).where(eq(claimRevisions.tenantId, auth.tenantId));
    return { run, rows, ledger };
  }

  it('stores a fact said twice in one conversation once', async () => {
    const { run, rows, ledger } = await runner();
    await run(saying('The user lives in Lisbon.', 'The user lives in Lisbon.'));
    expect((await rows()).map((r) => r.content)).toEqual(['The user lives in Lisbon.']);
    expect((await ledger()).filter((l) => l.action === 'created')).toHaveLength(1);
  });

  it('reinforces an earlier memory once per repetition, each from the score the one before left', async () => {
    const { run, rows, ledger } = await runner();
    await run(saying('The user lives in Lisbon.'));
    await run(saying('The user lives in Lisbon.', 'The user lives in Lisbon.'));
    const [memory] = await rows();
    const steps = (await ledger()).filter((l) => l.action === 'reinforced').map((l) => l.details as { importance_before: number; importance_after: number });
    expect(steps).toHaveLength(2);
    expect(steps[1].importance_before).toBe(steps[0].importance_after);
    expect(memory.importance).toBeCloseTo(steps[1].importance_after, 5);
  });

  it('checks a later memory of the run against what is active after the earlier ones changed it', async () => {
    const { run, rows, ledger } = await runner();
    await run(saying('The user lives in Lisbon.'));
    const view = await run(saying('The user moved to Porto.', 'The user lives in Lisbon.'));
    const all = await rows();
    const lisbon = all.filter((r) => r.content === 'The user lives in Lisbon.');
    const porto = all.find((r) => r.content === 'The user moved to Porto.');
    // the first Lisbon lost to Porto; saying Lisbon again in the same run does not reinforce the memory that lost
    expect(lisbon[0]).toMatchObject({ status: 'inactive', supersededBy: porto?.id });
    expect((await ledger()).filter((l) => l.action === 'reinforced')).toHaveLength(0);
    expect((await ledger()).filter((l) => l.action === 'superseded').map((l) => l.memoryId)).toEqual([lisbon[0].id]);
    expect(view).toMatchObject({ memories_created: 2 });
  });
});
