/**
 * The MCP server over Streamable HTTP (packages/mcp; README "MCP server"). `Authorization: ApiKey <tenant key>`
 * gets the tenant tools; an agent key with `X-Service-UUI: <token>` gets the passport tools of that user's grant.
 * A missing or wrong key is 401 problem+json, as on /v1.
 */
import { handleMcpRequest } from '@memory/mcp';
import { type RouteContext, requireTenant, requireUniversalAgent, route } from '@/lib/http';

async function serve(ctx: RouteContext<unknown>): Promise<Response> {
  const caller = ctx.req.headers.has('x-service-uui')
    ? ({ kind: 'agent', auth: await requireUniversalAgent(ctx) } as const)
    : ({ kind: 'tenant', auth: await requireTenant(ctx) } as const);
  const { db, config, queue, quota, retrieval } = ctx.rt;
  return handleMcpRequest(ctx.req, { db, config, queue, quota, retrieval, log: ctx.log }, caller);
}

export const POST = route(serve);
export const GET = route(serve);
export const DELETE = route(serve);
