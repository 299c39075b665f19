import { exchangeLinkToken } from '@memory/core';
import { readJson, requireAgent, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/agents/operations';

/**
 * POST /v1/agents/passport-token: the agent's backend exchanges the approved link token for the user's
 * X-Service-UUI token (once, before it expires). The token travels only in this response body.
 */
export const POST = route(async (ctx) => {
  const agent = await requireAgent(ctx);
  const body = await readJson(ctx.req, operations.exchangeLinkToken.body);
  const issued = await exchangeLinkToken(ctx.rt.db, agent, body.link_token);
  ctx.log.info({ agent_id: agent.id, connection_id: issued.connection_id }, 'passport token issued');
  return respond(ctx, issued, { headers: { 'Cache-Control': 'no-store' } });
});
