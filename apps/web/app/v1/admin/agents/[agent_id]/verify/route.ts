import { verifyGlobalAgent } from '@memory/core';
import { requireAdmin, respond, route } from '@/lib/http';

/** POST /v1/admin/agents/{agent_id}/verify: the operator marks an agent verified (404 without MEMORY_ADMIN_TOKEN). */
export const POST = route<{ agent_id: string }>(async (ctx) => {
  requireAdmin(ctx);
  const agent = await verifyGlobalAgent(ctx.rt.db, ctx.params.agent_id);
  ctx.log.info({ agent_id: agent.id }, 'global agent verified');
  return respond(ctx, agent);
});
