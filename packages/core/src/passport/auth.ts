/**
 * The credential check of the universal endpoints (docs/passport.md, "Universal endpoint credentials"):
 * `Authorization: ApiKey <agent key>` names the agent, `X-Service-UUI: <token>` the passport user. Shared by
 * every /v1/universal/* handler.
 */
import { type Db, type GrantAccessType, and, eq, grants, passportConnections, uuiTokens } from '@memory/db';
import { sha256Hex } from '../crypto';
import { ApiError, Errors } from '../errors';
import { authenticateAgentKey } from './agents';

export const uuiTokenInvalid = () =>
  new ApiError(
    401,
    'uui_token_invalid',
    'Send `X-Service-UUI` with the token your backend received from POST /v1/agents/passport-token; this one is unknown, revoked or disconnected.',
    { headers: { 'WWW-Authenticate': 'X-Service-UUI' } },
  );

export const uuiTokenAgentMismatch = () =>
  new ApiError(403, 'uui_token_agent_mismatch', 'This X-Service-UUI token was issued to another agent; each token works only with the key of its agent.');

export interface UniversalAgentAuth {
  agent: { id: string; tenantId: string; name: string };
  passportUserId: string;
  /** The active grant of this (passport user, agent), or null. */
  grant: { id: string; categories: string[]; accessType: GrantAccessType } | null;
}

/**
 * 401 `unauthorized` for a missing, unknown or revoked agent key; 401 `uui_token_invalid` for a missing, unknown,
 * revoked or expired X-Service-UUI token or one whose connection the user disconnected; 403
 * `uui_token_agent_mismatch` for a live token issued to another agent. `grant` is the user's ACTIVE grant for
 * this agent, else null (the universal endpoints answer `no_grant_for_user` then).
 */
export async function authenticateUniversalAgent(
  db: Db,
  agentKey: string,
  uuiToken: string,
): Promise<UniversalAgentAuth> {
  const agent = agentKey ? await authenticateAgentKey(db, agentKey) : null;
  if (!agent) throw Errors.unauthorized('Send `Authorization: ApiKey <agent key>` with a valid global agent key.');
  if (!uuiToken || !uuiToken.startsWith('mem_uui_') || uuiToken.length > 200) throw uuiTokenInvalid();
  const [found] = await db
    .select({ token: uuiTokens, disconnectedAt: passportConnections.disconnectedAt })
    .from(uuiTokens)
    .leftJoin(passportConnections, eq(passportConnections.id, uuiTokens.connectionId))
    .where(eq(uuiTokens.tokenHash, sha256Hex(uuiToken)))
    .limit(1);
  const now = Date.now();
  if (
    !found ||
    found.token.revokedAt ||
    found.disconnectedAt ||
    (found.token.expiresAt && found.token.expiresAt.getTime() <= now)
  ) {
    throw uuiTokenInvalid();
  }
  if (found.token.agentId !== agent.id) throw uuiTokenAgentMismatch();
  const [grant] = await db
    .select({ id: grants.id, categories: grants.categories, accessType: grants.accessType })
    .from(grants)
    .where(and(eq(grants.passportUserId, found.token.passportUserId), eq(grants.agentId, agent.id), eq(grants.status, 'active')))
    .limit(1);
  return {
    agent: { id: agent.id, tenantId: agent.tenantId, name: agent.name },
    passportUserId: found.token.passportUserId,
    grant: grant
      ? { id: grant.id, categories: grant.categories as string[], accessType: grant.accessType }
      : null,
  };
}
