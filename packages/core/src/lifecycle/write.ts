/** One statement that writes new scores (and, for the lifecycle pass, archival) of many memories at once. */
import { type Db, rows, sql } from '@memory/db';

export interface MemoryScoreChange {
  id: string;
  importance: number;
  /** New feedback score; absent: unchanged. */
  feedback_score?: number;
  /** When the lifecycle pass stepped the memory (ISO 8601); absent: unchanged. */
  lifecycle_at?: string;
  /** Archive the memory (the lifecycle pass; `lifecycle_at` is then its updated_at). */
  archive?: boolean;
}

export async function writeMemoryScores(tx: Db, changes: MemoryScoreChange[]): Promise<void> {
  if (changes.length === 0) return;
  await rows(
    tx,
    sql`UPDATE memories m SET
          importance = v.importance,
          feedback_score = coalesce(v.feedback_score, m.feedback_score),
          lifecycle_at = coalesce(v.lifecycle_at, m.lifecycle_at),
          status = CASE WHEN v.archive THEN 'archived' ELSE m.status END,
          updated_at = CASE WHEN v.archive THEN v.lifecycle_at ELSE m.updated_at END
        FROM jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
          AS v(id uuid, importance real, feedback_score real, lifecycle_at timestamptz, archive boolean)
        WHERE m.id = v.id`,
  );
}
