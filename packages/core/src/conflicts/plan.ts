/**
 * What storing a new claim does to a user's existing claims, as a pure function: the tenant store
 * (jobs/extraction-pipeline.ts) and the universal store (universal/pipeline.ts) both execute its plan.
 *
 * - An active claim that says the same (claims.ts `relateClaims` → `same`) is reinforced; nothing new is stored.
 * - Every contradicting claim is decided with the ordering rule (decide.ts). If any of them wins, the new claim
 *   is stored inactive, superseded by the first that won, and nothing else changes.
 * - Otherwise the claims the new one beat become inactive, superseded by it; those it ties with become inactive
 *   too and a review opens for each, and then the new claim waits inactive as well.
 * - Compatible claims (other slots, multi-valued slots, a negation of another value) are left alone.
 */
import { type Claim, relateClaims } from './claims';
import { type ClaimEvidence, type DecidedBy, decideConflict } from './decide';

export interface ExistingClaim {
  memoryId: string;
  claim: Pick<Claim, 'subject' | 'value' | 'negated'>;
  evidence: ClaimEvidence;
}

export type ClaimPlan =
  | { kind: 'reinforce'; memoryId: string }
  | { kind: 'lose'; to: string; by: DecidedBy }
  | { kind: 'store'; supersede: { memoryId: string; by: DecidedBy }[]; review: string[] };

export function planClaim(incoming: { claim: Pick<Claim, 'subject' | 'value' | 'negated'>; evidence: ClaimEvidence }, existing: readonly ExistingClaim[]): ClaimPlan {
  const related = existing.map((e) => ({ e, relation: relateClaims(e.claim, incoming.claim) }));
  const same = related.find((r) => r.relation === 'same');
  if (same) return { kind: 'reinforce', memoryId: same.e.memoryId };
  const supersede: { memoryId: string; by: DecidedBy }[] = [];
  const review: string[] = [];
  for (const { e } of related.filter((r) => r.relation === 'contradiction')) {
    const decision = decideConflict(e.evidence, incoming.evidence);
    if (decision.outcome === 'existing_wins') return { kind: 'lose', to: e.memoryId, by: decision.by };
    if (decision.outcome === 'incoming_wins') supersede.push({ memoryId: e.memoryId, by: decision.by });
    else review.push(e.memoryId);
  }
  return { kind: 'store', supersede, review };
}

/** Importance gained when the same fact is said again, and confidence (capped at 1). */
export const REINFORCEMENT = { importance: 0.05, confidence: 0.02 } as const;

/**
 * The one reinforcement rule (extraction, corrections and the universal store): the higher of the two scores
 * plus a step, at most 1 — a fact said again matters more and is surer.
 */
export function reinforcedScores(existing: { importance: number; confidence: number }, incoming: { importance: number; confidence: number }) {
  return {
    importance: Math.min(1, Math.max(existing.importance, incoming.importance) + REINFORCEMENT.importance),
    confidence: Math.min(1, Math.max(existing.confidence, incoming.confidence) + REINFORCEMENT.confidence),
  };
}
