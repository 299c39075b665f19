/** What each webhook event type means (the types themselves are in schemas/webhooks.ts; docs/webhooks.md lists each payload). */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../schemas/webhooks';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'job.completed': 'An extraction or correction job finished (status completed or processed).',
  'job.failed': 'A job stopped for good: failed (cannot succeed) or dead (every attempt failed).',
  'memory.created': 'A job stored a new memory (active, or inactive when it lost a conflict or waits for review).',
  'memory.updated': 'A memory changed: reinforced, superseded by a newer claim, or chosen in a review.',
  'memory.archived': 'A memory was archived: deleted through the API, archived by the lifecycle, or not chosen in a review.',
  'memory.pending': 'A new memory is held for review before write (docs/review-before-write.md); retrieve never returns it.',
  'memory.approved': 'An admin approved a held memory (as written, or edited): it is written now, and conflict rules applied.',
  'memory.rejected': 'An admin rejected a held memory: it is discarded (archived, kept in the ledger).',
  'review.created': 'A review waits for a person: equally trusted claims disagree (kind conflict) or a new memory is held (kind pending_write).',
  'review.resolved': 'A review was resolved: a claim chosen, or a held memory approved, edited or rejected (`decision`).',
  'grant.created': 'A passport user granted one of your global agents access.',
  'grant.revoked': 'A passport user revoked a grant of one of your global agents.',
  'quota.mode_changed': 'Your quota mode changed (FULL, PASSTHROUGH, DEGRADED_RETRIEVE, BLOCKED).',
  'user.erased': 'An end user was erased (DELETE /v1/users/{external_user_id}): the receipt id, counts and hashes, never the id itself.',
};

