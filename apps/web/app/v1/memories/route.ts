import { listMemories, listMemoriesQuery } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, listMemoriesQuery);
  const page = await listMemories(ctx.rt.db, auth, {
    externalUserId: q.external_user_id,
    limit: q.limit,
    cursor: q.cursor,
    status: q.status,
    category: q.category,
  });
  return respond(ctx, page);
});
