import { Errors, getUniversalJobView } from '@memory/core';
import { isUuid, requireUniversalAgent, respond, route } from '@/lib/http';

export const GET = route<{ job_id: string }>(async (ctx) => {
  const auth = await requireUniversalAgent(ctx);
  const jobId = ctx.params.job_id;
  // Another agent's or another passport user's job answers like one that does not exist.
  const job = isUuid(jobId)
    ? await getUniversalJobView(ctx.rt.db, { passportUserId: auth.passportUserId, agentId: auth.agent.id }, jobId)
    : null;
  if (!job) throw Errors.notFound(`Universal job ${jobId}`);
  return respond(ctx, job);
});
