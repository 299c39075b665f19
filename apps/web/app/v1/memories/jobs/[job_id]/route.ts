import { Errors, getJobView } from '@memory/core';
import { isUuid, requireTenant, respond, route } from '@/lib/http';

export const GET = route<{ job_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const jobId = ctx.params.job_id;
  // Another tenant's job and a job that does not exist answer the same.
  const job = isUuid(jobId) ? await getJobView(ctx.rt.db, auth.tenantId, jobId) : null;
  if (!job) throw Errors.notFound(`Job ${jobId}`);
  return respond(ctx, job);
});
