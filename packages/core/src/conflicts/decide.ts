/**
 * The conflict ordering rule of the spec, as a pure function: when two claims about the same subject of one
 * user disagree, compare (1) the writers' authority for the memory's category, (2) recency, (3) extraction
 * confidence; if all three tie, a person decides (a review). docs/conflicts.md explains each step.
 *
 * Recency: a later observation by the **same writer** (or, for adds without a source block, the tenant's own
 * later add) wins however close in time — a writer does not contradict itself, it reports a change. Between
 * **different writers**, observations on the same UTC day are "the same moment" and tie, unless exactly one
 * of the two claims is said with change language ("actually I moved to Porto"), which then wins. A claim the
 * user stated in a correction (retrieval feedback) is never hidden by a review: it wins a tie.
 */

export interface ClaimEvidence {
  /** Priority of the claim's writer for the memory's category (0–1000; no writer: DEFAULT_AUTHORITY). */
  authority: number;
  observedAt: Date;
  confidence: number;
  /** The service writer of the claim's source event; null for an add without a source block. */
  writerId?: string | null;
  /** The claim was said with change or cessation language (claims.ts `change`). */
  change?: boolean;
  /** The claim comes from the user's own correction (retrieval feedback `user_corrected`). */
  userCorrected?: boolean;
}

export type DecidedBy = 'authority' | 'recency' | 'change' | 'confidence' | 'user_correction';

/** The ledger's words for each step of the rule ("… it has a more recent observation"). */
export const DECIDED_BY_REASON: Record<DecidedBy, string> = {
  authority: 'higher writer authority',
  recency: 'a more recent observation',
  change: 'change language at the same moment',
  confidence: 'higher extraction confidence',
  user_correction: "the user's own correction",
};

export type Decision =
  | { outcome: 'incoming_wins' | 'existing_wins'; by: DecidedBy }
  | { outcome: 'review'; by: 'tie' };

/** Authority of a claim with default provenance (an add without a source block). */
export const DEFAULT_AUTHORITY = 0;

/** Confidences closer than this are equal: extraction confidence is not that precise. */
export const CONFIDENCE_EPSILON = 0.05;

const MS_PER_DAY = 86_400_000;
/** Observations by different writers on the same UTC day are equally recent (one bucket). */
export const recencyBucket = (d: Date) => Math.floor(d.getTime() / MS_PER_DAY);

export function decideConflict(existing: ClaimEvidence, incoming: ClaimEvidence): Decision {
  if (incoming.authority !== existing.authority) {
    return { outcome: incoming.authority > existing.authority ? 'incoming_wins' : 'existing_wins', by: 'authority' };
  }
  if ((existing.writerId ?? null) === (incoming.writerId ?? null)) {
    // one writer reporting twice: the later observation is the current one; at the same instant, the later report
    return { outcome: incoming.observedAt.getTime() >= existing.observedAt.getTime() ? 'incoming_wins' : 'existing_wins', by: 'recency' };
  }
  const ib = recencyBucket(incoming.observedAt);
  const eb = recencyBucket(existing.observedAt);
  if (ib !== eb) return { outcome: ib > eb ? 'incoming_wins' : 'existing_wins', by: 'recency' };
  if (Boolean(incoming.change) !== Boolean(existing.change)) {
    return { outcome: incoming.change ? 'incoming_wins' : 'existing_wins', by: 'change' };
  }
  // the 1e-9 keeps a nominal gap of exactly 0.05 from tying through floating-point error
  if (Math.abs(incoming.confidence - existing.confidence) + 1e-9 >= CONFIDENCE_EPSILON) {
    return { outcome: incoming.confidence > existing.confidence ? 'incoming_wins' : 'existing_wins', by: 'confidence' };
  }
  if (Boolean(incoming.userCorrected) !== Boolean(existing.userCorrected)) {
    return { outcome: incoming.userCorrected ? 'incoming_wins' : 'existing_wins', by: 'user_correction' };
  }
  return { outcome: 'review', by: 'tie' };
}

/** A writer's priority for a category, from its authority rules. */
export function authorityFor(rules: { default_priority: number; categories?: Record<string, number> } | null, category: string): number {
  if (!rules) return DEFAULT_AUTHORITY;
  return rules.categories?.[category] ?? rules.default_priority;
}
