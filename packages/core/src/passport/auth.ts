/**
 * Credentials of the universal endpoints (docs/passport-universal.md): `Authorization: ApiKey <agent key>`
 * names a global agent, `X-Service-UUI: <token>` names the passport user that agent acts for. Both are looked
 * up by SHA-256 (only hashes are stored). The grant is returned, not enforced: add and retrieve decide what
 * a missing or read-only grant means for them.
 */
import { type Db, and, eq, globalAgents, grants, uuiTokens } from '@memory/db';
import { sha256Hex } from '../crypto';
import { ApiError, Errors } from '../errors';

export interface UniversalAgentAuth {
  agent: { id: string; tenantId: string; name: string };
  passportUserId: string;
  /** The active grant of this (passport user, agent), or null. */
  grant: { id: string; categories: string[]; accessType: 'read_only' | 'read_write' } | null;
}

/**
 * 401 for an unknown or revoked agent key and for an unknown, expired or revoked token; 403 when the token
 * was issued to another agent (it is valid, but not this caller's credential).
 */
export async function authenticateUniversalAgent(db: Db, agentKey: string, uuiToken: string): Promise<UniversalAgentAuth> {
  const [agent] = await db
    .select({ id: globalAgents.id, tenantId: globalAgents.tenantId, name: globalAgents.name, revokedAt: globalAgents.revokedAt })
    .from(globalAgents)
    .where(eq(globalAgents.keyHash, sha256Hex(agentKey)))
    .limit(1);
  if (!agent || agent.revokedAt) throw Errors.unauthorized('The agent key is unknown or revoked.');

  const [token] = await db.select().from(uuiTokens).where(eq(uuiTokens.tokenHash, sha256Hex(uuiToken))).limit(1);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= Date.now())) {
    throw Errors.unauthorized('The X-Service-UUI token is unknown, expired or revoked.');
  }
  if (token.agentId !== agent.id) {
    throw new ApiError(403, 'forbidden', 'The X-Service-UUI token was issued to another agent.');
  }

  const [grant] = await db
    .select({ id: grants.id, categories: grants.categories, accessType: grants.accessType })
    .from(grants)
    .where(and(eq(grants.passportUserId, token.passportUserId), eq(grants.agentId, agent.id), eq(grants.status, 'active')))
    .limit(1);
  return {
    agent: { id: agent.id, tenantId: agent.tenantId, name: agent.name },
    passportUserId: token.passportUserId,
    grant: grant
      ? {
          id: grant.id,
          categories: Array.isArray(grant.categories) ? grant.categories.filter((c): c is string => typeof c === 'string') : [],
          accessType: grant.accessType === 'read_write' ? 'read_write' : 'read_only',
        }
      : null,
  };
}
