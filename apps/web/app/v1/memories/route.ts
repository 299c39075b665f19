import { listMemories } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.listMemories.query);
  const page = await listMemories(ctx.rt.db, auth, {
    externalUserId: q.external_user_id,
    limit: q.limit,
    cursor: q.cursor,
    status: q.status,
    category: q.category,
  });
  return respond(ctx, page);
});
