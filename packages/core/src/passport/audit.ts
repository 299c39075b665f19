/** The passport's audit trail: what happened to a passport and when, never memory content, codes or tokens. */
import { randomUUID } from 'node:crypto';
import { type Db, passportAudit } from '@memory/db';

export type PassportAuditAction =
  | 'passport.created'
  | 'passport.signed_in'
  | 'passport.deleted'
  | 'grant.created'
  | 'grant.updated'
  | 'grant.revoked'
  | 'link.approved'
  | 'link.declined'
  | 'link.exchanged'
  | 'connection.disconnected'
  | 'memory.deleted'
  | 'memory.archived'
  | 'passport.exported';

export async function recordPassportAudit(
  db: Db,
  passportUserId: string,
  action: PassportAuditAction,
  details: Record<string, string | number | boolean | null | string[]> = {},
): Promise<void> {
  await db.insert(passportAudit).values({ id: randomUUID(), passportUserId, action, details });
}
