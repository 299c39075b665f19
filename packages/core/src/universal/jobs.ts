/**
 * The universal job table (`universal_jobs`), the passport's own queue: the same states, lease, backoff and
 * attempts as `extraction_jobs` — the row updates in jobs/repository.ts take the table (`'universal_jobs'`) —
 * but a job belongs to a passport user, not to a tenant. At most one universal job per passport user runs at
 * a time, so two agents' writes never race on one user's claims.
 */
import { type Db, and, eq, universalJobs } from '@memory/db';
import { claimJobId } from '../jobs/repository';
import type { UniversalJobView } from '../schemas/universal';

export type UniversalJobRow = typeof universalJobs.$inferSelect;

/** The job as its agent polls it (GET /v1/universal/memories/jobs/{id}); another agent's or user's job is null. */
export async function getUniversalJobView(
  db: Db,
  owner: { passportUserId: string; agentId: string },
  jobId: string,
): Promise<UniversalJobView | null> {
  const [job] = await db
    .select()
    .from(universalJobs)
    .where(and(eq(universalJobs.id, jobId), eq(universalJobs.passportUserId, owner.passportUserId), eq(universalJobs.agentId, owner.agentId)))
    .limit(1);
  if (!job) return null;
  return {
    job_id: job.id,
    status: job.status as UniversalJobView['status'],
    categories: job.categories as string[],
    memories_created: job.memoriesCreated,
    attempts: job.attempts,
    error: job.error,
    error_summary: job.errorSummary,
    extraction_metadata: job.extractionMetadata as Record<string, unknown>,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    finished_at: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}

/** Claims one runnable universal job (jobs/repository.ts claimJobId: lease, one running job per passport user). */
export async function claimNextUniversalJob(
  db: Db,
  opts: { workerId: string; leaseSeconds: number; jobId?: string },
): Promise<UniversalJobRow | null> {
  const id = await claimJobId(db, 'universal_jobs', opts);
  if (!id) return null;
  const [job] = await db.select().from(universalJobs).where(eq(universalJobs.id, id));
  return job ?? null;
}
