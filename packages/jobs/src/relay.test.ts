import { getJobView } from '@memory/core';
import { type Database, eq, extractionJobs, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORRECTION_REQUESTED } from './correction';
import { EXTRACTION_REQUESTED } from './extraction';
import { InngestQueue } from './inngest';
import { JOB_RELAY_AFTER_SECONDS, relayQueuedJobs } from './relay';
import { openTestDatabase, queueConversation } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

type Sent = { name: string; id: string; data: Record<string, unknown> };

/** An Inngest client whose sends fail while `down` is set, and which records what it was sent. */
function fakeInngest() {
  const sent: Sent[] = [];
  const client = {
    down: false,
    sent,
    async send(events: Sent | Sent[]) {
      if (client.down) throw new Error('connect ECONNREFUSED inngest');
      sent.push(...(Array.isArray(events) ? events : [events]));
      return { ids: [] };
    },
  };
  return client;
}

const makeOverdue = (jobId: string) =>
  database.db
    .update(extractionJobs)
    .set({ runAfter: sql`now() - make_interval(secs => ${JOB_RELAY_AFTER_SECONDS + 5})` })
    .where(eq(extractionJobs.id, jobId));

describe('job relay (Inngest mode)', () => {
  it('keeps a job whose event could not be sent, and sends its event again once it is overdue', async () => {
    const inngest = fakeInngest();
    const queue = new InngestQueue(inngest as never);
    const { auth, jobId } = await queueConversation(database, 'I live in Lisbon.', 'relay-user');
    // the add committed its job; the send fails: the queue does not throw, the job stays queued
    inngest.down = true;
    await expect(queue.enqueue({ jobId, tenantId: auth.tenantId, userId: 'u', kind: 'extraction' })).resolves.toBeUndefined();
    expect(inngest.sent).toHaveLength(0);
    expect((await getJobView(database.db, auth.tenantId, jobId))?.status).toBe('queued');

    // not yet overdue: nothing to relay
    inngest.down = false;
    expect((await relayQueuedJobs(database.db, inngest as never)).relayed).toBe(0);

    await makeOverdue(jobId);
    const first = await relayQueuedJobs(database.db, inngest as never);
    expect(first.relayed).toBeGreaterThanOrEqual(1);
    const event = inngest.sent.find((e) => e.data.job_id === jobId);
    // the same id the add's send would have used, so Inngest drops it if it had arrived after all
    expect(event).toEqual({ name: EXTRACTION_REQUESTED, id: `extraction-${jobId}`, data: { job_id: jobId, tenant_id: auth.tenantId, user_id: expect.any(String) } });
  });

  it('sends a correction under its own event name, and leaves running and finished jobs alone', async () => {
    const inngest = fakeInngest();
    const { jobId: correction } = await queueConversation(database, 'I work at Acme.', 'relay-correction');
    await database.db.update(extractionJobs).set({ kind: 'correction' }).where(eq(extractionJobs.id, correction));
    const { jobId: running } = await queueConversation(database, 'I have a cat.', 'relay-running');
    await database.db.update(extractionJobs).set({ status: 'running' }).where(eq(extractionJobs.id, running));
    const { jobId: done } = await queueConversation(database, 'I like tea.', 'relay-done');
    await database.db.update(extractionJobs).set({ status: 'completed' }).where(eq(extractionJobs.id, done));
    for (const id of [correction, running, done]) await makeOverdue(id);
    await relayQueuedJobs(database.db, inngest as never);
    const ids = inngest.sent.map((e) => e.data.job_id);
    expect(ids).toContain(correction);
    expect(ids).not.toContain(running);
    expect(ids).not.toContain(done);
    expect(inngest.sent.find((e) => e.data.job_id === correction)).toMatchObject({ name: CORRECTION_REQUESTED, id: `correction-${correction}` });
  });
});
