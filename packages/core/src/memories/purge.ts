/**
 * Deleting ONE memory permanently (the console's "Delete permanently…", docs/console.md). Unlike DELETE
 * /v1/memories/{id}, which archives and keeps the ledger, this removes the memory's row (its embedding with it)
 * and every copy of its content the service made: its claim-ledger rows, its entity links and relationships, the
 * weak signal it was promoted from, finished jobs' memoised steps, a direct write's payload and saved answers, the reviews naming it (a conflict's other claim becomes active again, as if
 * it had been chosen) and the webhook events about it. What the user said (the source event and its passages)
 * stays: erasing the user or the retention redaction removes that. One transaction; the user's `memory_version`
 * is bumped so no hot tier serves the memory again. Audited as `memory.purged` with counts, never the content.
 */
import { type Db, and, eq, memories, rows, sql } from '@memory/db';
import { recordAudit } from '../audit/audit';
import type { Principal } from '../principal';
import { ledgerRow } from './ledger';
import { lockMemory } from './manage';
import { MemoryWriter } from './writer';

export interface PurgeDeps {
  /** This process's hot tier: the user's cached set is dropped once the transaction commits. */
  hotTier?: { evict(userId: string): void };
}

export interface PurgeCounts {
  memories: number;
  claim_revisions: number;
  memory_entities: number;
  entity_relationships: number;
  pending_candidates: number;
  reviews: number;
  claims_restored: number;
  superseded_links_cleared: number;
  webhook_events: number;
  job_steps_cleared: number;
  direct_payloads_cleared: number;
  idempotent_answers: number;
}

const count = async (tx: Db, query: ReturnType<typeof sql>): Promise<number> => (await rows<{ id: string }>(tx, query)).length;

export async function purgeMemory(db: Db, auth: Principal, memoryId: string, deps: PurgeDeps = {}) {
  const { counts, userId } = await db.transaction(async (tx) => {
    const m = await lockMemory(tx, auth, memoryId);
    const t = auth.tenantId;
    const writer = new MemoryWriter(tx, t);
    // Reviews naming it: an open conflict's other claim was made inactive by the review, so it is active again.
    const named = await rows<{ id: string; status: string; claim_a_id: string | null; claim_b_id: string }>(
      tx,
      sql`SELECT id, status, claim_a_id, claim_b_id FROM reviews
          WHERE tenant_id = ${t} AND (claim_a_id = ${m.id} OR claim_b_id = ${m.id} OR resolution_memory_id = ${m.id}) FOR UPDATE`,
    );
    let restored = 0;
    for (const r of named.filter((x) => x.status === 'open')) {
      const otherId = r.claim_a_id === m.id ? r.claim_b_id : r.claim_a_id;
      if (!otherId) continue;
      const [other] = await tx
        .update(memories)
        .set({ status: 'active', supersededBy: null, updatedAt: sql`now()` })
        .where(and(eq(memories.tenantId, t), eq(memories.id, otherId), eq(memories.status, 'inactive')))
        .returning();
      if (!other) continue;
      restored++;
      writer.record(
        ledgerRow(other, { action: 'restored', from: 'inactive', to: 'active', reason: 'the other claim of its review was deleted permanently', actor: auth.actor }),
      );
    }
    const reviewIds = JSON.stringify(named.map((r) => r.id));
    const webhookEvents = await count(
      tx,
      sql`DELETE FROM webhook_events WHERE tenant_id = ${t}
            AND (payload->'data'->>'memory_id' = ${m.id}
                 OR payload->'data'->>'review_id' IN (SELECT jsonb_array_elements_text(${reviewIds}::jsonb)))
          RETURNING id`,
    );
    const reviewsDeleted = await count(tx, sql`DELETE FROM reviews WHERE tenant_id = ${t} AND id IN (SELECT jsonb_array_elements_text(${reviewIds}::jsonb)::uuid) RETURNING id`);
    const claimRevisions = await count(tx, sql`DELETE FROM claim_revisions WHERE tenant_id = ${t} AND memory_id = ${m.id} RETURNING id`);
    const memoryEntities = await count(tx, sql`DELETE FROM memory_entities WHERE memory_id = ${m.id} RETURNING entity_id AS id`);
    const relationships = await count(tx, sql`DELETE FROM entity_relationships WHERE tenant_id = ${t} AND memory_id = ${m.id} RETURNING id`);
    const candidates = await count(tx, sql`DELETE FROM pending_candidates WHERE tenant_id = ${t} AND promoted_memory_id = ${m.id} RETURNING id`);
    const superseded = await count(tx, sql`UPDATE memories SET superseded_by = NULL WHERE tenant_id = ${t} AND superseded_by = ${m.id} RETURNING id`);
    // A finished job's memoised steps (kept for retries) hold the claims it extracted: they are no longer needed.
    const jobSteps = await count(
      tx,
      sql`UPDATE extraction_jobs SET step_state = '{}'::jsonb, updated_at = now()
          WHERE tenant_id = ${t} AND user_id = ${m.userId} AND status IN ('completed', 'processed', 'failed', 'dead')
            AND (id = ${m.jobId} OR strpos(step_state::text, ${JSON.stringify(m.content).slice(1, -1)}) > 0)
          RETURNING id`,
    );
    // A direct write (POST /v1/memories) has no conversation behind it: its source event's payload and saved answer
    // are the memory itself, and so is the saved Idempotency-Key answer of the call that wrote it.
    const directPayloads = await count(
      tx,
      sql`UPDATE source_events SET payload = NULL, add_response = NULL, payload_redacted_at = now()
          WHERE tenant_id = ${t} AND id = ${m.sourceEventId}
            AND job_id IN (SELECT id FROM extraction_jobs WHERE tenant_id = ${t} AND kind = 'direct')
          RETURNING id`,
    );
    const idempotentAnswers = await count(
      tx,
      sql`DELETE FROM idempotency_keys WHERE tenant_id = ${t} AND strpos(response_body::text, ${m.id}) > 0 RETURNING key AS id`,
    );
    const removed = await count(tx, sql`DELETE FROM memories WHERE tenant_id = ${t} AND id = ${m.id} RETURNING id`);
    writer.touch(m.userId);
    await writer.commit();
    const counts: PurgeCounts = {
      memories: removed,
      claim_revisions: claimRevisions,
      memory_entities: memoryEntities,
      entity_relationships: relationships,
      pending_candidates: candidates,
      reviews: reviewsDeleted,
      claims_restored: restored,
      superseded_links_cleared: superseded,
      webhook_events: webhookEvents,
      job_steps_cleared: jobSteps,
      direct_payloads_cleared: directPayloads,
      idempotent_answers: idempotentAnswers,
    };
    await recordAudit(tx, { tenantId: t, actor: auth.actor, action: 'memory.purged', targetType: 'memory', targetId: m.id, details: { ...counts, category: m.category } });
    return { counts, userId: m.userId };
  });
  deps.hotTier?.evict(userId);
  return { id: memoryId, deleted: true as const, counts };
}
