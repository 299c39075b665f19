/**
 * The one write path for "a memory changed" (docs/conflicts.md, "One write path"): every change — an insert,
 * a reinforcement, a status transition with its reason — is recorded here as a claim-ledger row while the
 * caller writes the memory itself in the same transaction, and `commit` then writes what every change implies:
 * the ledger rows (one statement), the webhook outbox entries (one memory event per ledger row, plus the
 * caller's own events such as the job's or a review's), and one `memory_version` bump per touched user, so
 * retrieval's hot tier drops its cached set at once.
 */
import { type Db, claimRevisions, sql } from '@memory/db';
import { bumpMemoryVersion } from '../users';
import { type ExternalIds, ledgerChange, recordMemoryWebhookEvents } from '../webhooks/memory-events';
import type { WebhookEventInput } from '../webhooks/outbox';

type LedgerRow = typeof claimRevisions.$inferInsert;

export class MemoryWriter {
  private readonly rows: LedgerRow[] = [];
  private readonly touched = new Set<string>();

  constructor(
    private readonly tx: Db,
    private readonly tenantId: string,
  ) {}

  /** A memory changed: its ledger row (memories/ledger.ts `ledgerRow`). */
  record(row: LedgerRow): void {
    this.rows.push(row);
    this.touched.add(row.userId);
  }

  /** Something retrieval reads changed without a ledger entry (passages indexed, a score moved): bump the version. */
  touch(userId: string): void {
    this.touched.add(userId);
  }

  /** The ledger rows recorded so far (for the caller's counts). */
  get changes(): readonly LedgerRow[] {
    return this.rows;
  }

  /**
   * Writes the ledger rows, the outbox entries (the memory events and `more`; `eventUsers` are users whose
   * external id `more` needs besides the changed ones) and one version bump per touched user.
   */
  async commit(more?: (externalIds: ExternalIds) => WebhookEventInput[], eventUsers: readonly string[] = []): Promise<void> {
    // The rows of one transaction share its now(): a microsecond apiece keeps them in the order they were recorded.
    if (this.rows.length > 0) {
      await this.tx.insert(claimRevisions).values(this.rows.map((r, i) => ({ ...r, createdAt: r.createdAt ?? sql`now() + ${`${i} microseconds`}::interval` })));
    }
    if (this.rows.length > 0 || more) await recordMemoryWebhookEvents(this.tx, this.tenantId, this.rows.map(ledgerChange), more, eventUsers);
    await bumpMemoryVersion(this.tx, [...this.touched]);
  }
}
