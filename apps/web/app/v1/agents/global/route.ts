import { createGlobalAgent, createGlobalAgentRequest } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

/** POST /v1/agents/global: a global agent of the tenant; `raw_agent_api_key` is shown once. */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createGlobalAgentRequest);
  const agent = await createGlobalAgent(ctx.rt.db, auth, body);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, agent_id: agent.id }, 'global agent created');
  return json(
    { data: agent, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
