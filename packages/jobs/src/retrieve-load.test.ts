/**
 * A cold retrieve's load on PGlite, after a real extraction job: the memories come with the entity names their
 * entity links give (read by a statement of its own and joined in process: retrieve.ts `loadActiveMemories`),
 * each memory with its own names and none with another's.
 */
import { createRetrievalDeps, retrieveMemories, retrieveRequest } from '@memory/core';
import { type Database, and, endUsers, entities, eq, memories, memoryEntities } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, queueConversation, runQueuedJobs } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

describe('the hot set a cold retrieve loads', () => {
  it("carries each memory's entity names from its entity links", async () => {
    const q = await queueConversation(database, 'My sister Marta lives in Porto. I love jazz. I work at Acme Robotics as an engineer.');
    await runQueuedJobs(database);
    const [user] = await database.db.select().from(endUsers).where(eq(endUsers.tenantId, q.auth.tenantId));
    // what the tables say: each active memory's entity names
    const links = await database.db
      .select({ memoryId: memoryEntities.memoryId, name: entities.normalized })
      .from(memoryEntities)
      .innerJoin(entities, eq(entities.id, memoryEntities.entityId))
      .where(eq(entities.userId, user.id));
    const active = await database.db.select({ id: memories.id }).from(memories).where(and(eq(memories.userId, user.id), eq(memories.status, 'active')));
    const expected = new Map(active.map((m) => [m.id, links.filter((l) => l.memoryId === m.id).map((l) => l.name).sort()]));
    expect(links.length).toBeGreaterThan(0);

    const retrieval = createRetrievalDeps(database.db);
    const res = await retrieveMemories(retrieval, q.auth, retrieveRequest.parse({ external_user_id: 'u1', query: 'Where does Marta live?' }), {
      requestId: crypto.randomUUID(),
    });
    expect(res.cached).toBe(false);
    const set = retrieval.hotTier.get(user.id, user.memoryVersion);
    expect(set).not.toBeNull();
    const loaded = new Map(set!.rows.map((r) => [r.id, [...(r.entity_names ?? [])].sort()]));
    expect(loaded).toEqual(expected);
    expect([...set!.entityNames].sort()).toEqual([...new Set(links.map((l) => l.name))].sort());
  });
});
