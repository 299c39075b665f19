import { getPublicAgent } from '@memory/core';
import { respond, route } from '@/lib/http';

/** GET /v1/agents/global/{agent_id}: the public profile, no authentication, never the tenant or keys. */
export const GET = route<{ agent_id: string }>(async (ctx) => {
  const agent = await getPublicAgent(ctx.rt.db, ctx.params.agent_id);
  return respond(ctx, agent);
});
