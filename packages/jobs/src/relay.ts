/**
 * The job relay (Inngest mode): an add commits its job row and then sends the job's Inngest event; when that
 * send fails (Inngest unreachable for a moment), the job would stay `queued` for ever. Every minute the relay
 * sends again the events of jobs still queued a minute after they came due. Event ids are the jobs' (jobInngestEvent),
 * so Inngest drops the events it already has: a job waiting behind its user's concurrency limit is not run
 * twice. The embedded runner needs no relay: it claims queued jobs from the table itself.
 */
import { type Logger, stuckQueuedJobs } from '@memory/core';
import type { Db } from '@memory/db';
import { type InngestClient, jobInngestEvent } from './inngest';
import { createCronFunction } from './scheduler';

export const JOB_RELAY_FUNCTION_ID = 'memory-job-relay';
/** How long after coming due a queued job counts as possibly unsent. */
export const JOB_RELAY_AFTER_SECONDS = 60;
/** Jobs per table per run. */
export const JOB_RELAY_BATCH = 500;

/** Sends the events of the jobs left queued; how many were sent. */
export async function relayQueuedJobs(db: Db, inngest: Pick<InngestClient, 'send'>, log?: Logger): Promise<{ relayed: number }> {
  const jobs = await stuckQueuedJobs(db, JOB_RELAY_AFTER_SECONDS, JOB_RELAY_BATCH);
  if (jobs.length === 0) return { relayed: 0 };
  await inngest.send(jobs.map(jobInngestEvent));
  log?.info({ relayed: jobs.length }, 'job relay sent the events of queued jobs');
  return { relayed: jobs.length };
}

export function createJobRelayFunction(inngest: InngestClient, getDeps: () => Promise<{ db: Db; log?: Logger }>) {
  return createCronFunction(
    inngest,
    { id: JOB_RELAY_FUNCTION_ID, name: 'Send again the events of jobs left queued', cron: 'TZ=UTC * * * * *', retries: 2 },
    getDeps,
    (step, deps) => step.run('relay', () => relayQueuedJobs(deps.db, inngest, deps.log)),
  );
}
