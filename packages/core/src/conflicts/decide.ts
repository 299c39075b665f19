/**
 * The conflict ordering rule of the spec, as a pure function: when two claims about the same subject of one
 * user disagree, compare (1) the writers' authority for the memory's category, (2) observed_at recency by
 * UTC calendar day, (3) extraction confidence; if all three tie, a person decides (a review).
 */

export interface ClaimEvidence {
  /** Priority of the claim's writer for the memory's category (0–1000; no writer: DEFAULT_AUTHORITY). */
  authority: number;
  observedAt: Date;
  confidence: number;
}

export type Decision =
  | { outcome: 'incoming_wins' | 'existing_wins'; by: 'authority' | 'recency' | 'confidence' }
  | { outcome: 'review'; by: 'tie' };

/** Authority of a claim with default provenance (an add without a source block). */
export const DEFAULT_AUTHORITY = 0;

/** Confidences closer than this are equal: extraction confidence is not that precise. */
export const CONFIDENCE_EPSILON = 0.05;

const MS_PER_DAY = 86_400_000;
/** Observations on the same UTC day are equally recent (one bucket). */
export const recencyBucket = (d: Date) => Math.floor(d.getTime() / MS_PER_DAY);

export function decideConflict(existing: ClaimEvidence, incoming: ClaimEvidence): Decision {
  if (incoming.authority !== existing.authority) {
    return { outcome: incoming.authority > existing.authority ? 'incoming_wins' : 'existing_wins', by: 'authority' };
  }
  const ib = recencyBucket(incoming.observedAt);
  const eb = recencyBucket(existing.observedAt);
  if (ib !== eb) return { outcome: ib > eb ? 'incoming_wins' : 'existing_wins', by: 'recency' };
  // the 1e-9 keeps a nominal gap of exactly 0.05 from tying through floating-point error
  if (Math.abs(incoming.confidence - existing.confidence) + 1e-9 >= CONFIDENCE_EPSILON) {
    return { outcome: incoming.confidence > existing.confidence ? 'incoming_wins' : 'existing_wins', by: 'confidence' };
  }
  return { outcome: 'review', by: 'tie' };
}

/** A writer's priority for a category, from its authority rules. */
export function authorityFor(rules: { default_priority: number; categories?: Record<string, number> } | null, category: string): number {
  if (!rules) return DEFAULT_AUTHORITY;
  return rules.categories?.[category] ?? rules.default_priority;
}
