/**
 * What the ordering rule (decide.ts) needs to know of a user's stored claims, read from the database: the
 * writers' authority, recency, confidence, change language, and whether a claim is the user's own correction.
 * The extraction store step (jobs/store-memory.ts) and the approval of a held memory (pending-writes.ts) both
 * build the plan's existing claims here.
 */
import { type Db, and, eq, extractionJobs, inArray, type memories } from '@memory/db';
import { detectClaim, storedClaim } from './claims';
import { type ClaimEvidence, authorityFor } from './decide';
import type { ExistingClaim } from './plan';

type MemoryRow = typeof memories.$inferSelect;
export type WriterRules = { default_priority: number; categories?: Record<string, number> };

/** Which of these memories came from a user's correction (a `correction` job): such a claim never waits for a review. */
export async function correctionJobIds(tx: Db, rows: readonly Pick<MemoryRow, 'jobId'>[]): Promise<Set<string>> {
  const jobIds = [...new Set(rows.map((r) => r.jobId).filter((id): id is string => id !== null))];
  if (jobIds.length === 0) return new Set();
  const found = await tx
    .select({ id: extractionJobs.id })
    .from(extractionJobs)
    .where(and(inArray(extractionJobs.id, jobIds), eq(extractionJobs.kind, 'correction')));
  return new Set(found.map((j) => j.id));
}

/** The ordering rule's evidence for a stored memory, given its writer's rules. */
export function storedClaimEvidence(row: MemoryRow, rules: WriterRules | null, userCorrected = false): ClaimEvidence {
  return {
    authority: authorityFor(rules, row.category),
    observedAt: row.observedAt ?? row.createdAt,
    confidence: row.confidence,
    writerId: row.writerId,
    change: detectClaim(row.content)?.change ?? false,
    userCorrected,
  };
}

/** The stored claims among `rivals`, with the evidence the ordering rule compares. */
export async function existingClaimsOf(
  tx: Db,
  rivals: readonly MemoryRow[],
  rulesOf: (writerId: string | null) => Promise<WriterRules | null>,
): Promise<ExistingClaim[]> {
  const corrected = await correctionJobIds(tx, rivals);
  const existing: ExistingClaim[] = [];
  for (const rival of rivals) {
    const stored = storedClaim(rival);
    if (!stored) continue;
    const userCorrected = rival.jobId !== null && corrected.has(rival.jobId);
    existing.push({ memoryId: rival.id, claim: stored, evidence: storedClaimEvidence(rival, await rulesOf(rival.writerId), userCorrected) });
  }
  return existing;
}
