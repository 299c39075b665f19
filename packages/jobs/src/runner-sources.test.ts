import { BuiltinExtractor, type JobTable } from '@memory/core';
import type { Db } from '@memory/db';
import { describe, expect, it, vi } from 'vitest';
import { EmbeddedQueue, EmbeddedRunner } from './runner';
import type { ClaimedJob, JobSource } from './sources';

/** A job table in memory: `queue` holds what a claim would find; each claim is counted. */
function fakeSource(table: JobTable) {
  const queue: ClaimedJob[] = [];
  const ran: string[] = [];
  const gates = new Map<string, () => void>();
  const source: JobSource & { claims: number } = {
    table,
    claims: 0,
    async claim() {
      source.claims++;
      return queue.shift() ?? null;
    },
    // a job runs until the test opens its gate
    body: (job) => async () => {
      ran.push(job.id);
      await new Promise<void>((resolve) => gates.set(job.id, resolve));
      return { status: 'completed' };
    },
  };
  const job = (id: string): ClaimedJob => ({ id, kind: 'extraction', attempts: 1, maxAttempts: 3, stepState: {}, logFields: {} });
  return { source, queue, ran, finish: (id: string) => gates.get(id)?.(), job };
}

// The fake bodies write nothing, so the database is never touched.
const deps = { db: {} as Db, extractor: new BuiltinExtractor() };
// A poll interval no test waits out: whatever happens below happens because the runner was woken.
const opts = { pollMs: 3_600_000, leaseSeconds: 3600, backoffBaseMs: 10, concurrency: 2 };

describe('embedded runner sources', () => {
  it('asks a table that had nothing again only when a job is queued into it, not once per job of the other', async () => {
    const tenant = fakeSource('extraction_jobs');
    const universal = fakeSource('universal_jobs');
    const runner = new EmbeddedRunner(deps, { ...opts, sources: [tenant.source, universal.source] });
    const queue = new EmbeddedQueue(runner);
    runner.start();
    try {
      await vi.waitFor(() => expect(universal.source.claims).toBe(1));
      for (const id of ['a', 'b', 'c']) {
        tenant.queue.push(tenant.job(id));
        await queue.enqueue({ kind: 'extraction', jobId: id, tenantId: 't', userId: 'u' });
        await vi.waitFor(() => expect(tenant.ran).toContain(id));
        tenant.finish(id);
      }
      expect(universal.source.claims).toBe(1);

      universal.queue.push(universal.job('p'));
      await queue.enqueue({ kind: 'universal', jobId: 'p', passportUserId: 'pu' });
      await vi.waitFor(() => expect(universal.ran).toEqual(['p']));
      universal.finish('p');
    } finally {
      await runner.stop();
    }
  });

  it('asks a table again when one of its jobs finishes: the same user’s next job may have been waiting for it', async () => {
    const tenant = fakeSource('extraction_jobs');
    const runner = new EmbeddedRunner(deps, { ...opts, sources: [tenant.source] });
    tenant.queue.push(tenant.job('first'));
    runner.start();
    try {
      await vi.waitFor(() => expect(tenant.ran).toEqual(['first']));
      // the runner had room for a second job and found none (it was the user's next one, held back)
      await vi.waitFor(() => expect(tenant.source.claims).toBe(2));
      tenant.queue.push(tenant.job('second'));
      tenant.finish('first');
      await vi.waitFor(() => expect(tenant.ran).toEqual(['first', 'second']));
      tenant.finish('second');
    } finally {
      await runner.stop();
    }
  });
});
