import { createGlobalAgent } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/agents/operations';

/** POST /v1/agents/global: a global agent of the tenant; `raw_agent_api_key` is shown once. */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.createGlobalAgent.body);
  const agent = await createGlobalAgent(ctx.rt.db, auth, body);
  ctx.log.info({ agent_id: agent.id }, 'global agent created');
  return respond(ctx, agent, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
