/**
 * Readiness: 200 when the database answers (with the job runner and the extraction backlog), else 503
 * `database_unavailable` with the same fields. `GET /v1/health` is liveness and touches nothing (docs/operations.md).
 */
import { Errors, checkReadiness } from '@memory/core';
import { json, route } from '@/lib/http';

export const dynamic = 'force-dynamic';

export const GET = route(async ({ rt }) => {
  const readiness = await checkReadiness({
    db: rt.db,
    engine: rt.database.kind,
    jobMode: rt.config.jobs.mode,
    runnerRunning: rt.runner?.isRunning ?? false,
    threads: rt.jobDeps.threads,
    backlog: rt.config.quota.backlog,
  });
  // the problem's own `status` is the HTTP status (RFC 9457): the checks go beside it
  if (readiness.status !== 'ready') throw Errors.databaseUnavailable({ database: readiness.database, jobs: readiness.jobs });
  return json(readiness, { headers: { 'Cache-Control': 'no-store' } });
});
